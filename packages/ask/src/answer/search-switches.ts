import { formatShare } from '@trainplan/units';
import { modelShapeOf } from '../model-of.ts';
import type { AskParameters } from '../question.ts';
import { SWITCHES } from '../scenario.ts';

/**
 * The question's switches (parse/switches-read.ts) as a search request takes them, so that a searched plan is the one a
 * stated layout with the same words would be: the overlaps and scatter-gather as `settings` (held fixed for every
 * candidate), dropout, the attention kernel and FP8 weights in `training`, and the share of memory and the schedule as
 * constraints. QA: "how long … on 64 H100 nodes with 90% memory" planned at the default 95%.
 */

/** The request's `settings`: the overlaps and scatter-gather stated; none where the question states none. */
export function searchSettingsOf(p: AskParameters): { settings?: Partial<Record<(typeof SWITCHES)[number], boolean>> } {
  const settings = Object.fromEntries(SWITCHES.filter((f) => p[f] !== undefined).map((f) => [f, p[f]]));
  return Object.keys(settings).length === 0 ? {} : { settings };
}

/** The request's training switches: dropout, the attention kernel and FP8 weights as stated. */
export const searchTrainingSwitches = (p: AskParameters): { dropout?: boolean; attentionKernel?: 'flash' | 'unfused'; fp8Params?: boolean } => ({
  ...(p.dropout !== undefined && { dropout: p.dropout }),
  ...(p.attentionKernel !== undefined && { attentionKernel: p.attentionKernel }),
  ...(p.fp8Params !== undefined && { fp8Params: p.fp8Params }),
});

/** The request's `virtualStageCounts` caps its list at 64 counts (protocol request-parts.ts). */
const MOST_COUNTS = 64;

/**
 * The constraints the switches add: the share of memory, and a schedule as the model chunks it runs (1F1B: one a stage;
 * interleaved: 2 or more, each count up to a layer a chunk, which the search prunes where it does not split the layers:
 * search-space.ts megatronVirtualStages). Chunks stated are the search's already (constraintsOf); GPipe is said not
 * searched (parse/switches-planned.ts).
 */
export function switchConstraints(p: AskParameters): { memoryFraction?: number; virtualStageCounts?: number[] } {
  const layers = modelShapeOf(p)?.layers ?? MOST_COUNTS;
  const chunks = p.virtualStages !== undefined ? undefined
    : p.schedule === '1f1b' ? [1]
      : p.schedule === 'interleaved' ? Array.from({ length: Math.max(1, Math.min(MOST_COUNTS, layers - 1)) }, (_, i) => i + 2) : undefined;
  return {
    ...(p.memoryFraction !== undefined && { memoryFraction: p.memoryFraction }),
    ...(chunks !== undefined && { virtualStageCounts: chunks }),
  };
}

/** The share of memory the search held its plans to, where the question stated one (protocol request-parts.ts: default 95%). */
export const memoryFractionNote = (p: AskParameters): string[] =>
  (p.memoryFraction === undefined ? [] : [`Every plan searched held to ${formatShare(p.memoryFraction)} of each GPU's memory, as asked (the search's default is 95%).`]);
