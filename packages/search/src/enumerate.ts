import { pipelineSplit, splitsIntoChunks, type PipelineSlots, type PipelineSplit, type StateSharding } from '@trainplan/model';
import type { Candidate, RecomputeChoice, SearchBase } from './candidate.ts';
import type { MemoryBound } from './memory-bound.ts';
import { addPastLayout, addPruned, type PastLayoutTally, type PruneReason, type PruneTally } from './prune-reason.ts';
import type { SearchSpace } from './search-space.ts';
import type { StepBound } from './step-bound.ts';

/** A candidate that passed the cheap checks, with its step-time lower bound. */
export interface Survivor {
  readonly candidate: Candidate;
  readonly lowerBoundSeconds: number;
}

/** The partial candidate as the walk fills it in, dimension by dimension. */
interface Prefix {
  t: number; c: number; p: number; d: number; v: number; mbs: number; m: number; sp: boolean;
  /**
   * Whether TP · CP · PP divides the GPUs, the heads taking TP: set by the pipeline dimension (the tensor and context ones
   * clear it), so that a branch pruned from there on is one the request's own settings ended (`pastLayout`).
   */
  layout: boolean;
  /** Megatron's split for (p, slots), the layers alone's split for p (undefined where it has none), and the most layers any stage holds. */
  slots: PipelineSlots; split: PipelineSplit; layersAlone: PipelineSplit | undefined; maxLayers: number;
}

/** One dimension: its values, and the check a prefix must pass to go deeper (a reason when it fails). */
interface Dimension {
  readonly size: number;
  readonly set: (s: Prefix, index: number) => PruneReason | undefined;
}

/**
 * Enumerate: walks the space's product one dimension at a time and drops whole subtrees as soon as a
 * prefix breaks one of Megatron-LM's start-up rules, the planner's checkPlan (megatron/training/arguments.py,
 * megatron/core/transformer/transformer_config.py, megatron/core/parallel_state.py: heads and FFN divisible
 * by TP, TP·PP·CP dividing the GPUs, a first/middle/last split of the layers over PP, every stage's layers
 * divisible by v and micro-batches by PP for the interleaved schedule, which on 2 stages needs overlapped
 * sends, the batch divisible by micro-batch × DP, the sequence divisible by TP under sequence parallelism,
 * which --tp-comm-overlap needs), counting each dropped subtree's candidates under its reason. The leaves
 * (recompute × sharding) drop ZeRO-2 and 3 under a pipeline (check-plan.ts: neither DeepSpeed nor Megatron-FSDP runs
 * them) and get the closed-form memory bound and the step-time lower bound.
 */
