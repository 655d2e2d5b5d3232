import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

const ASKED = (budget: string): string => `fastest way to train llama3-70b on 2T tokens with ${budget}`;

describe('a GPU-hour budget written with the GPU\'s name for "GPU" (QA: read as a 600,000-GPU cluster)', () => {
  it.each(['600k H100 hours', '600k H100-hours', '600k H100 GPU-hours', '600k h100 hrs'])('"%s" is 600,000 H100 GPU-hours, no GPU count', (budget) => {
    const q = parse(ASKED(budget));
    expect(q.problems).toEqual([]);
    expect(q.stated.gpuHours).toBe(600_000);
    expect(q.stated.gpu).toBe('h100-sxm');
    expect(q.stated.gpus).toBeUndefined();
    expect(q.stated.nodes).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
  });

  it('reads as "600k GPU hours on H100" does: the same question stated', () => {
    expect(parse(ASKED('600k H100 hours')).stated).toEqual(parse(ASKED('600k GPU hours on H100')).stated);
  });

  it.each([
    // A count of GPUs and a length beside it stay a count and a length.
    ['how long to train llama3-70b on 2T tokens on 64 H100 for 36 hours', 64],
    ['how long to train llama3-70b on 2T tokens on 64 h100 hosts', undefined],
  ])('"%s" keeps its GPU count', (question, gpus) => {
    const q = parse(question);
    expect(q.stated.gpuHours).toBeUndefined();
    expect(q.stated.gpus).toBe(gpus);
  });
});
