import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, toMegatronArgs } from '../../src/index.ts';

/** Llama 3 8B on 2 DGX H100 nodes, data parallel only (TP 1), with the given parallelism on top. */
const llama8b = (parallelism: Record<string, unknown>, training: Record<string, unknown> = {}, gpu = 'h100-sxm') => ({
  model: 'llama3-8b', cluster: { gpu, nodes: 2 },
  training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16', ...training },
  parallelism: { tensor: 1, pipeline: 1, ...parallelism },
});
const lines = (s: unknown) => toMegatronArgs(s)!.split('\n');
const argLines = (s: unknown) => lines(s).map((l) => l.trim().replace(/ \\$/, '')).filter((l) => l.startsWith('--'));

describe('ZeRO plans are exported with a sharding that holds them', () => {
  it('ZeRO-1 is the distributed optimizer', () => {
    expect(argLines(llama8b({ zeroStage: 1 }))).toContain('--use-distributed-optimizer');
  });
  it('ZeRO-2 and ZeRO-3 are Megatron-FSDP\'s optim_grads and optim_grads_params, with the flags its README requires', () => {
    for (const [stage, strategy] of [[2, 'optim_grads'], [3, 'optim_grads_params']] as const) {
      const args = argLines(llama8b({ zeroStage: stage }));
      for (const flag of ['--use-megatron-fsdp', `--data-parallel-sharding-strategy ${strategy}`, '--use-distributed-optimizer',
        '--ckpt-format fsdp_dtensor', '--no-gradient-accumulation-fusion']) expect(args).toContain(flag);
    }
  });
  it('no sharding, no sharding flag', () => {
    const args = argLines(llama8b({}));
    expect(args.some((a) => a.includes('fsdp') || a === '--use-distributed-optimizer')).toBe(false);
  });
});