export function enumerateCandidates(args: {
  base: SearchBase; space: SearchSpace; memory: MemoryBound; step: StepBound; memoryBudgetBytes: number; tally: PruneTally;
  onChunk?: (accounted: number) => void;
  /**
   * Filled, by reason, with the candidates pruned after their layout passed the GPU-count and head rules (Prefix.layout),
   * and the deepest dimension at which each reason pruned (0 tensor … 5 sequence parallelism, 6 the leaves): the rules
   * that ended the branches that got that far. A space's widest tallies are layouts that no request could run (TP 16
   * over 8 KV heads, 126 stages on 512 GPUs); these are what the request's own settings decided (whyNothingFits).
   */
  pastLayout: PastLayoutTally;
  /** Filled with the out-of-memory candidate whose bound came closest to fitting. */
  nearestOutOfMemory?: { candidate?: Candidate; neededBytes: number };
}): Survivor[] {
  const { base, space, memory, step, tally } = args;
  const model = base.model;
  const gpus = base.nodes * base.gpusPerNode;
  const L = model.layers;
  const one = pipelineSplit(L, 1)!;
  const s: Prefix = { t: 1, c: 1, p: 1, d: 1, v: 1, mbs: 1, m: 1, sp: false, layout: false, slots: 'layers', split: one, layersAlone: one, maxLayers: L };
  // The pipeline dimension walks (p, slots) pairs: every depth with every layout of the split.
  const layersSearched = space.pipelineSlots.includes('layers');
  const pairs = space.pipeline.flatMap((p) => space.pipelineSlots.map((slots) => ({
    p, slots, split: pipelineSplit(L, p, slots), layersAlone: pipelineSplit(L, p),
  })));

  const dims: Dimension[] = [
    { size: space.tensor.length, set: (st, i) => {
      const t = (st.t = space.tensor[i]!);
      st.layout = false;
      if (model.attentionHeads % t !== 0 || model.ffnHiddenSize % t !== 0) return 'heads-indivisible';
      // check-plan.ts: Megatron-Core divides the key/value groups over the TP ranks.
      if (model.kvHeads % t !== 0) return 'heads-indivisible';
      return undefined;
    } },
    { size: space.context.length, set: (st, i) => {
      const c = (st.c = space.context[i]!);
      st.layout = false;
      // Each rank's chunk is split in two for causal load balancing (Transformer Engine): 2·c chunks.
      if (base.seqLength % (c > 1 ? 2 * c : 1) !== 0) return 'sequence-indivisible';
      // Megatron-Core's own attention asserts context_parallel_size == 1 ("only supported by TEDotProductAttention").
      if (c > 1 && base.attentionKernel === 'unfused') return 'context-needs-fused-attention';
      return gpus % (st.t * c) !== 0 ? 'gpus-indivisible' : undefined;
    } },
    { size: pairs.length, set: (st, i) => {
      const pair = pairs[i]!;
      const p = (st.p = pair.p);
      st.layout = false;
      if (p > L) return 'too-many-stages';
      // Before the split: a depth that does not divide the GPUs runs no layout of it, and saying that the
      // embedding or loss layouts the defaults also try do not split (3 stages of 96 layers + 1) would hide it.
      if (gpus % (st.t * st.c * p) !== 0) return 'gpus-indivisible';
      st.layout = true;
      // One stage holds the embedding, the layers and the loss whatever the flags say: the layers alone's plan.
      if (p === 1 && pair.slots !== 'layers' && layersSearched) return 'redundant';
      const split = pair.split;
      if (split === undefined) return 'pipeline-split';
      st.slots = pair.slots;
      st.split = split;
      st.layersAlone = pair.layersAlone;
      st.maxLayers = Math.max(split.first, split.middle, split.last);
      st.d = gpus / (st.t * st.c * p);
      return undefined;
    } },
    { size: space.virtualStages.length, set: (st, i) => {
      const v = (st.v = space.virtualStages[i]!);
      // Counting the embedding or the loss gives the same layers per stage as the layers alone (126 on 16 stages:
      // 7, 8 × 14, 7 either way): where the layers alone also split into the v chunks, it is the same plan.
      if (st.slots !== 'layers' && layersSearched && st.layersAlone !== undefined && sameStages(st.split, st.layersAlone) && splitsIntoChunks(st.layersAlone, v)) {
        return 'redundant';
      }
      if (v === 1) return undefined;
      // Every stage's layers split into v equal model chunks (transformer_config.py); with the embedding or
      // the loss counted, the slots into p·v equal chunks.
      if (st.p === 1 || !splitsIntoChunks(st.split, v)) return 'interleave-indivisible';
      // arguments.py: without p2p overlap the interleaved schedule needs more than 2 stages.
      return st.p === 2 && !base.overlapPipelineComm ? 'interleave-needs-overlap' : undefined;
    } },
    { size: space.microBatchSize.length, set: (st, i) => {
      const mbs = (st.mbs = space.microBatchSize[i]!);
      if (base.globalBatchSize % (mbs * st.d) !== 0) return 'batch-indivisible';
      st.m = base.globalBatchSize / (mbs * st.d);
      // Megatron's interleaved schedule needs the micro-batches in whole rounds of p (schedules.py).
      return st.v > 1 && st.m % st.p !== 0 ? 'interleave-indivisible' : undefined;
    } },
    { size: space.sequenceParallel.length, set: (st, i) => {
      st.sp = space.sequenceParallel[i]!;
      if (st.sp && st.t === 1) return 'redundant';
      // --tp-comm-overlap needs sequence parallelism within an NVLink domain: a plan outside runs without it
      // (candidate.ts overlapTensorParallelCommFor), so the request prunes nothing here.
      // mappings.py: sequence parallelism splits each context rank's s/c tokens evenly over the TP ranks.
      return st.sp && (base.seqLength / st.c) % st.t !== 0 ? 'sequence-parallel-indivisible' : undefined;
    } },
  ];
  // Candidates below one value of each dimension (the leaves are recompute × sharding).
  const leaves = space.recompute.length * space.sharding.length;
  const below: number[] = [];
  for (let k = dims.length - 1, acc = leaves; k >= 0; k--) {
    below[k] = acc;
    acc *= dims[k]!.size;
  }

  const leafContext: LeafContext = {
    memory, step, budget: args.memoryBudgetBytes, tally, survivors: [], nearest: args.nearestOutOfMemory,
    noneSearched: space.recompute.includes('none'), fullSearched: space.recompute.includes('full'),
  };
  let accounted = 0;
  const walk = (level: number): void => {
    if (level === dims.length) {
      // One replica of the weights (DP × CP = 1) leaves the distributed optimizer nothing to shard: its
      // candidates are the plain optimizer's (6 + 12/d = 18 B/param at d = 1, no collectives), so they
      // go as redundant when the plain one is searched. ZeRO stages stay: DeepSpeed counts 16-bit
      // gradients, 16 B/param, another memory even unsharded (model-states.ts).
      const alone = s.d * s.c === 1 && space.sharding.includes('none');
      for (const r of space.recompute) {
        for (const sh of space.sharding) {
          if (alone && sh === 'distributed-optimizer') addPruned(tally, 'redundant', 1);
          else if (s.p > 1 && (sh === 'zero-2' || sh === 'zero-3')) {
            addPruned(tally, 'zero-with-pipeline', 1);
            addPastLayout(args.pastLayout, 'zero-with-pipeline', 1, dims.length);
          } else leaf(leafContext, s, r, sh);
        }
      }
      accounted += leaves;
      if (args.onChunk && (accounted & 0x3fff) < leaves) args.onChunk(accounted);
      return;
    }
    const dim = dims[level]!;
    for (let i = 0; i < dim.size; i++) {
      const reason = dim.set(s, i);
      if (reason === undefined) walk(level + 1);
      else {
        addPruned(tally, reason, below[level]!);
        if (s.layout) addPastLayout(args.pastLayout, reason, below[level]!, level);
        accounted += below[level]!;
      }
    }
  };
  walk(0);
  return leafContext.survivors;
}

