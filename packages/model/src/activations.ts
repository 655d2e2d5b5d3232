import type { Bytes } from '@trainplan/units';
import type { RecomputeMode } from './flops.ts';
import type { ModelShape } from './shape.ts';
import { BYTES_16BIT, BYTES_FP32 } from './value-bytes.ts';

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
  /**
   * Bytes per element of the inputs that the four linear layers (QKV, attention output, MLP input and
   * output) keep for their weight gradients: 2 (16-bit, the default), 1 under Transformer Engine FP8, which
   * keeps them cast to FP8 (on Hopper as the FP8 transpose): "we cache the FP8 data (on Blackwell) or the
   * FP8 transpose data (on Hopper)" (NVIDIA/TransformerEngine#1764, maintainer's reply; te.Linear,
   * te.LayerNormLinear and te.LayerNormMLP save the cast input). Norm inputs, Q/K/V and the activation
   * function's input stay 16-bit.
   */
  readonly linearInputBytes?: number;
}

const BYTES_MASK = 1;

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
  const linearInput = input.linearInputBytes ?? BYTES_16BIT;

  // 2 LayerNorm inputs + QKV input + MLP input, each 2·sbh, plus two dropout masks (Korthikanti §4.1).
  const replicated = (2 * BYTES_16BIT * sbh + 2 * linearInput * sbh + masks) / spDivisor;
  // Q, K, V (GQA shrinks K and V) and the attention-output projection input. A fused attention kernel keeps its 16-bit
  // output for its own backward (flash-attn and Transformer Engine's FusedAttention save q, k, v, out and the
  // log-sum-exp), the tensor the projection keeps in 16-bit training; under FP8 the projection keeps its FP8 cast
  // beside it. Selective recompute reruns the core from Q, K and V, so the output is not kept then.
  const keepsFusedOutput = input.attentionKernel === 'flash' && recompute === 'none' && linearInput < BYTES_16BIT;
  const attention = BYTES_16BIT * sbh * (1 + 2 * kvRatio) + linearInput * sbh + (keepsFusedOutput ? BYTES_16BIT * sbh : 0);
  // Plain MLP keeps the GeLU input and the fc2 input (2·sbf each); gated keeps gate, up and product
  // (the product is the fc2 input).
  const mlp = BYTES_16BIT * s * b * f * (shape.gatedMlp ? 2 : 1) + linearInput * s * b * f;
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
 * Micro-batches whose activations pipeline stage `stage` (default 0, the first) holds at its peak, in
 * whole-stage units. 1F1B keeps p − i in flight on stage i (Narayanan SC'21 §2.2), so the first stage
 * holds about L layers' worth whatever p is; GPipe keeps all m. Interleaved 1F1B runs
 * 2·(p − i − 1) + (v − 1)·p warm-up forwards of one chunk (1/v of the stage) on stage i before its first
 * backward, at most all m·v (Megatron-Core pipeline_parallel/schedules.py,
 * forward_backward_pipelining_with_interleaving, num_warmup_microbatches), and holds one chunk more at
 * its peak: (2·(p − i − 1) + (v − 1)·p + 1)/v stages' worth. On the first stage that is
 * p·(1 + (p − 1)/(p·v)), Korthikanti §4.2.3's factor; on the last, p − (p − 1)/v: interleaving leaves
 * every stage nearly the first one's activations, where 1F1B's last stage holds one micro-batch.
 */
export function inFlightMicroBatches(input: {
  schedule: PipelineSchedule; pipeline: number; microBatches: number; virtualStages: number; stage?: number;
}): number {
  return inFlightOnStage(input.schedule, input.pipeline, input.microBatches, input.virtualStages, input.stage ?? 0);
}

/** `inFlightMicroBatches`, positional and allocation-free for the search's per-candidate bounds. */
export function inFlightOnStage(schedule: PipelineSchedule, p: number, m: number, v: number, stage: number): number {
  if (schedule === 'gpipe') return m;
  if (schedule === 'interleaved' && v > 1) return Math.min(2 * (p - stage - 1) + (v - 1) * p + 1, m * v) / v;
  return Math.min(p - stage, m);
}

/**
 * Extra activations of the first and last stages (Korthikanti §4.3): the embedding dropout mask per
 * in-flight micro-batch on the first; on the last, the final LayerNorm's input 2·sbh and the output
 * layer's input 2·sbh (each /t with sequence parallelism) and the fp32 logits 4·sbV/t, "4sbh/t(1 + v/h)
 * in total". The final norm's input is the last layer's output, which no layer's terms count (a layer
 * counts its own input, not its output), and the norm's output is the output layer's input: two tensors.
 * `inFlight` defaults to one micro-batch.
 */
export function embeddingActivationBytes(input: ActivationInput & { inFlight?: number }): { first: Bytes; last: Bytes } {
  const c = input.contextParallel ?? 1;
  const sb = (input.seqLength / c) * input.microBatchSize;
  const h = input.shape.hiddenSize;
  const t = input.tensorParallel;
  const spDivisor = input.sequenceParallel ? t : 1;
  const first = input.dropout ? ((input.inFlight ?? 1) * BYTES_MASK * sb * h) / spDivisor : 0;
  const last = (2 * BYTES_16BIT * sb * h) / spDivisor + (BYTES_FP32 * sb * input.shape.vocabSize) / t;
  return { first, last };
}
