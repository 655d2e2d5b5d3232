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

/**
 * The note for an answer with a plan; undefined when the question stated no MFU. `uptime`: where the answer's days are on
 * the wall clock at an uptime asked (the nodes search's), the days at the stated MFU are too, the ideal days over it.
 */
export function statedMfuNote(p: AskParameters, e: EstimateOk, uptime = 1): string | undefined {
  if (p.mfu === undefined) return undefined;
  const stated = percentOf(p.mfu);
  const predicted = formatPercent(e.mfu);
  const said = `You stated ${stated} MFU; the planner predicts ${predicted} for this layout`;
  if (predicted === formatPercent(p.mfu)) return `${said}, the same.`;
  const scale = e.mfu / p.mfu;
  const gpus = e.resolved.nodes * e.resolved.gpusPerNode === e.resolved.gpus ? countOf(e.resolved.nodes, 'node') : countOf(e.resolved.gpus, 'GPU');
  if (e.timeToTrain === undefined) return `${said}. At ${stated} MFU the same ${gpus} would take ${formatSeconds(e.stepTimeSeconds * scale)} per step.`;
  const days = (e.timeToTrain.days * scale) / uptime;
  const limit = p.deadlineSeconds === undefined ? undefined : toDays(p.deadlineSeconds);
  const deadline = limit === undefined ? '' : `, ${days > limit ? 'past' : 'within'} the ${Number(limit.toFixed(1))}-day deadline`;
  return `${said}. At ${stated} MFU the same ${gpus} would take ${formatDays(days)}${deadline}.${limit !== undefined && days > limit ? neededAtStated(e, days, limit, stated) : ''}`;
}

/**
 * " At 40% MFU the 30-day deadline needs 118 nodes (944 GPUs).": the nodes that meet the deadline at the stated MFU, where
 * the plan's own nodes miss it at that MFU (QA: the answer said only that 108 nodes would take 32.6 days). At one MFU the
 * run's model FLOPs take GPUs × time in proportion (MFU is model FLOPs over GPUs × peak × time: Chowdhery et al. 2022,
 * Appendix B), so the GPUs needed are the plan's GPUs × its days at the stated MFU / the deadline, in whole nodes. The same
 * MFU on more nodes is the stated figure's assumption, not the planner's (its MFU falls as a cluster grows).
 */
function neededAtStated(e: EstimateOk, days: number, limit: number, stated: string): string {
  const perNode = e.resolved.gpusPerNode;
  const nodes = Math.ceil((e.resolved.gpus * days) / limit / perNode);
  return ` At ${stated} MFU the ${Number(limit.toFixed(1))}-day deadline needs ${countOf(nodes, 'node')} (${countOf(nodes * perNode, 'GPU')}), if that MFU holds on them.`;
}

/** The note for an answer without a plan (none fits or meets the goal): the stated MFU is still said. */
export const statedMfuUnused = (p: AskParameters): string | undefined =>
  p.mfu === undefined ? undefined : `You stated ${percentOf(p.mfu)} MFU; plans here take the MFU the planner predicts for each layout, not a stated one.`;

/** A note that may be absent, as a list to spread into an answer's notes. */
export const listOf = (note: string | undefined): string[] => (note === undefined ? [] : [note]);
