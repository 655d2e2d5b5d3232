import type { Count } from '@trainplan/units';
import type { ModelShape } from './shape.ts';
import { learnedPositionRows } from './attend-limit.ts';

/**
 * Parameter counts of a decoder-only transformer, term by term.
 * General layer (model reference §1): attention h·(h + 2·h·a_kv/a) for QKV plus h² out;
 * MLP 2·h·f (plain) or 3·h·f (gated); plus biases and norms. For GPT (a_kv = a, f = 4h, biases,
 * LayerNorm) a layer is 12h² + 13h, which gives Narayanan et al. SC'21 eq. 2:
 * P = 12·L·h²·(1 + 13/(12h) + (V + s)/(12·L·h)) (plus the final LayerNorm's 2h, which eq. 2 omits).
 */
export interface ParameterBreakdown {
  /** One transformer layer. */
  readonly perLayer: Count;
  /** Of `perLayer`, the weights split across tensor-parallel ranks (QKV, out, MLP matrices, column biases). */
  readonly perLayerTensorParallel: Count;
  /** Of `perLayerTensorParallel`, the weight matrices alone (what FP8 training casts). */
  readonly perLayerMatrices: Count;
  /** Of `perLayer`, replicated on every tensor-parallel rank (norms, row-parallel biases). */
  readonly perLayerReplicated: Count;
  /** V·h word embedding. */
  readonly wordEmbedding: Count;
  /** Learned positions: one row of h per position of the table, max(s, maxPositions) (0 for rotary or ALiBi). */
  readonly positionEmbedding: Count;
  /** V·h output layer when untied (0 when tied). */
  readonly outputLayer: Count;
  /** Final norm. */
  readonly finalNorm: Count;
  readonly total: Count;
}

export function kvWidth(shape: ModelShape): number {
  return (shape.hiddenSize * shape.kvHeads) / shape.attentionHeads;
}

export function parameterBreakdown(shape: ModelShape): ParameterBreakdown {
  const h = shape.hiddenSize;
  const f = shape.ffnHiddenSize;
  const qkvOut = h + 2 * kvWidth(shape);
  const mlpInputs = shape.gatedMlp ? 2 : 1;
  const normParams = shape.normalization === 'layernorm' ? 2 * h : h;

  const matrices = h * qkvOut + h * h + mlpInputs * h * f + f * h;
  // Column-parallel biases (QKV, MLP input) are split; row-parallel biases (out, MLP output) are not.
  const columnBiases = shape.linearBias ? qkvOut + mlpInputs * f : 0;
  const rowBiases = shape.linearBias ? 2 * h : 0;
  const perLayerTensorParallel = matrices + columnBiases;
  const perLayerReplicated = rowBiases + 2 * normParams;

  const wordEmbedding = shape.vocabSize * h;
  const positionEmbedding = shape.positionEmbedding === 'learned' ? learnedPositionRows(shape) * h : 0;
  const outputLayer = shape.tiedEmbeddings ? 0 : shape.vocabSize * h;
  const perLayer = perLayerTensorParallel + perLayerReplicated;
  const total = shape.layers * perLayer + wordEmbedding + positionEmbedding + outputLayer + normParams;
  return {
    perLayer,
    perLayerTensorParallel,
    perLayerMatrices: matrices,
    perLayerReplicated,
    wordEmbedding,
    positionEmbedding,
    outputLayer,
    finalNorm: normParams,
    total,
  };
}

export const parameterCount = (shape: ModelShape): Count => parameterBreakdown(shape).total;

