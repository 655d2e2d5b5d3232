import type { Seconds } from '@trainplan/units';
import { elementwiseSeconds, type KernelContext } from './kernel-time.ts';
import { heldGradientBytes, reducedGradientBytes } from './gradient-accumulation.ts';
import { weightReplicas } from './groups.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * Bytes each pass of the optimizer step moves per parameter it updates, as Megatron-LM runs it (megatron/core/optimizer:
 * clip_grads.py, optimizer.py): the global gradient norm the clip needs reads the fp32 gradient (multi_tensor_l2norm);
 * Apex's fused multi-tensor Adam reads the gradient, master weight, momentum and variance (16) and writes the last
 * three (12); the updated master weights are copied into the 16-bit weights the next step computes with, a pass of its
 * own (_copy_main_params_to_model_params through multi_tensor_scale) that reads the fp32 master again (4) and writes 2.
 * Timed on one H200 (docs/validation.md, "The optimizer step"): the step's kernels together at 0.72–0.74 of the datasheet
 * bandwidth; Adam, the copy and the two passes below, each timed alone from 0.5 billion parameters, at 0.67–0.73.
 */
export const OPTIMIZER_PASS_BYTES = { norm: 4, adam: 28, copy: 6 } as const;
export const ADAM_BYTES_PER_PARAMETER = OPTIMIZER_PASS_BYTES.norm + OPTIMIZER_PASS_BYTES.adam + OPTIMIZER_PASS_BYTES.copy;

/**
 * Passes only some plans run, per parameter updated: fp16's loss scale taken out of the fp32 gradients with the inf/NaN
 * check, a read and a write (Megatron's _unscale_main_grads_and_check_for_nan, DeepSpeed's unscale_and_clip_grads); and
 * held 16-bit gradients cast into fp32 ones, read 2 and write 4 (optimizerGradientCopyBytes's copy). Both timed on the
 * H200 at about the calibrated fraction of HBM bandwidth (the same section).
 */
export const FP16_UNSCALE_BYTES = 8;
export const GRADIENT_CAST_BYTES = 6;

/**
 * Bytes a stage parameter of the gradient buffer zeroed before the next step, unsharded, since every data-parallel rank
 * reduces into all of it: Megatron's data-parallel wrapper resets its main_grad buffer (DistributedDataParallel
 * zero_grad_buffer, one memset), and DeepSpeed's BF16 optimizer, which accumulates into an fp32 buffer (ZeRO with fp32
 * gradient accumulation), zeroes it after each step (bf16_optimizer.py clear_hp_grads). DeepSpeed's ZeRO otherwise
 * drops its 16-bit gradients instead: nothing. A write-only memset streams at about the datasheet bandwidth (0.97 of it
 * on the H200, docs/validation.md, "The optimizer step"), so it is charged at the datasheet's.
 */
function zeroedBufferBytes(input: PlanInput): number {
  if (input.sharding === 'none' || input.sharding === 'distributed-optimizer') return reducedGradientBytes(input);
  return reducedGradientBytes(input) === 4 ? 4 : 0;
}

/** The optimizer step of a stage holding `parameters` on each GPU: memory-bound passes over what this GPU updates. */
export function optimizerStepSeconds(input: PlanInput, ctx: KernelContext, parameters: number): Seconds {
  const updated = input.sharding === 'none' ? parameters : parameters / weightReplicas(input);
  const perUpdated = ADAM_BYTES_PER_PARAMETER + (input.precision === 'fp16' ? FP16_UNSCALE_BYTES : 0)
    + (heldGradientBytes(input) === 2 ? GRADIENT_CAST_BYTES : 0);
  const buffer = zeroedBufferBytes(input);
  const zeroing = buffer === 0 ? 0 : (buffer * parameters) / ctx.gpu.hbmBandwidth + ctx.calibration.kernelOverhead;
  return elementwiseSeconds(ctx, perUpdated * updated) + zeroing;
}
