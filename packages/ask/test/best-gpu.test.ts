import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { asBestGpuComparison, BEST_GPU_NOTE } from '../src/answer/best-gpu.ts';
import { parse } from '../src/parse.ts';

// QA: "what's the best gpu for training llama3-70b" planned the default H100 alone, headed "Best for Llama 3 70B on H100",
// as if the GPUs had been weighed.
describe('"what\'s the best GPU for …" with no GPU named: GPUs compared, never the default one alone', () => {
  it.each([
    'what\'s the best gpu for training llama3-70b',
    'which GPU should I use to train llama3-8b on 1T tokens in 30 days',
  ])('"%s" is asked of the A100 80GB, the H100 and the B200', (question) => {
    const q = asBestGpuComparison(parse(question));
    expect(q?.stated).toMatchObject({ gpu: 'a100-80gb', comparedGpus: [{ gpu: 'h100-sxm' }, { gpu: 'b200' }] });
    // The GPU is no longer a default: no "(no GPU named)" assumption.
    expect(q?.defaults.some((d) => d.field === 'gpu')).toBe(false);
  });

  it.each([
    'best config for llama3-70b on 64 H100',
    'what is the best gpu count for llama3-70b',
    'how many nodes to train llama3-70b on 2T tokens in 30 days',
  ])('"%s" names a GPU or asks none (a count of them is no GPU): not compared', (question) => {
    expect(asBestGpuComparison(parse(question))).toBeUndefined();
  });

  it('the answer sets the three side by side, says why those, and how to weigh others or their cost', () => {
    const a = ask('what\'s the best gpu for training llama3-70b', { publicUrl: null });
    expect(a.headline).toMatch(/^A100 SXM4 80GB vs H100 SXM5 80GB vs B200 \(HGX B200\) for Llama 3 70B: A100 SXM4 80GB: .*; H100 SXM5 80GB: .*; B200 \(HGX B200\): /);
    expect(a.notes[0]).toBe(BEST_GPU_NOTE);
    expect(BEST_GPU_NOTE).toMatch(/^No GPU named: A100 SXM4 80GB, H100 SXM5 80GB, B200 \(HGX B200\) compared.*"H100 vs H200 for …".*"A100 at \$1\.5\/hr or H100 at \$2\.5\/hr"/);
    expect(a.assumptions.join(' ')).not.toMatch(/no GPU named/);
  });
});