describe('CUDA_DEVICE_MAX_CONNECTIONS, which validate_args asserts', () => {
  it('=1 with TP or CP above 1 before Blackwell, as a comment before the arguments (every non-comment line is a flag: it pastes into a command)', () => {
    const all = lines(CONTRACT_EXAMPLE);
    const at = all.indexOf('#   export CUDA_DEVICE_MAX_CONNECTIONS=1');
    expect(at).toBeGreaterThan(0);
    expect(all[at - 1]).toMatch(/^# Megatron asserts CUDA_DEVICE_MAX_CONNECTIONS=1/);
    expect(all[at + 1]).toMatch(/^--/);
    expect(all.filter((l) => !l.startsWith('#')).every((l) => l.trimStart().startsWith('--'))).toBe(true);
    expect(lines(llama8b({ context: 2 }))).toContain('#   export CUDA_DEVICE_MAX_CONNECTIONS=1');
  });
  it('not with TP 1 and CP 1, nor on Blackwell', () => {
    expect(toMegatronArgs(llama8b({}))).not.toContain('CUDA_DEVICE_MAX_CONNECTIONS');
    expect(toMegatronArgs(llama8b({ tensor: 2 }, {}, 'b200'))).not.toContain('CUDA_DEVICE_MAX_CONNECTIONS');
  });
  it('Megatron-FSDP asserts the opposite: unset it', () => {
    const all = lines(llama8b({ tensor: 2, zeroStage: 3 }));
    expect(all).toContain('#   unset CUDA_DEVICE_MAX_CONNECTIONS');
    expect(all).not.toContain('#   export CUDA_DEVICE_MAX_CONNECTIONS=1');
  });
});

describe('16-bit gradient accumulation under bf16', () => {
  it('adds --grad-reduce-in-bf16, without which validate_args turns fp32 accumulation on', () => {
    expect(argLines(llama8b({}, { gradientAccumulation: '16-bit' }))).toContain('--grad-reduce-in-bf16');
    expect(argLines(llama8b({}, { gradientAccumulation: '16-bit', precision: 'fp8' }))).toContain('--grad-reduce-in-bf16');
  });
  it('fused into a 16-bit buffer (fused-16-bit): --grad-reduce-in-bf16 with gradient-accumulation fusion left on', () => {
    for (const precision of ['bf16', 'fp8'] as const) {
      const args = argLines(llama8b({}, { gradientAccumulation: 'fused-16-bit', precision }));
      expect(args).toContain('--grad-reduce-in-bf16');
      expect(args).not.toContain('--no-gradient-accumulation-fusion');
      expect(args).not.toContain('--accumulate-allreduce-grads-in-fp32');
    }
    // Under fp16 the fused buffer is 16-bit already: the same arguments as fused.
    expect(toMegatronArgs(llama8b({}, { gradientAccumulation: 'fused-16-bit', precision: 'fp16' })))
      .toBe(toMegatronArgs(llama8b({}, { precision: 'fp16' })));
  });
  it('not for fused or fp32 accumulation, nor under fp16, whose gradients are 16-bit already', () => {
    expect(argLines(llama8b({}))).not.toContain('--grad-reduce-in-bf16');
    expect(argLines(llama8b({}, { gradientAccumulation: 'fp32' }))).not.toContain('--grad-reduce-in-bf16');
    expect(argLines(llama8b({}, { gradientAccumulation: '16-bit', precision: 'fp16' }))).not.toContain('--grad-reduce-in-bf16');
  });
});

describe('a ZeRO plan\'s 16-bit gradients under bf16 or fp8: --grad-reduce-in-bf16, whatever the stage', () => {
  // The plan counts DeepSpeed ZeRO's 16-bit gradient buffer, 2 bytes a parameter, for every zero-* stage. Megatron under --bf16
  // (fp8 runs with --bf16 too) sets accumulate_allreduce_grads_in_fp32 = True unless --grad-reduce-in-bf16 is given
  // (arguments.py validate_args), and its DDP buffer is then torch.float, 4 bytes: the flag is what keeps the planned 2.
  it.each([[1, 'bf16'], [2, 'bf16'], [3, 'bf16'], [1, 'fp8'], [2, 'fp8']] as const)('ZeRO-%i under %s', (stage, precision) => {
    expect(argLines(llama8b({ zeroStage: stage }, { precision }))).toContain('--grad-reduce-in-bf16');
  });
  it('Megatron-FSDP (ZeRO-2 and 3) reads it too: the flag sits beside --use-megatron-fsdp, as its user guide recommends', () => {
    const args = argLines(llama8b({ zeroStage: 3 }));
    expect(args).toEqual(expect.arrayContaining(['--use-megatron-fsdp', '--grad-reduce-in-bf16']));
  });
  it('the distributed optimizer alone keeps Megatron\'s fp32 main grads, which is what the plan counts for it: no flag', () => {
    expect(argLines(llama8b({ distributedOptimizer: true }))).not.toContain('--grad-reduce-in-bf16');
  });
  it('not under fp16, whose buffer is 16-bit already, nor with fp32 accumulation, whose buffer the plan counts as fp32', () => {
    expect(argLines(llama8b({ zeroStage: 1 }, { precision: 'fp16' }))).not.toContain('--grad-reduce-in-bf16');
    const fp32 = argLines(llama8b({ zeroStage: 1 }, { gradientAccumulation: 'fp32' }));
    expect(fp32).not.toContain('--grad-reduce-in-bf16');
    expect(fp32).toContain('--accumulate-allreduce-grads-in-fp32');
  });
  it('the QA plan (Llama 3 70B on 8 DGX H100, batch 512, TP 2 · PP 4 · CP 4, ZeRO-1): the distributed optimizer with bf16 gradients', () => {
    const qa = {
      model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 512, microBatchSize: 1, precision: 'bf16' },
      parallelism: { tensor: 2, pipeline: 4, context: 4, zeroStage: 1, sequenceParallel: true },
    };
    expect(argLines(qa)).toEqual(expect.arrayContaining(['--use-distributed-optimizer', '--bf16', '--grad-reduce-in-bf16']));
  });
});
