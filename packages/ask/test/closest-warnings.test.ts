import { describe, expect, it } from 'vitest';
import { runEstimate } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';

describe('a plan that does not fit answers the closest that does, with that plan\'s own warnings', () => {
  const question = 'train llama3.1-70b at a 32k context with context parallel 2 and tp 8 on 128 H100';

  it('QA: the closest plan at 98.4% of HBM and its causal MFU were unsaid; its estimate\'s warnings are its notes', () => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.configuration).toMatch(/^closest that fits, not what was asked: TP 8 · PP 2 · CP 2/);
    const closest = a.notes.filter((n) => n.startsWith('The closest plan: '));
    expect(closest.some((n) => /peak memory is [\d.]+% of the GPU's/.test(n))).toBe(true);
    expect(closest.some((n) => n.includes('counting the causal half the kernels compute'))).toBe(true);
  });

  it('says what an estimate of the closest plan itself warns, no more and no less', () => {
    const a = ask(question, { publicUrl: null });
    // The same layout through the contract: the answer's scenario with PP 2, DP 4.
    const scenario = {
      model: 'llama3.1-70b', cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 128 },
      training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16', seqLength: 32768 },
      parallelism: { tensor: 8, pipeline: 2, context: 2, recompute: 'selective', sequenceParallel: true, distributedOptimizer: true },
    };
    const e = runEstimate(scenario) as { ok: boolean; warnings: string[] };
    expect(e.ok).toBe(true);
    expect(a.notes.filter((n) => n.startsWith('The closest plan: ')).map((n) => n.slice('The closest plan: '.length))).toEqual(e.warnings);
  });
});
