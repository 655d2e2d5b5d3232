import type { Count, Flop } from '@trainplan/units';
import { kvWidth } from './parameters.ts';
import type { ModelShape } from './shape.ts';

/**
 * How the attention score and value products are counted. Publishers differ (model reference §2):
 * - 'full': every (query, key) pair, as Narayanan SC'21, Korthikanti 2022, NVIDIA's DGX Cloud
 *   benchmarks and Megatron-LM's `num_floating_point_operations` (before causal halving) count it;
 * - 'causal': halved, as newer Megatron code counts a causal mask.
 */
export type AttentionFlopConvention = 'full' | 'causal';
export type RecomputeMode = 'none' | 'selective' | 'full';

/** Forward matmul FLOPs of one token through one layer, term by term (2 FLOPs per multiply-add). */
export interface LayerForwardFlops {
  readonly qkv: Flop;
  /** Q·Kᵀ: 2·s·h per token. */
  readonly attentionScores: Flop;
  /** softmax(·)·V: 2·s·h per token. */
  readonly attentionValues: Flop;
  readonly attentionOutput: Flop;
  readonly mlp: Flop;
  readonly total: Flop;
}

export function layerForwardFlopsPerToken(
  shape: ModelShape,
  options: { seqLength?: number; attention?: AttentionFlopConvention } = {},
): LayerForwardFlops {
  const h = shape.hiddenSize;
  const s = options.seqLength ?? shape.seqLength;
  const causal = options.attention === 'causal' ? 0.5 : 1;
  const qkv = 2 * h * (h + 2 * kvWidth(shape));
  const attentionScores = 2 * s * h * causal;
  const attentionValues = 2 * s * h * causal;
  const attentionOutput = 2 * h * h;
  const mlp = 2 * h * shape.ffnHiddenSize * (shape.gatedMlp ? 3 : 2);
  return {
    qkv, attentionScores, attentionValues, attentionOutput, mlp,
    total: qkv + attentionScores + attentionValues + attentionOutput + mlp,
  };
}

/** Output-layer (logits) forward FLOPs per token: 2·h·V. */
const logitsForwardFlopsPerToken = (shape: ModelShape): Flop => 2 * shape.hiddenSize * shape.vocabSize;

export interface StepFlopsInput {
  readonly globalBatchSize: Count;
  readonly seqLength?: number;
  readonly attention?: AttentionFlopConvention;
}

/**
 * Model FLOPs of one step (the basis of MFU): forward + backward (×3), no recompute.
 * For GPT this is Korthikanti et al. 2022: 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h)).
 */
export function modelFlopsPerStep(shape: ModelShape, input: StepFlopsInput): Flop {
  const s = input.seqLength ?? shape.seqLength;
  const tokens = input.globalBatchSize * s;
  const layer = layerForwardFlopsPerToken(shape, { seqLength: s, attention: input.attention }).total;
  return 3 * tokens * (shape.layers * layer + logitsForwardFlopsPerToken(shape));
}

/**
 * Hardware FLOPs of one step (the basis of HFU): model FLOPs plus what recompute re-runs.
 * Full recompute repeats every layer's forward (Narayanan SC'21 eq. 3 for GPT:
 * 96·B·s·L·h²·(1 + s/(6h) + V/(16·L·h))); selective repeats only attention's Q·Kᵀ and ·V
 * (Korthikanti et al. 2022 §5). `recomputedLayers` limits full recompute to that many layers.
 */
export function hardwareFlopsPerStep(
  shape: ModelShape,
  input: StepFlopsInput & { recompute: RecomputeMode; recomputedLayers?: number },
): Flop {
  const s = input.seqLength ?? shape.seqLength;
  const tokens = input.globalBatchSize * s;
  const layer = layerForwardFlopsPerToken(shape, { seqLength: s, attention: input.attention });
  const extraPerLayer =
    input.recompute === 'full' ? layer.total
      : input.recompute === 'selective' ? layer.attentionScores + layer.attentionValues
        : 0;
  const layersRecomputed = input.recompute === 'full' ? (input.recomputedLayers ?? shape.layers) : shape.layers;
  return modelFlopsPerStep(shape, input) + tokens * layersRecomputed * extraPerLayer;
}

/** Narayanan SC'21 eq. 3 (GPT, full recompute), kept as the paper states it for checks. */
export function narayananHardwareFlops(shape: ModelShape, globalBatchSize: number): Flop {
  const { layers: L, hiddenSize: h, vocabSize: V, seqLength: s } = shape;
  return 96 * globalBatchSize * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
}
