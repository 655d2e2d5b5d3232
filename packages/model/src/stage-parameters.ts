import type { Count } from '@trainplan/units';
import { parameterBreakdown } from './parameters.ts';
import type { ModelShape } from './shape.ts';

/**
 * How Megatron-Core places L transformer layers on p pipeline stages: all stages equal, or (uneven
 * pipeline parallelism, Megatron-Core 0.9) the first stage `first` layers, the last `last`, and every
 * middle stage the same `middle` (`--decoder-first-pipeline-num-layers`, `--decoder-last-pipeline-num-layers`;
 * megatron/core/transformer/transformer_config.py, the "Uneven PP" checks of __post_init__: first and last
 * "must be larger than 0", the layers left "must be divisible by the middle pipeline model parallel size",
 * and with no middle stage no layer may be left over). No other shape, such as extra layers spread over some
 * middle stages, can be expressed.
 */
export interface PipelineSplit {
  readonly first: number;
  /** Layers on each middle stage (with p ≤ 2 there is none, and this repeats `first`). */
  readonly middle: number;
  readonly last: number;
  /** Layers on each of the p stages, first to last. */
  readonly stages: readonly number[];
  /** Whether Megatron needs the first/last flags: some stage differs from the others. */
  readonly uneven: boolean;
}

/**
 * The split trainplan plans for L layers on p stages, or undefined when it has none. The middle stages
 * take b = ⌈L/p⌉ layers (the fewest the slowest stage can hold), and the remainder r = L − (p − 2)·b
 * goes to the first and last stages, the last taking the smaller half since it also computes the
 * logits and the loss: first ⌈r/2⌉, last ⌊r/2⌋. When p divides L this is the even split (r = 2b). When
 * r/2 rounds down to no layer (96 layers on 26 stages: b = 4, r = 0), there is none. Megatron's checks
 * would also accept thinner middle stages with thicker end stages (3 each, then 12 on the first and on
 * the last); trainplan plans only the split above, so it refuses such a pair.
 */
export function pipelineSplit(layers: number, pipeline: number): PipelineSplit | undefined {
  // Memoised: the planner asks for the same few (L, p) pairs on every estimate (checks, times, memory).
  const key = layers * 65536 + pipeline;
  if (splits.has(key)) return splits.get(key);
  const split = computeSplit(layers, pipeline);
  if (splits.size >= MAX_MEMOISED_SPLITS) splits.clear();
  splits.set(key, split);
  return split;
}

const splits = new Map<number, PipelineSplit | undefined>();
const MAX_MEMOISED_SPLITS = 4096;

function computeSplit(layers: number, pipeline: number): PipelineSplit | undefined {
  const L = layers;
  const p = pipeline;
  if (!Number.isInteger(L) || !Number.isInteger(p) || p < 1 || L < p) return undefined;
  if (p === 1) return Object.freeze({ first: L, middle: L, last: L, stages: Object.freeze([L]), uneven: false });
  const b = Math.ceil(L / p);
  const r = p === 2 ? L : L - (p - 2) * b;
  const first = Math.ceil(r / 2);
  const last = Math.floor(r / 2);
  if (last < 1) return undefined;
  const middle = p === 2 ? first : b;
  const stages = [first, ...Array.from({ length: p - 2 }, () => middle), last];
  return Object.freeze({ first, middle, last, stages: Object.freeze(stages), uneven: stages.some((n) => n !== first) });
}

/**
 * Layers per pipeline stage (pipelineSplit's). A pair with no split is a programmer error here:
 * the planner's checkPlan and the search's enumeration refuse it first.
 */
export function layersPerStage(layers: number, pipeline: number): readonly number[] {
  const split = pipelineSplit(layers, pipeline);
  if (split === undefined) throw new RangeError(`no Megatron pipeline split of ${layers} layers over ${pipeline} stages`);
  return split.stages; // shared and memoised: callers only read it
}

/**
 * Parameters held by one GPU of each pipeline stage, after tensor-parallel splitting
 * (Megatron: QKV, MLP and vocabulary-parallel embeddings split t ways; norms and row-parallel
 * biases replicated). The first stage holds the word (and learned position) embedding; the last
 * holds the output layer, which with tied embeddings and p > 1 is a second copy of the word
 * embedding whose gradients Megatron all-reduces between the two stages (model reference §1).
 */
export function stageParameters(input: { shape: ModelShape; tensorParallel: number; layersPerStage: readonly number[] }): Count[] {
  const { shape, tensorParallel: t, layersPerStage: stages } = input;
  const p = stages.length;
  const parts = parameterBreakdown(shape);
  const perLayer = parts.perLayerTensorParallel / t + parts.perLayerReplicated;
  return stages.map((layers, i) => {
    let n = layers * perLayer;
    if (i === 0) n += parts.wordEmbedding / t + parts.positionEmbedding;
    if (i === p - 1) {
      n += parts.finalNorm;
      if (!shape.tiedEmbeddings) n += parts.outputLayer / t;
      else if (p > 1) n += parts.wordEmbedding / t;
    }
    return n;
  });
}
