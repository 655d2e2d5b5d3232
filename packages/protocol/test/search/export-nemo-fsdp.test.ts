import { describe, expect, it } from 'vitest';
import { toNemoYaml } from '../../src/index.ts';

/**
 * The QA pass's ZeRO-3 plan (/tmp/qa-export/z3.json, the search's best): Llama 3 70B at TP 1 · PP 1 · DP 128 on 16 DGX H100
 * nodes, full recompute. Before, its NeMo YAML was distributed_fused_adam with megatron_amp_O2, which holds the weights and
 * gradients whole (70.6B × 4 B ≈ 263 GiB a GPU), and said NeMo had no ZeRO stage setting.
 */
const zero = (zeroStage: 1 | 2 | 3, training: Record<string, unknown> = {}) => ({
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 16 },
  training: { globalBatchSize: 256, microBatchSize: 2, precision: 'bf16', ...training },
  parallelism: { tensor: 1, pipeline: 1, zeroStage, recompute: 'full' },
});
const yaml = (scenario: unknown) => toNemoYaml(scenario)!.split('\n');
const optim = (lines: string[]) => lines.slice(lines.indexOf('  optim:'));
const key = (lines: string[], name: string) => lines.find((l) => l.startsWith(`  ${name}:`));

describe('NeMo: a ZeRO-2 or ZeRO-3 plan runs on NeMo 1.x\'s torch FSDP (model.fsdp), which shards what the plan shards', () => {
  // NLPFSDPStrategy (nlp_overrides.py): 'full' is FULL_SHARD (weights, gradients, optimizer state), 'grad' SHARD_GRAD_OP.
  it.each([[3, 'full'], [2, 'grad']] as const)('ZeRO-%i: fsdp true, fsdp_sharding_strategy %s', (stage, strategy) => {
    const lines = yaml(zero(stage));
    expect(lines).toContain('  fsdp: true');
    expect(lines).toContain(`  fsdp_sharding_strategy: ${strategy}`);
  });

  it('with fused_adam and megatron_amp_O2 false, as the launcher\'s fsdp_20b_bf16_1node.sh (NeMo asserts "Distributed optimizer cannot be used with FSDP")', () => {
    const lines = yaml(zero(3));
    expect(optim(lines)).toContain('    name: fused_adam');
    expect(lines.join('\n')).not.toContain('distributed_fused_adam');
    expect(key(lines, 'megatron_amp_O2')).toBe('  megatron_amp_O2: false');
    // distributed_fused_adam's key, which fused_adam does not read.
    expect(lines.join('\n')).not.toContain('grad_sync_dtype');
  });

  it('FP8 under FSDP is said to be outside NeMo\'s published FSDP recipes, not written silently (retest QA); BF16 says nothing', () => {
    expect(yaml(zero(3, { precision: 'fp8' })).join('\n')).toMatch(/# FP8 under torch FSDP is not among NeMo 1\.x's published FSDP recipes/);
    expect(yaml(zero(3, { precision: 'fp8', fp8Params: true })).join('\n')).toMatch(/# FP8 under torch FSDP, with fp8_params, is not among/);
    expect(yaml(zero(3)).join('\n')).not.toContain('FP8 under torch FSDP');
  });

  it('gradient_accumulation_fusion false, which NeMo sets under FSDP itself ("gradient accumulation cannot be fused")', () => {
    // The same plan fused under ZeRO-1 writes true: only FSDP turns it off.
    expect(key(yaml(zero(3)), 'gradient_accumulation_fusion')).toBe('  gradient_accumulation_fusion: false');
    expect(key(yaml(zero(1)), 'gradient_accumulation_fusion')).toBe('  gradient_accumulation_fusion: true');
  });

  it('reduces the 16-bit gradients the plan counts in 16 bits: bf16, fp16\'s 16, and 32 for an fp32 add (NeMo\'s default is 32)', () => {
    expect(key(yaml(zero(3)), 'fsdp_grad_reduce_dtype')).toBe('  fsdp_grad_reduce_dtype: bf16');
    expect(key(yaml(zero(3, { precision: 'fp8' })), 'fsdp_grad_reduce_dtype')).toBe('  fsdp_grad_reduce_dtype: bf16');
    expect(key(yaml(zero(3, { precision: 'fp16' })), 'fsdp_grad_reduce_dtype')).toBe('  fsdp_grad_reduce_dtype: 16');
    expect(key(yaml(zero(2, { gradientAccumulation: 'fp32' })), 'fsdp_grad_reduce_dtype')).toBe('  fsdp_grad_reduce_dtype: 32');
  });

  it('says which ZeRO stage it is, and no longer that NeMo has no ZeRO stage setting', () => {
    const lines = yaml(zero(3));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}# ZeRO-3 \(this plan\): NeMo 1\.x's torch FSDP, fsdp_sharding_strategy full \(NLPFSDPStrategy: FULL_SHARD\), shards the weights, the gradients and the optimizer state/));
    expect(lines.join('\n')).not.toContain('no ZeRO stage setting');
  });

  it('says what FSDP holds against the plan: ZeRO-3\'s 4 + 4 + 8 fp32 bytes sharded are DeepSpeed\'s 2 + 2 + 12; ZeRO-2\'s gradient shards are fp32, not 16-bit', () => {
    const held = (lines: string[]) => lines.find((l) => l.startsWith('  # it holds'));
    expect(held(yaml(zero(3)))).toMatch(/16 bytes a parameter over the data-parallel ranks as this plan counts;/);
    expect(held(yaml(zero(2)))).toMatch(/2 bytes a parameter over the data-parallel ranks more than planned \(its gradient shards are fp32, not 16-bit\)/);
    // An fp32 add's plan holds fp32 gradients of its own: no 16-bit comparison.
    expect(held(yaml(zero(2, { gradientAccumulation: 'fp32' })))).not.toMatch(/planned|counts/);
  });

  it('ZeRO-1 and the distributed optimizer keep distributed_fused_adam with O2, and no FSDP key', () => {
    for (const scenario of [zero(1), { ...zero(1), parallelism: { tensor: 1, pipeline: 1, distributedOptimizer: true, recompute: 'full' } }]) {
      const lines = yaml(scenario);
      expect(optim(lines)).toContain('    name: distributed_fused_adam');
      expect(key(lines, 'megatron_amp_O2')).toBe('  megatron_amp_O2: true');
      expect(lines.some((l) => l.includes('fsdp'))).toBe(false);
    }
    expect(yaml(zero(1))).toContainEqual(expect.stringMatching(/^ {2}# ZeRO-1 \(this plan\).*holds the gradients whole, as ZeRO-1 does$/));
  });
});
