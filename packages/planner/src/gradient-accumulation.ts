import { BYTES_16BIT, BYTES_FP32, type ModelShape } from '@trainplan/model';
import { billion, type Seconds } from '@trainplan/units';
import { elementwiseSeconds, type KernelContext } from './kernel-time.ts';
import type { GradientAccumulation, PlanInput } from './plan-input.ts';

/**
 * Whether the weight-gradient GEMM accumulates into the buffer itself ('fused', 'fused-16-bit': Megatron's
 * gradient_accumulation_fusion), so no separate add runs per micro-batch. The default is 'fused'.
 */
export const fusedAccumulation = (mode: GradientAccumulation = 'fused'): boolean => mode.startsWith('fused');

/**
 * Bytes per parameter of the accumulation buffer where the mode fixes its width: an unfused add's target ('16-bit',
 * 'fp32'), or the 16-bit buffer 'fused-16-bit' asks of the framework. 'fused' leaves it to the framework
 * (reducedGradientBytes).
 */
const BUFFER_BYTES: Partial<Record<GradientAccumulation, number>> = { 'fused-16-bit': BYTES_16BIT, '16-bit': BYTES_16BIT, fp32: BYTES_FP32 };

/** What decides the gradient buffer: the sharding mode, the training precision and the accumulation. */
export type GradientBufferInput = Pick<PlanInput, 'sharding' | 'precision' | 'gradientAccumulation'>;

/**
 * Bytes per parameter of the gradients the data-parallel reduction sends: the buffer they accumulate
 * in. An unfused add's target (DeepSpeed's BF16 optimizer all-reduces its fp32 buffer:
 * engine._bf16_reduce_grads). 'fused-16-bit': the buffer in the parameters' 16-bit dtype whatever the
 * precision: Megatron-Core's DDP buffer is "torch.float if self.ddp_config.grad_reduce_in_fp32 else
 * param.dtype", which --grad-reduce-in-bf16 and NVIDIA's performance recipes turn off (NeMo
 * scripts/performance helpers.py set_precision_configs). 'fused': Megatron's main_grad buffer, fp32
 * under bf16 and fp8 (bf16 parameters), forced by megatron/arguments.py ("bfloat16 requires gradient
 * accumulation and all-reduce to be done in fp32"), and 16-bit under fp16, where
 * accumulate_allreduce_grads_in_fp32 is off by default (megatron/model/distributed.py `_get_buffer_type`:
 * fp32 only with that flag, else the parameter's dtype); DeepSpeed ZeRO's 16-bit gradients.
 */
export function reducedGradientBytes(input: GradientBufferInput): number {
  return BUFFER_BYTES[input.gradientAccumulation ?? 'fused']
    ?? (input.sharding.startsWith('zero') || input.precision === 'fp16' ? BYTES_16BIT : BYTES_FP32);
}

/**
 * Gradient bytes per parameter held between backward passes (before ZeRO-2/3 sharding): the reduced
 * buffer, plus the 16-bit gradients DeepSpeed (ZeRO) keeps beside an fp32 one (2 + 4); Megatron's
 * hook frees each 16-bit gradient once it is added.
 */
export function heldGradientBytes(input: GradientBufferInput): number {
  const reduced = reducedGradientBytes(input);
  return input.sharding.startsWith('zero') && reduced === BYTES_FP32 ? BYTES_16BIT + BYTES_FP32 : reduced;
}

/**
 * DeepSpeed ZeRO-3's `sub_group_size`, in elements: its default, 1e9 (deepspeed/runtime/zero/config.py, "Tile size for
 * parameter processing"). stage3.py `_create_fp16_sub_groups` cuts a rank's partition into sub-groups of whole
 * parameters until each reaches it (summing `partition_numel()`), so one sub-group holds min(P/d, 1e9) elements of the
 * rank's P/d, give or take one parameter's partition.
 */
export const ZERO3_SUB_GROUP_SIZE = billion(1);

/**
 * The fp32 gradients the optimizer step builds when the held ones are 16-bit, per GPU, for `parameters` of the
 * stage over `replicas` sharding ranks. Megatron's Float16Optimizer copies `main_grad.float()` into its fp32 main
 * parameters' gradients, all of them before the step (megatron/optimizer/optimizer.py
 * `_copy_model_grads_to_main_grads`); the distributed optimizer does so for its shard (distrib_optimizer.py,
 * `shard_main_param.grad = shard_model_grad.float()` for every group): 4·P, or 4·P/d. DeepSpeed ZeRO-1/2 builds it
 * per parameter group, its whole partition, and frees it after that group's step (stage_1_and_2.py `step`:
 * `single_grad_partition = self.flatten(self.averaged_gradients[i]).to(fp32)`, then "get rid of the fp32
 * gradients", `.grad = None`): 4·P/d with one group. ZeRO-3 does the same per sub-group (stage3.py `step`:
 * `_prepare_fp32_grad_for_sub_group`, `_optimizer_step`, then `_release_sub_group` sets the fp32 grad to None), so
 * only one sub-group's copy is live: 4·min(P/d, ZERO3_SUB_GROUP_SIZE). Transient: it exists while the activations
 * are freed (plan-memory.ts takes the larger).
 */
export function optimizerGradientCopyBytes(input: GradientBufferInput, parameters: number, replicas: number): number {
  if (heldGradientBytes(input) !== BYTES_16BIT) return 0;
  const updated = parameters / (input.sharding === 'none' ? 1 : replicas);
  return BYTES_FP32 * (input.sharding === 'zero-3' ? Math.min(updated, ZERO3_SUB_GROUP_SIZE) : updated);
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
 * straight into the main-gradient buffer inside the GEMM instead ('fused', 'fused-16-bit'): no extra pass.
 */
export function gradientAccumulationSeconds(
  input: PlanInput, ctx: KernelContext, parameters: number, layers: number, holdsEmbedding: boolean,
): Seconds {
  if (fusedAccumulation(input.gradientAccumulation) || parameters <= 0) return 0;
  const kernels = layers * tensorsPerLayer(input.model) + (holdsEmbedding ? 1 : 0);
  return elementwiseSeconds(ctx, parameters * (BYTES_16BIT + 2 * reducedGradientBytes(input))) + (kernels - 1) * ctx.calibration.kernelOverhead;
}
