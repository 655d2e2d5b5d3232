import { heldGradientBytes, type PlanInput } from '@trainplan/planner';

/**
 * Whether the plan's reduced gradient buffer (planner gradient-accumulation.ts reducedGradientBytes) is 16-bit: an
 * unfused 16-bit add, a fused one into a 16-bit buffer ('fused-16-bit'), DeepSpeed ZeRO's 16-bit gradients (any zero-*
 * sharding), or fp16. The planner's index exports heldGradientBytes alone, which is 2 exactly when that buffer is (it
 * adds DeepSpeed's 16-bit copy only beside an fp32 one).
 */
export const sixteenBitGradients = (plan: PlanInput): boolean => heldGradientBytes(plan) === 2;

/**
 * Megatron-LM's --grad-reduce-in-bf16 wherever the plan's gradients are 16-bit under --bf16 (fp8 runs with --bf16 too),
 * whatever the sharding or the accumulation ('fused-16-bit' keeps the fusion on: the GEMM accumulates into that 16-bit
 * buffer): validate_args sets accumulate_allreduce_grads_in_fp32 = True under bf16 unless it is given
 * ("if args.grad_reduce_in_bf16: args.accumulate_allreduce_grads_in_fp32 = False"), training.py passes that on as
 * DistributedDataParallelConfig.grad_reduce_in_fp32, and the DDP buffer is "torch.float if
 * self.ddp_config.grad_reduce_in_fp32 else param.dtype" (megatron/core/distributed/distributed_data_parallel.py): 4 bytes
 * a parameter where a ZeRO-1/2/3 plan (DeepSpeed's 16-bit gradient buffer) counts 2 (QA: Llama 3 70B at TP 2 · PP 4 · CP 4
 * ZeRO-1, 71.1 GiB planned, 88.0 GiB as the distributed optimizer's fp32 buffer). Megatron-FSDP is built from the same
 * config (training.py get_model: one ddp_config for DDP and Megatron-FSDP; Megatron-FSDP's mixed-precision policy keeps
 * fp32 main grads only with grad_reduce_in_fp32), and its user guide recommends the flag
 * (docs/discussions/megatron-fsdp-user-guide: "Enables gradient reduction in BF16 precision instead of FP32"). Under
 * --fp16 accumulate_allreduce_grads_in_fp32 stays off, so the buffer is 16-bit already.
 */
export const megatronGradReduceInBf16 = (plan: PlanInput): boolean => plan.precision !== 'fp16' && sixteenBitGradients(plan);

/** What a NeMo 1.x YAML says of the gradients: keys under `model:`, keys under `model.optim:`, and comments before them. */
export interface NemoGradientText {
  readonly model: string[];
  readonly optim: string[];
  readonly notes: string[];
}

/**
 * The NeMo 1.x keys that make the run hold the plan's gradient bytes, or a note of what it holds instead.
 * - megatron_amp_O2 (megatron_gpt_config.yaml: False): O1 keeps the weights fp32, so their gradients are fp32 whatever the
 *   plan, and MegatronBaseModel._validate_and_override_config turns gradient_accumulation_fusion off without it ("Gradient
 *   accumulation fusion can only be used with megatron amp O2 mixed precision"); the NeMo-Framework-Launcher's
 *   gpt3/175b.yaml sets it True under bf16. Under fp16 configure_optimizers refuses O2 with fused_adam only: its check is
 *   `if self.megatron_amp_O2 and not self.with_distributed_adam and …` before "fp16 training is not yet supported with O2",
 *   so an fp16 plan on distributed_fused_adam takes O2 too (QA: O1 kept fp32 weights and gradients, +7.8 GiB, Megatron
 *   1T on V100s at 28.2 → 36.0 GiB of 31.7), and only fused_adam is left on O1 under fp16, with a note.
 * - distributed_fused_adam's grad_sync_dtype (Apex DistributedFusedAdam: "datatype for gradient synchronization
 *   (default: same as dtype)", and setup_optimization sets dtype to fp32), into whose contiguous buffer the gradients
 *   go: the 16-bit type for 16-bit gradients, bf16 (the launcher's fp8 examples: +training.model.optim.grad_sync_dtype=bf16)
 *   or under fp16 fp16 (nemo.utils.str_to_dtype reads fp16 as float16), fp32 written out otherwise. NeMo's Megatron-Core optimizer path reads the same key (grad_reduce_in_fp32 =
 *   grad_sync_dtype == 'fp32'). setup_optimization keeps the embedding and output layer's gradients fp32 regardless
 *   (_with_fp32_optimizer).
 * - fused_adam under O2 wraps in MainParamsOptimizerWrapper with fp32_grad_accum = True for bf16: fp32, no key changes it.
 */
export function nemoGradientText(plan: PlanInput, sharded: boolean): NemoGradientText {
  const sixteen = sixteenBitGradients(plan);
  if (plan.precision === 'fp16' && !sharded) {
    return {
      model: [],
      optim: [],
      notes: ['  # gradients: NeMo 1.x refuses megatron_amp_O2 with fp16 for fused_adam ("fp16 training is not yet supported with O2"), so this '
        + 'YAML leaves NeMo\'s O1, which keeps fp32 weights with fp32 gradients (4 bytes a parameter, where this plan counts 2) and turns '
        + 'gradient_accumulation_fusion off'],
    };
  }
  const model = ['  megatron_amp_O2: true'];
  if (sharded) {
    const half = plan.precision === 'fp16' ? 'fp16' : 'bf16';
    return {
      model,
      optim: [`    grad_sync_dtype: ${sixteen ? half : 'fp32'}`],
      notes: sixteen ? [`  # gradients: 16-bit, as this plan counts them (optim.grad_sync_dtype: ${half}); NeMo keeps the embedding and output `
        + 'layer\'s fp32 (_with_fp32_optimizer), a little more than planned'] : [],
    };
  }
  return {
    model,
    optim: [],
    notes: sixteen ? ['  # gradients: fused_adam under megatron_amp_O2 accumulates them in fp32 (MainParamsOptimizerWrapper fp32_grad_accum; '
      + 'no key changes it), 4 bytes a parameter where this plan counts 2; distributed_fused_adam with optim.grad_sync_dtype: bf16 holds 2'] : [],
  };
}
