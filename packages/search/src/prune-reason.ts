import { INTERLEAVE_NEEDS_OVERLAP } from '@trainplan/planner';
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
  | 'zero-with-pipeline'
  | 'redundant'
  | 'out-of-memory'
  | 'planner-refused'
  | 'dominated'
  | 'budget';

/**
 * The reasons that are no rule: how the search settled a candidate without ranking it (prune-reason-text.ts words them).
 * A planner refusal is a rule, one the enumeration does not mirror.
 */
export const END_REASONS = ['redundant', 'out-of-memory', 'dominated', 'budget'] as const;
export type EndReason = (typeof END_REASONS)[number];

/** The rules a candidate can break, as ids: every reason but the four that say how the search settled it (END_REASONS). */
export type RuleReason = Exclude<PruneReason, EndReason>;

/**
 * The rules' texts: the answer's pruned tally describes each reason with its text, and whyNothingFits names the rules
 * that ruled every candidate out with these.
 */
export const RULE_REASON_TEXT: Readonly<Record<RuleReason, string>> = {
  'gpus-indivisible': 'tensor × pipeline × context does not divide the GPUs',
  'heads-indivisible': 'tensor parallelism does not divide the attention heads, key/value heads or FFN size',
  'too-many-stages': 'more pipeline stages than layers',
  'pipeline-split': 'no Megatron split of the layers over the pipeline stages: middle stages of ⌈layers / stages⌉ leave none for the first or last, '
    + 'or the stages do not divide the layers with the embedding and/or the loss counted',
  'sequence-indivisible': 'context parallelism does not divide the sequence length into 2 × CP equal chunks',
  'context-needs-fused-attention': 'context parallelism runs only in Transformer Engine\'s fused attention, not the unfused kernels the scenario uses',
  'batch-indivisible': 'the global batch is not a multiple of micro-batch × data-parallel size',
  'interleave-indivisible': 'virtual stages need more than one pipeline stage, each stage\'s layers (with the embedding or the loss counted, the slots) '
    + 'in equal chunks per virtual stage, and micro-batches in whole rounds of the stages',
  'interleave-needs-overlap': INTERLEAVE_NEEDS_OVERLAP,
  'tp-overlap-needs-sequence-parallel': 'tensor-parallel communication overlap (--tp-comm-overlap) needs sequence parallelism, which needs tensor parallelism',
  'tp-overlap-crosses-nvlink': 'tensor-parallel communication overlap (--tp-comm-overlap) runs only within an NVLink domain, which the tensor-parallel group crosses',
  'sequence-parallel-indivisible': 'sequence parallelism does not split each context-parallel rank\'s tokens evenly over the tensor-parallel ranks',
  'zero-with-pipeline': 'ZeRO-2 and 3 do not run with a pipeline (DeepSpeed and Megatron-FSDP refuse it)',
  // The refusal's own message names the field and the rule: whyNothingFits gives the first after this text.
  'planner-refused': 'a rule only the planner checks',
};

/** Counts per reason, with one example message each. */
export interface PruneTally {
  readonly counts: Record<PruneReason, number>;
  readonly examples: Partial<Record<PruneReason, string>>;
}

export function emptyTally(): PruneTally {
  const counts = Object.fromEntries([...Object.keys(RULE_REASON_TEXT), ...END_REASONS].map((k) => [k, 0])) as Record<PruneReason, number>;
  return { counts, examples: {} };
}

export function addPruned(tally: PruneTally, reason: PruneReason, count: number, example?: () => string): void {
  tally.counts[reason] += count;
  if (example !== undefined && tally.examples[reason] === undefined) tally.examples[reason] = example();
}

/**
 * The candidates each reason ruled out after their layout passed the GPU-count and head rules (TP · PP · CP dividing the
 * GPUs, TP the heads), and the deepest step of the enumeration at which it did (enumerate.ts: 0 for the tensor dimension,
 * one more for each dimension after it, the leaves last): how far the branches it ended had got.
 */
export type PastLayoutTally = Partial<Record<PruneReason, { count: number; depth: number }>>;

export function addPastLayout(tally: PastLayoutTally, reason: PruneReason, count: number, depth: number): void {
  const entry = (tally[reason] ??= { count: 0, depth });
  entry.count += count;
  entry.depth = Math.max(entry.depth, depth);
}