interface LeafContext {
  readonly memory: MemoryBound;
  readonly step: StepBound;
  readonly budget: number;
  readonly tally: PruneTally;
  readonly survivors: Survivor[];
  readonly nearest: { candidate?: Candidate; neededBytes: number } | undefined;
  /** Whether the space has no recompute and full recompute: what a partial recompute defers to when either would do. */
  readonly noneSearched: boolean;
  readonly fullSearched: boolean;
}

const sameStages = (a: PipelineSplit, b: PipelineSplit): boolean => a.first === b.first && a.middle === b.middle && a.last === b.last;

function candidateOf(s: Prefix, mode: 'none' | 'selective' | 'full', sharding: StateSharding, recomputeLayers?: number): Candidate {
  // Two plain literals, not `{ …, ...(slots && { pipelineSlots }), data, … }`: V8 (Node 20) writes each property after a
  // spread on a slow path (~0.7 µs apiece, candidate.ts planFor), and every survivor of the enumeration is built here.
  return s.slots === 'layers'
    ? { tensor: s.t, pipeline: s.p, data: s.d, context: s.c, virtualStages: s.v, microBatchSize: s.mbs, sequenceParallel: s.sp, recompute: mode, recomputeLayers, sharding }
    : {
      tensor: s.t, pipeline: s.p, pipelineSlots: s.slots, data: s.d, context: s.c, virtualStages: s.v, microBatchSize: s.mbs, sequenceParallel: s.sp, recompute: mode,
      recomputeLayers, sharding,
    };
}

function keep(ctx: LeafContext, s: Prefix, mode: 'none' | 'selective' | 'full', sharding: StateSharding, recomputeLayers?: number): void {
  const candidate = candidateOf(s, mode, sharding, recomputeLayers);
  ctx.survivors.push({ candidate, lowerBoundSeconds: ctx.step.seconds(candidate, s.m) });
}

function outOfMemory(ctx: LeafContext, s: Prefix, mode: 'none' | 'selective' | 'full', sharding: StateSharding, needed: number): void {
  addPruned(ctx.tally, 'out-of-memory', 1);
  if (ctx.nearest && needed < ctx.nearest.neededBytes) {
    ctx.nearest.neededBytes = needed;
    ctx.nearest.candidate = candidateOf(s, mode, sharding);
  }
}

const bound = (ctx: LeafContext, s: Prefix, mode: 'none' | 'selective' | 'full', sharding: StateSharding, recomputed?: number): number =>
  ctx.memory.bytes(s.t, s.p, s.c, s.d, s.v, s.mbs, s.sp, s.m, mode, sharding, recomputed, s.slots);

/** One leaf: a recompute choice and an optimizer layout for the prefix in `s`. */
function leaf(ctx: LeafContext, s: Prefix, recompute: RecomputeChoice, sharding: StateSharding): void {
  if (recompute !== 'full-partial') {
    const needed = bound(ctx, s, recompute, sharding);
    if (needed > ctx.budget) outOfMemory(ctx, s, recompute, sharding, needed);
    else keep(ctx, s, recompute, sharding);
    return;
  }
  // Full recompute of only N layers per stage: worth it only between "none fits" and "full fits";
  // N is the fewest layers that the bound lets fit (the estimate raises it if the extras do not),
  // rounded up to a multiple of v: Megatron recomputes the same N/v layers in each model chunk.
  // Where no recompute passes the bound it is the faster plan, but only when the space has it: a request
  // for partial recompute alone wants the fewest layers that fit, however few. (Where the estimate finds that
  // the plan without recompute does not fit after all, the search estimates this one in its place: search.ts.)
  if (ctx.noneSearched && bound(ctx, s, 'none', sharding) <= ctx.budget) return addPruned(ctx.tally, 'redundant', 1);
  const fullBytes = bound(ctx, s, 'full', sharding);
  if (fullBytes > ctx.budget) return outOfMemory(ctx, s, 'full', sharding, fullBytes);
  let lo = 1;
  let hi = s.maxLayers;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bound(ctx, s, 'full', sharding, mid) <= ctx.budget) hi = mid;
    else lo = mid + 1;
  }
  lo = Math.ceil(lo / s.v) * s.v;
  // Recomputing as many layers as the fullest stage holds is full recompute: the same plan where the space
  // has it, else kept as what partial recompute comes to here.
  if (lo >= s.maxLayers) return ctx.fullSearched ? addPruned(ctx.tally, 'redundant', 1) : keep(ctx, s, 'full', sharding);
  keep(ctx, s, 'full', sharding, lo);
}
