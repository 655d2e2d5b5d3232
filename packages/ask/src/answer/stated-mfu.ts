import type { EstimateOk } from '@trainplan/protocol';
import { countOf, formatPercent, formatSeconds, toDays } from '@trainplan/units';
import { formatDays } from '../format.ts';
import type { AskParameters } from '../question.ts';

/**
 * An MFU the question states is acknowledged, never planned from: the plans come from the planner's
 * own model of compute and communication. The note gives the plan's MFU and what the same plan would
 * take at the stated one. A step's model FLOPs are fixed by the model and the batch, and MFU is those
 * FLOPs over GPUs × peak × time (Chowdhery et al. 2022, PaLM, Appendix B), so on the same GPUs time
 * scales as predicted MFU / stated MFU.
 */

/** "50%", "45.5%": a stated share as the asker would write it, without a trailing ".0". */
const percentOf = (mfu: number): string => formatPercent(mfu).replace(/\.0%$/, '%');

/** The note for an answer with a plan; undefined when the question stated no MFU. */
export function statedMfuNote(p: AskParameters, e: EstimateOk): string | undefined {
  if (p.mfu === undefined) return undefined;
  const stated = percentOf(p.mfu);
  const predicted = formatPercent(e.mfu);
  const said = `You stated ${stated} MFU; the planner predicts ${predicted} for this layout`;
  if (predicted === formatPercent(p.mfu)) return `${said}, the same.`;
  const scale = e.mfu / p.mfu;
  const gpus = e.resolved.nodes * e.resolved.gpusPerNode === e.resolved.gpus ? countOf(e.resolved.nodes, 'node') : countOf(e.resolved.gpus, 'GPU');
  if (e.timeToTrain === undefined) return `${said}. At ${stated} MFU the same ${gpus} would take ${formatSeconds(e.stepTimeSeconds * scale)} per step.`;
  const days = e.timeToTrain.days * scale;
  const limit = p.deadlineSeconds === undefined ? undefined : toDays(p.deadlineSeconds);
  const deadline = limit === undefined ? '' : `, ${days > limit ? 'past' : 'within'} the ${Number(limit.toFixed(1))}-day deadline`;
  return `${said}. At ${stated} MFU the same ${gpus} would take ${formatDays(days)}${deadline}.`;
}

/** The note for an answer without a plan (none fits or meets the goal): the stated MFU is still said. */
export const statedMfuUnused = (p: AskParameters): string | undefined =>
  p.mfu === undefined ? undefined : `You stated ${percentOf(p.mfu)} MFU; plans here take the MFU the planner predicts for each layout, not a stated one.`;

/** A note that may be absent, as a list to spread into an answer's notes. */
export const listOf = (note: string | undefined): string[] => (note === undefined ? [] : [note]);
