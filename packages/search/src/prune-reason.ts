/**
 * Why a candidate was not (fully) evaluated, or lost. Every candidate of the space ends in exactly
 * one of these or in the ranking, so the counts add up to the space's size.
 */
export type PruneReason =
  | 'gpus-indivisible'
  | 'heads-indivisible'
  | 'too-many-stages'
  | 'sequence-indivisible'
  | 'context-needs-fused-attention'
  | 'batch-indivisible'
  | 'interleave-indivisible'
  | 'redundant'
  | 'out-of-memory'
  | 'dominated'
  | 'budget';

export const PRUNE_REASON_TEXT: Readonly<Record<PruneReason, string>> = {
  'gpus-indivisible': 'tensor × pipeline × context does not divide the GPUs',
  'heads-indivisible': 'tensor parallelism does not divide the attention heads, key/value heads or FFN size',
  'too-many-stages': 'more pipeline stages than layers',
  'sequence-indivisible': 'context parallelism does not divide the sequence length into 2 × CP equal chunks',
  'context-needs-fused-attention': 'context parallelism runs only in Transformer Engine\'s fused attention, not the unfused kernels the scenario uses',
  'batch-indivisible': 'the global batch is not a multiple of micro-batch × data-parallel size',
  'interleave-indivisible': 'virtual stages need layers divisible by pipeline × virtual stages, and micro-batches by pipeline stages',
  redundant: 'the same plan as another candidate (sequence parallelism without tensor parallelism, or a partial recompute that is not needed)',
  'out-of-memory': 'does not fit in GPU memory',
  dominated: 'its lower bound on step time is already slower than the k-th best found',
  budget: 'not evaluated: the candidate budget ran out',
};

/** Counts per reason, with one example message each. */
export interface PruneTally {
  readonly counts: Record<PruneReason, number>;
  readonly examples: Partial<Record<PruneReason, string>>;
}

export function emptyTally(): PruneTally {
  const counts = Object.fromEntries(Object.keys(PRUNE_REASON_TEXT).map((k) => [k, 0])) as Record<PruneReason, number>;
  return { counts, examples: {} };
}

export function addPruned(tally: PruneTally, reason: PruneReason, count: number, example?: () => string): void {
  tally.counts[reason] += count;
  if (example !== undefined && tally.examples[reason] === undefined) tally.examples[reason] = example();
}
