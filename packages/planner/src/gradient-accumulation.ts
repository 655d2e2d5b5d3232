import type { ModelShape } from '@trainplan/model';
import type { Seconds } from '@trainplan/units';
import { elementwiseSeconds, type KernelContext } from './kernel-time.ts';
import type { GradientAccumulation, PlanInput } from './plan-input.ts';

const B16 = 2;
const FP32 = 4;

/**
 * Bytes per parameter of the buffer that weight gradients accumulate into across micro-batches, and
 * so of the data-parallel reduction that follows: 'fused' keeps each framework's own buffer
 * (`undefined` here: Megatron fp32 main gradients, DeepSpeed ZeRO 16-bit; comm-time.ts), otherwise
 * the unfused add's target.
 */
export function accumulatorBytes(mode: GradientAccumulation): number | undefined {
  return mode === 'fp32' ? FP32 : mode === '16-bit' ? B16 : undefined;
}

/**
 * Gradient bytes per parameter held in memory, or `undefined` for the sharding mode's own: with an
 * unfused add, the accumulation buffer; DeepSpeed (ZeRO) keeps the 16-bit gradients beside an fp32
 * one, Megatron's hook frees each 16-bit gradient once it is added.
 */
export function heldGradientBytes(input: PlanInput): number | undefined {
  const buffer = accumulatorBytes(input.gradientAccumulation ?? 'fused');
  if (buffer === undefined) return undefined;
  return input.sharding.startsWith('zero') && buffer === FP32 ? B16 + FP32 : buffer;
}

/**
 * Parameter tensors in one transformer layer: four linears (QKV, attention output, fc1, fc2: the
 * gated MLP's gate and up projections are one fused tensor in Megatron) with their biases, and two
 * norms (LayerNorm has a bias, RMSNorm does not).
 */
function tensorsPerLayer(shape: ModelShape): number {
  return 4 * (shape.linearBias ? 2 : 1) + 2 * (shape.normalization === 'layernorm' ? 2 : 1);
}

/**
 * One micro-batch's unfused gradient accumulation on a stage: after its backward pass every
 * parameter's fresh 16-bit gradient is added into the accumulation buffer by a separate kernel per
 * tensor, reading the new gradient and reading and writing the buffer: PyTorch autograd's
 * AccumulateGrad and DDP, Megatron-LM's local DDP hook `param.main_grad.add_(param.grad.data)`
 * (megatron/model/distributed.py, 2021), DeepSpeed's BF16 optimizer `update_hp_grads` into fp32.
 * Megatron's gradient_accumulation_fusion (2022) and Transformer Engine write the weight gradient
 * straight into the fp32 buffer inside the GEMM instead ('fused'): no extra pass.
 */
export function gradientAccumulationSeconds(
  input: PlanInput, ctx: KernelContext, parameters: number, layers: number, holdsEmbedding: boolean,
): Seconds {
  const buffer = accumulatorBytes(input.gradientAccumulation ?? 'fused');
  if (buffer === undefined || parameters <= 0) return 0;
  const kernels = layers * tensorsPerLayer(input.model) + (holdsEmbedding ? 1 : 0);
  return elementwiseSeconds(ctx, parameters * (B16 + 2 * buffer)) + (kernels - 1) * ctx.calibration.kernelOverhead;
}
