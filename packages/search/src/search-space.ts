import { PIPELINE_SLOTS, pipelineSplit, splitsIntoChunks, type PipelineSlots, type StateSharding } from '@trainplan/model';
import type { RecomputeChoice, SearchBase } from './candidate.ts';

/**
 * The values the search tries for each dimension. Every combination is one candidate of the space;
 * data parallelism is not a dimension, it is what is left: GPUs / (tensor · pipeline · context).
 */
export interface SearchSpace {
  readonly tensor: readonly number[];
  /**
   * Pipeline stages; a p that does not divide the layers gives Megatron's uneven split (first and last
   * stages hold fewer, @trainplan/model pipelineSplit), and a p with no such split is pruned.
   */
  readonly pipeline: readonly number[];
  /**
   * What may take a layer's place in each pipeline split besides the layers (Megatron-Core's
   * --account-for-embedding/loss-in-pipeline-split; @trainplan/model pipeline-split.ts). A (p, slots)
   * pair whose slots p does not divide is pruned, as is one that splits the layers exactly as the layers
   * alone do (it is the same plan).
   */
  readonly pipelineSlots: readonly PipelineSlots[];
  readonly context: readonly number[];
  readonly virtualStages: readonly number[];
  readonly microBatchSize: readonly number[];
  readonly sequenceParallel: readonly boolean[];
  readonly recompute: readonly RecomputeChoice[];
  readonly sharding: readonly StateSharding[];
}

/**
 * Limits a user puts on the space (the "constraints"). A list (`tensorSizes`, `pipelineSizes`,
 * `microBatchSizes`, …) is exactly the values tried; a max caps them, a list included.
 */
export interface SearchConstraints {
  /** Exactly these tensor-parallel degrees (default: powers of two up to twice the NVLink domain). */
  readonly tensorSizes?: readonly number[];
  /** Exactly these pipeline depths (default: 1 to the layer count). */
  readonly pipelineSizes?: readonly number[];
  /** Exactly these context-parallel degrees (default: 1, 2, 4, 8). */
  readonly contextSizes?: readonly number[];
  /**
   * Exactly these numbers of model chunks per stage (default: every count Megatron accepts for some pipeline depth and
   * split layout of the space, megatronVirtualStages: up to one layer per model chunk).
   */
  readonly virtualStageCounts?: readonly number[];
  readonly maxTensor?: number;
  /** Keep tensor parallelism inside one NVLink domain (default false: crossing nodes is tried and explained). */
  readonly tensorWithinNode?: boolean;
  readonly maxPipeline?: number;
  /** Exactly these pipeline slot layouts (default: all four; 'layers' alone for a Megatron without the account-for flags). */
  readonly pipelineSlots?: readonly PipelineSlots[];
  readonly maxContext?: number;
  readonly maxVirtualStages?: number;
  readonly microBatchSizes?: readonly number[];
  readonly recompute?: readonly RecomputeChoice[];
  readonly sharding?: readonly StateSharding[];
  readonly sequenceParallel?: readonly boolean[];
  /** Usable share of GPU memory, (0, 1]: 0.9 keeps 10% headroom. Default TIGHT_MEMORY_SHARE (0.95). */
  readonly memoryFraction?: number;
}

/** 1, 2, 4, … up to `max`. */
export const powersOfTwoUpTo = (max: number): number[] => {
  const out: number[] = [];
  for (let x = 1; x <= max; x *= 2) out.push(x);
  return out;
};
/** A user's list of sizes, each once, smallest first (a repeated size would be the same candidates twice). */
const distinct = (xs: readonly number[]): number[] => [...new Set(xs)].sort((a, b) => a - b);
const range = (lo: number, hi: number): number[] => Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);

/**
 * The default space for a model and machine: tensor parallelism in powers of two up to twice the
 * NVLink domain (one step across nodes, so the answer can say why it loses), every pipeline depth up
 * to the layer count, context parallelism 1–8 (or up to chunks of 8,192 tokens past 64k tokens: CONTEXT_CHUNK_TOKENS),
 * every count of model chunks per stage that Megatron accepts on one of those depths (megatronVirtualStages), micro-batches
 * in powers of two 1–16 (Megatron takes any that divides the batch per replica: microBatchSizes adds the others; QA: GPT-3
 * 175B's 1,536 on 1,024 A100 runs micro-batch 3 in 18.12 s, 2.6% under powers of two's best, at 1.6× the space),
 * sequence parallelism on and off, four recompute modes, and Megatron's two optimizer layouts
 * (the ZeRO stages on request).
 */
