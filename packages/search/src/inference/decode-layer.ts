import { collectiveCost } from '@trainplan/collectives';
import { bytesPerValue, parameterBreakdown, type ModelShape } from '@trainplan/model';
import { peak16, resolveCalibration } from '@trainplan/planner';
import { us, type Bytes, type Seconds } from '@trainplan/units';
import { customAllReduceIfRuns } from './custom-all-reduce.ts';
import type { DecodeLayer } from './continuous-batching.ts';
import type { InferenceBase } from './inference-shape.ts';
import { outputLayerBytesPerValue } from './serving-weights.ts';

/** Kernels per layer of one decode step (QKV, attention, out-proj, two or three MLP GEMMs, norms, residuals). */
const KERNELS_PER_LAYER = 10;
/**
 * The most a decode kernel costs beyond its own work. Serving engines replay the decode step as a CUDA
 * graph (vLLM and TensorRT-LLM capture it), so the CPU launch gap the eager-PyTorch training fits hold
 * (Hopper's 10 µs) is not paid; what stays is the GPU-side ramp and tail, which the A100 fit bounds
 * (2 µs, a kernel queue kept full by the CPU). Without it a faster GPU decodes slower (H100 below A100).
 */
const DECODE_KERNEL_OVERHEAD: Seconds = us(2);

/** The sustained HBM bandwidth the decode streams weights and KV cache at (the calibration's fraction of the datasheet's). */
export const decodeHbmBandwidth = (base: InferenceBase): number => base.gpu.hbmBandwidth * resolveCalibration(base).hbmFraction;

/**
 * One layer of `model` decoding a micro-batch of m sequences on tensor-parallel rank t, as a roofline
 * (Williams et al. 2009; Pope et al. 2022 §3): the layer's weights and the micro-batch's KV cache (at the
 * mean context) read once from HBM, against the FLOPs of `queryTokens` new tokens a sequence (1 when
 * decoding; the γ + 1 a target model verifies under speculative decoding) over the sustained tensor-core
 * peak; plus its kernels' overheads and two tensor-parallel all-reduces of the tokens' activations
 * (tensorParallelAllReduceSeconds).
 * `kvBytesPerToken` is the KV cache of one token of one layer on this rank.
 */
export function decodeLayer(options: {
  readonly base: InferenceBase;
  readonly model: ModelShape;
  readonly tensor: number;
  readonly microBatch: number;
  readonly meanContext: number;
  readonly kvBytesPerToken: number;
  readonly queryTokens?: number;
}): DecodeLayer {
  const { base, model, tensor: t, microBatch: m, meanContext, kvBytesPerToken, queryTokens = 1 } = options;
  const calibration = resolveCalibration(base);
  const parts = parameterBreakdown(model);
  const layerWeights = (parts.perLayerTensorParallel / t + parts.perLayerReplicated) * bytesPerValue(base.precision);
  const kvRead = m * meanContext * kvBytesPerToken;
  const tokens = m * queryTokens;
  const flops = 2 * tokens * (parts.perLayerTensorParallel / t) + (4 * tokens * meanContext * model.hiddenSize) / t;
  const peak = base.precision === 'fp8' && base.gpu.peakFlops.fp8 !== undefined ? base.gpu.peakFlops.fp8 * calibration.fp8GemmPeakFraction : peak16(base.gpu) * calibration.gemmPeakFraction;
  const group = { ranks: t, ranksPerNode: Math.min(t, base.nvlinkDomainGpus), concurrentGroupsPerNode: 1 };
  const allReduce = t > 1 ? tensorParallelAllReduceSeconds(base, group, 2 * tokens * model.hiddenSize) : 0;
  const kernelOverhead = Math.min(calibration.kernelOverhead, DECODE_KERNEL_OVERHEAD);
  return {
    memorySeconds: (layerWeights + kvRead) / decodeHbmBandwidth(base),
    computeSeconds: flops / peak,
    fixedSeconds: KERNELS_PER_LAYER * kernelOverhead + 2 * allReduce,
  };
}

/**
 * A decode step's tensor-parallel all-reduce: NCCL's cost (collectives' closed form, the fastest algorithm and
 * protocol) or, where a serving engine's custom all-reduce runs and is faster, its (customAllReduceIfRuns).
 */
export function tensorParallelAllReduceSeconds(base: InferenceBase, group: { ranks: number; ranksPerNode: number }, bytes: Bytes): Seconds {
  const nccl = collectiveCost({ op: 'all-reduce', bytes, group: { ...group, concurrentGroupsPerNode: 1 }, fabric: base.fabric, algorithm: 'auto' }).seconds;
  return Math.min(nccl, customAllReduceIfRuns(bytes, group.ranks, group.ranksPerNode, base.fabric) ?? nccl);
}

/**
 * The output layer's decode of one micro-batch of `rows` tokens on the last stage, a roofline as a layer's (decodeLayer):
 * its V·h/t weights read once (16-bit under FP8, serving-weights.ts) against the logits' 2·rows·h·V/t FLOPs over the
 * sustained 16-bit tensor peak (the layer stays 16-bit). Without the FLOPs a large batch's logits were free: Llama 3 8B
 * on an H100 at batch 512 decoded 6.9% fast, its implied tensor use above the sustained peak (QA).
 */
export function decodeLogitsSeconds(base: InferenceBase, model: ModelShape, tensor: number, rows = 1): Seconds {
  const read = (model.vocabSize * model.hiddenSize * outputLayerBytesPerValue(base.precision)) / tensor / decodeHbmBandwidth(base);
  const compute = (2 * rows * model.hiddenSize * model.vocabSize) / tensor / (peak16(base.gpu) * resolveCalibration(base).gemmPeakFraction);
  return Math.max(read, compute);
}
