import type { Bytes } from '@trainplan/units';
import type { RecomputeMode } from './flops.ts';
import type { ModelShape } from './shape.ts';

/**
 * Activation memory, after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models", arXiv:2205.05198) §4, generalised to GQA, gated MLPs, flash attention and
 * context parallelism. 16-bit activations, 1-byte dropout masks.
 *
 * Per layer and micro-batch the paper stores (Table 2, no parallelism): attention 11·sbh + 5·as²b,
 * MLP 19·sbh, two LayerNorms 4·sbh, i.e. sbh·(34 + 5·as/h). Under tensor parallelism the LayerNorm
 * and dropout regions (10·sbh) stay replicated unless sequence parallelism splits them too.
 */
export type AttentionKernel = 'flash' | 'unfused';

export interface ActivationInput {
  readonly shape: ModelShape;
  readonly microBatchSize: number;
  /** Full sequence length s (context parallelism divides it by `contextParallel`). */
  readonly seqLength: number;
  readonly tensorParallel: number;
  readonly contextParallel?: number;
  readonly sequenceParallel: boolean;
  readonly recompute: RecomputeMode;
  /** 'unfused' materialises the a·s² score matrix (Megatron 2021–22); 'flash' does not. */
  readonly attentionKernel: AttentionKernel;
  /** Hidden and attention dropout (GPT-3, BLOOM, Megatron's defaults); modern recipes turn it off. */
  readonly dropout: boolean;
}

const BYTES_16BIT = 2;
const BYTES_MASK = 1;
const BYTES_FP32 = 4;

/** The pieces of one layer's stored activations, per GPU, per micro-batch. */
export interface LayerActivationTerms {
  /** LayerNorm inputs, QKV and MLP inputs, dropout masks: split only by sequence parallelism. */
  readonly replicated: Bytes;
  /** Q, K, V, attention output, MLP intermediates: split by tensor parallelism. */
  readonly tensorParallel: Bytes;
  /** The a·s² softmax/dropout terms (0 with flash attention or selective recompute). */
  readonly attentionCore: Bytes;
  /** The layer input kept by full recompute: 2·sbh (/t with sequence parallelism). */
  readonly checkpoint: Bytes;
}

/** `recompute` overrides the input's mode (what a layer holds without recompute, for the working set). */
export function layerActivationTerms(input: ActivationInput, recompute: RecomputeMode = input.recompute): LayerActivationTerms {
  const { shape, microBatchSize: b, tensorParallel: t } = input;
  const c = input.contextParallel ?? 1;
  const s = input.seqLength / c;
  const h = shape.hiddenSize;
  const f = shape.ffnHiddenSize;
  const a = shape.attentionHeads;
  const kvRatio = shape.kvHeads / a;
  const sbh = s * b * h;
  const masks = input.dropout ? 2 * BYTES_MASK * sbh : 0;
  const spDivisor = input.sequenceParallel ? t : 1;

  // 2 LayerNorm inputs + QKV input + MLP input, each 2·sbh, plus two dropout masks (Korthikanti §4.1).
  const replicated = (4 * BYTES_16BIT * sbh + masks) / spDivisor;
  // Q, K, V (GQA shrinks K and V) and the attention-output projection input.
  const attention = BYTES_16BIT * sbh * (1 + 2 * kvRatio) + BYTES_16BIT * sbh;
  // Plain MLP keeps the GeLU input and the fc2 input (2·sbf each); gated keeps gate, up and product.
  const mlp = BYTES_16BIT * s * b * f * (shape.gatedMlp ? 3 : 2);
  const tensorParallel = (attention + mlp) / t;

  // Softmax output 2·as²b, dropout mask as²b, dropout output 2·as²b (the keys span the whole sequence).
  const scores = a * s * input.seqLength * b;
  const unfusedCore = (BYTES_16BIT + (input.dropout ? BYTES_MASK + BYTES_16BIT : 0)) * scores;
  // Flash attention keeps only the fp32 log-sum-exp per query and head.
  const flashCore = BYTES_FP32 * a * s * b;
  const keepsCore = recompute === 'none' || input.attentionKernel === 'flash';
  const attentionCore = keepsCore ? (input.attentionKernel === 'flash' ? flashCore : unfusedCore) / t : 0;

  const checkpoint = (BYTES_16BIT * sbh) / spDivisor;
  return { replicated, tensorParallel, attentionCore, checkpoint };
}

/**
 * Bytes one layer keeps for the backward pass, per GPU and micro-batch. Full recompute keeps only
 * the layer input (Korthikanti Table 2, last row); selective drops the attention core.
 */
export function activationBytesPerLayer(input: ActivationInput): Bytes {
  const terms = layerActivationTerms(input);
  if (input.recompute === 'full') return terms.checkpoint;
  return terms.replicated + terms.tensorParallel + terms.attentionCore;
}

/** Everything a layer holds while it runs forward or is recomputed: what full recompute rebuilds. */
export function workingBytesPerLayer(input: ActivationInput): Bytes {
  const terms = layerActivationTerms(input, 'none');
  return terms.replicated + terms.tensorParallel + terms.attentionCore;
}

export type PipelineSchedule = '1f1b' | 'interleaved' | 'gpipe';

/**
 * Micro-batches whose activations pipeline stage `stage` (default 0, the first) holds at its peak.
 * 1F1B keeps p − i in flight on stage i (Narayanan SC'21 §2.2), so the first stage holds about L
 * layers' worth whatever p is; interleaving multiplies that by 1 + (p−1)/(p·v) (Korthikanti §4.2.3);
 * GPipe keeps all m.
 */
export function inFlightMicroBatches(input: {
  schedule: PipelineSchedule; pipeline: number; microBatches: number; virtualStages: number; stage?: number;
}): number {
  const { pipeline: p, microBatches: m, virtualStages: v } = input;
  if (input.schedule === 'gpipe') return m;
  const inFlight = Math.min(p - (input.stage ?? 0), m);
  return input.schedule === 'interleaved' && v > 1 ? inFlight * (1 + (p - 1) / (p * v)) : inFlight;
}

/**
 * Extra activations of the first and last stages (Korthikanti §4.3): the embedding dropout mask per
 * in-flight micro-batch on the first; the output layer's input 2·sbh and the fp32 logits 4·sbV
 * (split by tensor parallelism) on the last. `inFlight` defaults to one micro-batch.
 */
export function embeddingActivationBytes(input: ActivationInput & { inFlight?: number }): { first: Bytes; last: Bytes } {
  const c = input.contextParallel ?? 1;
  const sb = (input.seqLength / c) * input.microBatchSize;
  const h = input.shape.hiddenSize;
  const t = input.tensorParallel;
  const spDivisor = input.sequenceParallel ? t : 1;
  const first = input.dropout ? ((input.inFlight ?? 1) * BYTES_MASK * sb * h) / spDivisor : 0;
  const last = (BYTES_16BIT * sb * h) / spDivisor + (BYTES_FP32 * sb * input.shape.vocabSize) / t;
  return { first, last };
}