export function defaultSearchSpace(base: SearchBase, constraints: SearchConstraints = {}): SearchSpace {
  const domain = base.nvlinkDomainGpus;
  const maxTensor = Math.min(constraints.maxTensor ?? 2 * domain, constraints.tensorWithinNode ? domain : Infinity);
  const layers = base.model.layers;
  const pipeline = constraints.pipelineSizes ? distinct(constraints.pipelineSizes) : range(1, Math.min(layers, constraints.maxPipeline ?? layers));
  const pipelineSlots = constraints.pipelineSlots ? [...new Set(constraints.pipelineSlots)] : PIPELINE_SLOTS;
  const virtualStages = constraints.virtualStageCounts
    ? distinct(constraints.virtualStageCounts)
    : megatronVirtualStages(layers, pipeline, pipelineSlots).filter((v) => v <= (constraints.maxVirtualStages ?? Infinity));
  return {
    tensor: constraints.tensorSizes ? distinct(constraints.tensorSizes) : powersOfTwoUpTo(maxTensor),
    pipeline,
    pipelineSlots,
    context: constraints.contextSizes ? distinct(constraints.contextSizes) : powersOfTwoUpTo(constraints.maxContext ?? defaultMaxContext(base.seqLength)),
    virtualStages,
    microBatchSize: constraints.microBatchSizes ? distinct(constraints.microBatchSizes) : powersOfTwoUpTo(16),
    sequenceParallel: constraints.sequenceParallel ?? [false, true],
    recompute: constraints.recompute ?? ['none', 'selective', 'full', 'full-partial'],
    sharding: constraints.sharding ?? megatronShardings(base),
  };
}

/**
 * Every number of model chunks per stage (v) that Megatron accepts on one of the `pipeline` depths (p ≥ 2) in one of the
 * `slots` layouts, smallest first, 1 included: v must divide every stage's layers (Megatron-LM arguments.py,
 * "number of layers per pipeline stage must be divisible by number of layers per virtual pipeline stage", where
 * --num-layers-per-virtual-pipeline-stage sets virtual_pipeline_model_parallel_size = layers per stage / layers per chunk,
 * and --num-virtual-stages-per-pipeline-rank sets it directly; TransformerConfig's uneven-split checks and the
 * account-for-embedding/loss slots: @trainplan/model splitsIntoChunks), so the largest is one layer (or slot) per chunk.
 * No fixed cap: QA, NVIDIA's GPT-3 175B recipe on 128 H100 runs TP 4 · PP 8 · v 12 (96 layers, 12 a stage, one per chunk),
 * 59,816 tokens/s against 59,304 for the v 6 a cap of 8 left the search. The enumeration prunes each (p, v) pair that does
 * not split (enumerate.ts) and the step bound ranks the rest, so the cost stays small: the 1T model on 3,072 A100 grows
 * from 6.55 M to 11.5 M candidates with the same 21 full estimates, about 17 → 20 ms a search.
 */
export function megatronVirtualStages(layers: number, pipeline: readonly number[], slots: readonly PipelineSlots[]): number[] {
  const found = new Set<number>([1]);
  for (const p of pipeline) {
    if (p < 2) continue;
    for (const s of slots) {
      const split = pipelineSplit(layers, p, s);
      if (split === undefined) continue;
      // A chunk holds at least one slot: v is at most a stage's share of the slots.
      for (let v = 2; v <= Math.ceil(split.slotCount / p); v++) if (splitsIntoChunks(split, v)) found.add(v);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The shortest chunk the default search splits a long sequence into: Llama 3 405B's 128k stage ran context parallelism
 * 16, chunks of 8,192 tokens (Dubey et al. 2024, arXiv:2407.21783, Table 4: TP 8 · CP 16 · PP 16 on 16,384 H100). QA: with
 * CP capped at 8 the search answered Meta's own cluster and batch at TP 8 · PP 16 · CP 8, 28.2 s a step and 20.8% MFU,
 * where CP 16 runs 13.1 s (44.9%).
 */
export const CONTEXT_CHUNK_TOKENS = 8192;

/** The default search's largest context-parallel size: 8, or up to chunks of CONTEXT_CHUNK_TOKENS for longer sequences. */
export const defaultMaxContext = (seqLength: number): number => Math.max(8, Math.floor(seqLength / CONTEXT_CHUNK_TOKENS));

/**
 * Megatron's two optimizer layouts, or with FP8 weights (fp8Params, --fp8-param-gather) the distributed optimizer
 * alone, the only one of them it runs with (Megatron-LM arguments.py; the planner's checkPlan refuses the other).
 */
export const megatronShardings = (base: Pick<SearchBase, 'fp8Params'>): StateSharding[] =>
  (base.fp8Params === true ? ['distributed-optimizer'] : ['none', 'distributed-optimizer']);

/** Candidates in the space: the product of the dimensions' sizes. */
export function spaceSize(space: SearchSpace): number {
  return space.tensor.length * space.pipeline.length * space.pipelineSlots.length * space.context.length * space.virtualStages.length
    * space.microBatchSize.length * space.sequenceParallel.length * space.recompute.length * space.sharding.length;
}
