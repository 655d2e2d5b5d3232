/**
 * Why a candidate was not (fully) evaluated, or lost. Every candidate of the space is either settled without a
 * full estimate, under one of these (the search's `pruned`), or estimated in full, and then fits or is refused
 * under one of these (its `refused`): pruned + full estimates add up to the space's size.
 */
export type PruneReason =
  | 'gpus-indivisible'
  | 'heads-indivisible'
  | 'too-many-stages'
  | 'pipeline-split'
  | 'sequence-indivisible'
  | 'context-needs-fused-attention'
  | 'batch-indivisible'
  | 'interleave-indivisible'
  | 'interleave-needs-overlap'
  | 'tp-overlap-needs-sequence-parallel'
  | 'tp-overlap-crosses-nvlink'
  | 'sequence-parallel-indivisible'
  | 'redundant'
  | 'out-of-memory'
  | 'planner-refused'
  | 'dominated'
  | 'budget';

export const PRUNE_REASON_TEXT: Readonly<Record<PruneReason, string>> = {
  'gpus-indivisible': 'tensor × pipeline × context does not divide the GPUs',
  'heads-indivisible': 'tensor parallelism does not divide the attention heads, key/value heads or FFN size',
  'too-many-stages': 'more pipeline stages than layers',
  'pipeline-split': 'no Megatron split of the layers over the pipeline stages: middle stages of ⌈layers / stages⌉ leave none for the first or last stage, '
    + 'or the layers with the embedding and/or the loss counted as one each do not divide over the stages',
  'sequence-indivisible': 'context parallelism does not divide the sequence length into 2 × CP equal chunks',
  'context-needs-fused-attention': 'context parallelism runs only in Transformer Engine\'s fused attention, not the unfused kernels the scenario uses',
  'batch-indivisible': 'the global batch is not a multiple of micro-batch × data-parallel size',
  'interleave-indivisible': 'virtual stages need more than one pipeline stage, every stage\'s layers divisible by the virtual stages (with the embedding or the loss '
    + 'counted, the slots divisible into stages × virtual stages chunks), and micro-batches in whole rounds of the pipeline stages',
  'interleave-needs-overlap': 'the interleaved schedule on 2 pipeline stages needs overlapped pipeline sends (overlapPipelineComm); without them Megatron asks for more than 2 stages',
  'tp-overlap-needs-sequence-parallel': 'tensor-parallel communication overlap (--tp-comm-overlap) needs sequence parallelism, which needs tensor parallelism',
  'tp-overlap-crosses-nvlink': 'tensor-parallel communication overlap (--tp-comm-overlap) runs only within an NVLink domain, which the tensor-parallel group crosses',
  'sequence-parallel-indivisible': 'sequence parallelism does not split each context-parallel rank\'s tokens evenly over the tensor-parallel ranks',
  redundant: 'the same plan as another candidate (sequence parallelism without tensor parallelism, the distributed optimizer with one data-parallel replica, '
    + 'a partial recompute of every layer, which is full recompute) or a slower one than a candidate also searched (a partial recompute where the same plan without recompute fits, or is itself dropped as slower than the best found)',
  'out-of-memory': 'does not fit in GPU memory',
  'planner-refused': 'the planner refused it for a rule the enumeration does not mirror (the example names the field)',
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
