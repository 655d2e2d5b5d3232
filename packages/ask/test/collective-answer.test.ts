import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

/** A collective's first row, as runCollective answers it. */
const rowOf = (data: unknown): { seconds: number; busbwGBps: number } | undefined =>
  (data as { rows?: { seconds: number; busbwGBps: number }[] }).rows?.[0];

describe('answer: a collective over one GPU', () => {
  it.each([
    ['allreduce 1GB on 1 gpu', /nothing to reduce across/],
    ['reduce-scatter 1GB on a single h100', /nothing to reduce across/],
    ['all-gather 1GB on one a100', /nothing to gather from/],
    ['broadcast 1GB on 1 gpu', /no other GPU to send to/],
    ['all-to-all 1GB on 1 gpu', /no other GPU to exchange with/],
  ])('"%s" says why it takes no time: one GPU moves no data', (question, why) => {
    const a = ask(question);
    expect(a.intent).toBe('collective');
    expect(rowOf(a.data)?.seconds).toBe(0);
    expect(a.headline).toMatch(/one GPU moves no data/);
    expect(a.headline).toMatch(why);
    // Never the bare "0 GB/s" as if it were a measured bandwidth.
    expect(a.headline).not.toMatch(/bus bandwidth 0 GB\/s/);
    // Said once: the protocol's own one-GPU note is not repeated below the headline.
    expect(a.notes.filter((n) => /moves no data/.test(n))).toEqual([]);
  });

  it('suggests more GPUs, with a question that then answers a time above zero', () => {
    const a = ask('allreduce 1GB on 1 gpu');
    const suggestion = a.notes.find((n) => /more GPUs/.test(n));
    expect(suggestion).toBeDefined();
    const quoted = /"([^"]+)"/.exec(suggestion ?? '')?.[1];
    expect(quoted).toBeDefined();
    const more = ask(quoted ?? '');
    expect(more.intent).toBe('collective');
    expect(rowOf(more.data)?.seconds).toBeGreaterThan(0);
  });

  it('on two GPUs and more the headline is the time and bus bandwidth, as before', () => {
    const a = ask('allreduce 1GB on 8 h100');
    expect(a.headline).toMatch(/bus bandwidth [1-9]/);
    expect(a.headline).not.toMatch(/moves no data/);
  });
});

describe('answer: a collective over no GPU', () => {
  it('"allreduce 1GB on 0 gpus" is refused in the question\'s words, never as the protocol\'s gpusPerNode field', () => {
    const a = ask('allreduce 1GB on 0 gpus');
    expect(a.ok).toBe(false);
    expect(`${a.headline} ${a.notes.join(' ')}`).toMatch(/2 GPUs or more/);
    expect(`${a.headline} ${a.notes.join(' ')}`).not.toMatch(/gpusPerNode/);
  });
});
