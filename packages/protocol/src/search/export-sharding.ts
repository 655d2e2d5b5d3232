import type { PlanInput } from '@trainplan/planner';

/**
 * A plan's state sharding as Megatron-LM arguments (megatron/training/arguments.py, _add_distributed_args), with a note
 * where the plan names a ZeRO stage: ZeRO-1 is the distributed optimizer (--use-distributed-optimizer, optimizer state
 * sharded over the data-parallel ranks); ZeRO-2 and ZeRO-3 are Megatron-FSDP's --data-parallel-sharding-strategy
 * optim_grads (optimizer state and gradients) and optim_grads_params (the weights too). Torch FSDP2 (--use-torch-fsdp2)
 * is not used: validate_args refuses it with pipeline parallelism, fusion of gradient accumulation and tied embeddings.
 */
export function megatronSharding(plan: PlanInput): { args: string[]; notes: string[] } {
  const s = plan.sharding;
  if (s === 'none') return { args: [], notes: [] };
  // arguments.py: "--overlap-param-gather only supported with distributed optimizer or megatron fsdp".
  const overlap = plan.overlapGradReduce ? ['--overlap-param-gather'] : [];
  if (s === 'distributed-optimizer') return { args: ['--use-distributed-optimizer', ...overlap], notes: [] };
  if (s === 'zero-1') {
    return {
      args: ['--use-distributed-optimizer', ...overlap],
      notes: ['# ZeRO stage 1 (this plan): Megatron-LM\'s distributed optimizer (--use-distributed-optimizer) shards the optimizer state over the data-parallel ranks'],
    };
  }
  const strategy = s === 'zero-2' ? 'optim_grads' : 'optim_grads_params';
  return {
    // The Megatron-FSDP README's "Required Configurations" (with --no-gradient-accumulation-fusion, which toMegatronArgs
    // writes); validate_args: "Megatron FSDP only supports fsdp_dtensor checkpoint format".
    args: ['--use-megatron-fsdp', `--data-parallel-sharding-strategy ${strategy}`, '--use-distributed-optimizer', '--ckpt-format fsdp_dtensor', ...overlap],
    notes: [`# ZeRO stage ${s.slice(5)} (this plan): Megatron-FSDP's --data-parallel-sharding-strategy ${strategy} shards the optimizer state`
      + `, the gradients${s === 'zero-3' ? ' and the weights' : ''} over the data-parallel ranks; it needs --ckpt-format fsdp_dtensor`
      + ' and no gradient-accumulation fusion'],
  };
}

/** Megatron-FSDP: ZeRO-2 and ZeRO-3 plans (megatronSharding). */
export const usesMegatronFsdp = (plan: PlanInput): boolean => plan.sharding === 'zero-2' || plan.sharding === 'zero-3';

/**
 * The environment pretrain_gpt.py must start in, as comments (the flags that follow are a fragment of a command line,
 * so a bare shell line among them would not paste as one: a QA pass found it run `--num-layers` as a command): validate_args asserts CUDA_DEVICE_MAX_CONNECTIONS=1
 * ("Using tensor model parallelism or context parallelism require setting the environment variable
 * CUDA_DEVICE_MAX_CONNECTIONS to 1") with TP or CP above 1 before Blackwell ("requirement no longer exists since the
 * Blackwell architecture"), except with FSDP, which instead asserts it is not 1 ("FSDP always requires
 * CUDA_DEVICE_MAX_CONNECTIONS value large than one").
 */
export function megatronEnvironment(plan: PlanInput): string[] {
  if (usesMegatronFsdp(plan)) {
    return [
      '# Megatron-FSDP asserts CUDA_DEVICE_MAX_CONNECTIONS is not 1 (validate_args); its README: unset it where pretrain_gpt.py starts:',
      '#   unset CUDA_DEVICE_MAX_CONNECTIONS',
    ];
  }
  if ((plan.tensor > 1 || plan.context > 1) && plan.gpu.generation !== 'blackwell') {
    return [
      `# Megatron asserts CUDA_DEVICE_MAX_CONNECTIONS=1 with ${plan.tensor > 1 ? 'tensor' : 'context'} parallelism before Blackwell (validate_args): set it where pretrain_gpt.py starts:`,
      '#   export CUDA_DEVICE_MAX_CONNECTIONS=1',
    ];
  }
  return [];
}
