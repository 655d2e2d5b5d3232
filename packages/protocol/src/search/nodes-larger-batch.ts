import { daysText, fewestNodes, nodesText, trainOnNodes, type CapacityOptions, type CapacityPoint, type SearchBase } from '@trainplan/search';
import { countOf, formatCount } from '@trainplan/units';
import type { LargerBatchJson } from './wire.ts';

/**
 * A plan whose pipeline bubble takes at least this share of its step is held back by its batch, not
 * its cluster: the bubble is (p − 1)/(v·m) of the compute (Narayanan et al. 2021, SC'21, §2.2.1), and
 * m, the micro-batches each pipeline gets, is the global batch over DP × micro-batch size, so on a
 * large cluster a fixed batch leaves few micro-batches per pipeline. A tenth of the step is about
 * the edge of SC'21's own configurations: Table 1's bubbles run from 0 to 12% of the ideal compute,
 * the largest at its largest models (529.6B: 34/280; 1T: 63/512), a little less of the whole step.
 */
export const BATCH_BOUND_BUBBLE_FRACTION = 0.1;

/** The pipeline bubble's share of a plan's step time. */
export function bubbleFraction(point: CapacityPoint): number {
  const e = point.plan.estimate;
  return e.breakdown.pipelineBubbleSeconds / e.stepTimeSeconds;
}

/**
 * True when the batch holds the plan back: its bubble takes BATCH_BOUND_BUBBLE_FRACTION of the step
 * or more, or every data-parallel rank gets a single micro-batch (then more GPUs can only go to
 * tensor or context parallelism, whose communication grows as each GPU's share shrinks).
 */
export function batchBound(point: CapacityPoint, globalBatchSize: number): boolean {
  const c = point.plan.candidate;
  return bubbleFraction(point) >= BATCH_BOUND_BUBBLE_FRACTION || globalBatchSize <= c.data * c.microBatchSize;
}

/**
 * The least gain worth a hint: a larger batch that saves under 5% of the nodes or days is within the
 * planner's resolution (its mean step-time error against published runs is 4.8%, docs/validation.md).
 */
export const MATERIAL_GAIN = 0.05;

export type LargerBatchQuestion =
  /** `point` is the fewest nodes that meet the deadline, or (missed) the fastest plan found, which misses it. */
  | { readonly kind: 'deadline'; readonly deadlineSeconds: number; readonly missed?: boolean; readonly pricePerGpuHour?: number }
  | { readonly kind: 'nodes'; readonly nodes: number; readonly pricePerGpuHour?: number };

/**
 * The same question asked with twice the global batch, when the batch holds `point` back and the
 * larger batch answers it materially better (by MATERIAL_GAIN): fewer nodes for a deadline (or meeting
 * a deadline `point` misses), fewer days on given nodes. A hint, not a change: whether a model trains
 * as well at the larger batch depends on its critical batch size (McCandlish et al. 2018, "An
 * Empirical Model of Large-Batch Training"), which no step-time model knows; Llama 3 405B doubled its
 * batch twice during pre-training, from 4M to 16M tokens (Dubey et al. 2024, §3.4.1). With
 * `whenBound: false` the larger batch is tried whatever the plan's bubble (the time–cost curve's
 * fastest size, where the batch spread over many GPUs shows as larger TP and CP as much as in the bubble).
 */
