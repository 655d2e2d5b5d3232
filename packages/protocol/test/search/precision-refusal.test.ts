import { describe, expect, it } from 'vitest';
import { runEstimate, runSearch, type EstimateOk } from '../../src/index.ts';

/** GPT-3 XL (1.3B) on 2 DGX-1 V100 nodes: Volta has FP16 tensor cores and no BF16 ones, and runs no FlashAttention. */
const ON_V100 = { model: 'gpt3-1.3b', cluster: { gpu: 'v100-32gb', nodes: 2 }, training: { globalBatchSize: 64 } };

describe('a GPU without BF16 tensor cores or FlashAttention (V100)', () => {
  it('left unsaid, precision and attention take what the GPU runs: fp16 and the unfused softmax attention', () => {
    const e = runEstimate({ ...ON_V100, parallelism: { tensor: 8, pipeline: 2 } });
    expect(e).toMatchObject({ ok: true, resolved: { precision: 'fp16' } });
    const search = runSearch(ON_V100);
    expect(search).toMatchObject({ ok: true, best: { scenario: { training: { precision: 'fp16', attentionKernel: 'unfused' } } } });
    // An A100 keeps the contract's bf16 and flash attention.
    const a100 = runEstimate({ ...ON_V100, cluster: { gpu: 'a100-80gb', nodes: 2 }, parallelism: { tensor: 8, pipeline: 2 } }) as EstimateOk;
    expect(a100.resolved.precision).toBe('bf16');
  });
  it('bf16 asked for is refused naming training.precision and suggesting fp16, for a search as for FP8 on an A100', () => {
    const a = runSearch({ ...ON_V100, training: { ...ON_V100.training, precision: 'bf16' } });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues).toEqual([expect.objectContaining({ path: 'training.precision', message: expect.stringContaining('fp16') })]);
  });
  it('an estimate is refused the same way, and flash attention asked for names training.attentionKernel', () => {
    const scenario = { ...ON_V100, parallelism: { tensor: 8, pipeline: 2 } };
    expect(JSON.stringify(runEstimate({ ...scenario, training: { ...scenario.training, precision: 'bf16' } }))).toContain('training.precision');
    expect(JSON.stringify(runEstimate({ ...scenario, training: { ...scenario.training, attentionKernel: 'flash' } }))).toContain('training.attentionKernel');
  });
});
