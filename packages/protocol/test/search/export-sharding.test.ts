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
  it('not for fused or fp32 accumulation, nor under fp16, whose gradients are 16-bit already', () => {
    expect(argLines(llama8b({}))).not.toContain('--grad-reduce-in-bf16');
    expect(argLines(llama8b({}, { gradientAccumulation: 'fp32' }))).not.toContain('--grad-reduce-in-bf16');
    expect(argLines(llama8b({}, { gradientAccumulation: '16-bit', precision: 'fp16' }))).not.toContain('--grad-reduce-in-bf16');
  });
});