export function largerBatch(
  base: SearchBase, tokens: number, point: CapacityPoint, question: LargerBatchQuestion, options: CapacityOptions,
  { whenBound = true }: { readonly whenBound?: boolean } = {},
): LargerBatchJson | undefined {
  // The batch `point` was planned at (its size's own, with a batch per size), doubled and held at every size
  // searched: one batch to state, the one a user would give as --global-batch.
  const batch = point.globalBatchSize;
  const bound = batchBound(point, batch);
  if (whenBound && !bound) return undefined;
  const doubled = { ...base, globalBatchSize: 2 * batch };
  const { globalBatchFor: _perSize, ...fixed } = options;
  // Training takes whole optimizer steps (Narayanan et al. 2021, §2.2): a budget under one larger step is no run.
  if (tokens < doubled.globalBatchSize * doubled.seqLength) return undefined;
  const price = question.pricePerGpuHour;
  const found = question.kind === 'nodes'
    ? trainOnNodes(doubled, question.nodes, tokens, fixed, price)
    : answerOf(fewestNodes(doubled, tokens, { deadlineSeconds: question.deadlineSeconds, ...(price !== undefined && { pricePerGpuHour: price }) }, fixed));
  if (!found) return undefined;
  if (!materiallyBetter(question, point, found)) return undefined;
  return json(point, found, batch, base.seqLength, question.kind === 'deadline' && question.missed === true, bound);
}

/**
 * Whether `found` (the larger batch's answer) beats `point` by MATERIAL_GAIN: in days on the same
 * nodes, in nodes for a deadline `point` meets; any answer beats a `point` that misses its deadline.
 */
export function materiallyBetter(
  question: LargerBatchQuestion, point: Pick<CapacityPoint, 'nodes' | 'seconds'>, found: Pick<CapacityPoint, 'nodes' | 'seconds'>,
): boolean {
  if (question.kind === 'nodes') return found.seconds <= (1 - MATERIAL_GAIN) * point.seconds;
  return question.missed === true || found.nodes <= (1 - MATERIAL_GAIN) * point.nodes;
}

function answerOf(a: ReturnType<typeof fewestNodes>): CapacityPoint | undefined {
  return a.ok ? a : undefined;
}

function json(point: CapacityPoint, found: CapacityPoint, batch: number, seqLength: number, missed: boolean, bound: boolean): LargerBatchJson {
  const c = point.plan.candidate;
  const fraction = bubbleFraction(point);
  const m = point.plan.estimate.microBatches;
  const microBatches = `${m.toLocaleString('en-US')} micro-batch${m === 1 ? '' : 'es'}`;
  const pipelines = c.data === 1 ? `one pipeline of ${c.pipeline} stages takes ${countOf(batch, 'sequence')}, ${microBatches}`
    : `${c.data.toLocaleString('en-US')} data-parallel pipelines of ${c.pipeline} stages share ${countOf(batch, 'sequence')}, ${microBatches} each`;
  const why = fraction >= BATCH_BOUND_BUBBLE_FRACTION
    ? `the pipeline bubble is ${Math.round(fraction * 100)}% of each step (${pipelines})`
    : c.data === 1 ? `the whole batch (${countOf(batch, 'sequence')}) is a single micro-batch`
    : `each of the ${c.data.toLocaleString('en-US')} data-parallel ranks gets a single micro-batch of the ${countOf(batch, 'sequence')}`;
  const larger = 2 * batch;
  const gain = missed ? `meet the deadline on ${nodesText(found.nodes)} in ${daysText(found.days)}`
    : found.nodes < point.nodes ? `need ${nodesText(found.nodes)} (${(point.nodes - found.nodes).toLocaleString('en-US')} fewer), ${daysText(found.days)}`
    : `take ${daysText(found.days)} on ${nodesText(found.nodes)} (${daysText(point.days)} at the batch of ${batch.toLocaleString('en-US')})`;
  const message = `${bound ? `The batch holds this plan back: ${why}. ` : ''}A global batch of ${countOf(larger, 'sequence')} `
    + `(${formatCount(larger * seqLength).replace(/\s+/g, '')} tokens) would ${gain}, `
    + 'if the model trains as well at that batch (its critical batch size, McCandlish et al. 2018).';
  return {
    globalBatchSize: larger, bubbleFraction: fraction, nodes: found.nodes, gpus: found.gpus, days: found.days,
    seconds: found.seconds, gpuHours: found.gpuHours, ...(found.cost !== undefined && { cost: found.cost }), message,
  };
}
