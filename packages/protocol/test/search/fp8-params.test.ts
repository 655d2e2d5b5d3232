import { describe, expect, it } from 'vitest';
import { runEstimate, runScale, runSearch, validateEstimate } from '../../src/index.ts';

// FP8 weights (training.fp8Params, Megatron's --fp8-param-gather) run only with the distributed optimizer (or
// Megatron-FSDP): the searches plan them so, instead of trying the plain optimizer and finding nothing.
describe('searches with training.fp8Params', () => {
  const machine = { model: 'llama3-8b', cluster: { gpu: 'dgx-h100', gpus: 8 }, training: { globalBatchSize: 32, precision: 'fp8', fp8Params: true } };

  it('one replica (TP 8, DP 1): the distributed optimizer is searched, not dropped as redundant beside a plain one that cannot run', () => {
    const answer = runSearch({ ...machine, constraints: { tensorSizes: [8], contextSizes: [1] } });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.best.scenario.parallelism).toMatchObject({ tensor: 8, data: 1, distributedOptimizer: true });
    expect(answer.best.scenario.training).toMatchObject({ precision: 'fp8', fp8Params: true });
  });

  it('scale with a fixed TP × PP takes the distributed optimizer for the rest', () => {
    const answer = runScale({
      model: 'llama3-70b', cluster: { gpu: 'dgx-h100' }, training: { globalBatchSize: 512, precision: 'fp8', fp8Params: true },
      nodes: [8, 16], parallelism: { tensor: 8, pipeline: 4 },
    });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.points.map((p) => p.scenario?.parallelism?.distributedOptimizer)).toEqual([true, true]);
  });
});

describe('an estimate says how FP8 weights were held (resolved.fp8Params)', () => {
  const scenario = (training: Record<string, unknown>) => ({
    model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128, ...training },
    parallelism: { tensor: 4, pipeline: 4, context: 2, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
  });
  const resolved = (training: Record<string, unknown>) => {
    const e = runEstimate(scenario(training));
    if (Array.isArray(e) || !e.ok) throw new Error('the scenario must run');
    expect(validateEstimate(e).ok).toBe(true);
    return e.resolved;
  };
  it('false for FP8 with 16-bit weights, true with fp8Params, absent in 16-bit training', () => {
    expect(resolved({ precision: 'fp8' }).fp8Params).toBe(false);
    expect(resolved({ precision: 'fp8', fp8Params: true }).fp8Params).toBe(true);
    expect(resolved({ precision: 'bf16' })).not.toHaveProperty('fp8Params');
  });
});
