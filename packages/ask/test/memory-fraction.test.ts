import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * A share of GPU memory stated is the search's memoryFraction (lexicon/memory-fraction.ts). QA: "how long … on 64 H100
 * nodes with 90% memory" was read as a memory question (its "memory"), its 90 as GPUs a node, and no time answered.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes';

describe('a share of memory is read as one, never as a memory question or a count', () => {
  it.each([
    ['with 90% memory', 0.9], ['using 90% of GPU memory', 0.9], ['memory fraction 0.85', 0.85], ['with a memory limit of 80%', 0.8],
    ['at most 90% of the hbm', 0.9], ['gpu_memory_utilization 0.9', 0.9],
  ])('"%s": the time asked on 64 nodes, memoryFraction %d', (phrase, fraction) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.intent).toBe('time');
    expect(q.stated).toMatchObject({ memoryFraction: fraction, nodes: 64 });
    expect(q.stated.gpusPerNode).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
  });

  it('the search holds its plan to the share: at 50% the plan fits in half the GPU, where the default plan takes more; said', () => {
    const free = ask(BASE, { publicUrl: null });
    const half = ask(`${BASE} with 50% memory`, { publicUrl: null });
    expect(half.headline).toMatch(/ days to train 2\.00T tokens on 64 nodes/);
    expect(free.memoryPerGpuBytes).toBeGreaterThan((free.memoryCapacityBytes ?? 0) * 0.5);
    expect(half.memoryPerGpuBytes).toBeLessThanOrEqual((half.memoryCapacityBytes ?? 0) * 0.5);
    expect(half.notes).toContain("Every plan searched held to 50% of each GPU's memory, as asked (the search's default is 95%).");
  });

  it('a stated layout is planned as given: the share said not read; "memory" asked beside it is still a memory question', () => {
    const q = parse(`${BASE} with tp 8 pp 4 with 90% memory`);
    expect(q.stated.memoryFraction).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: '"with 90% memory"', why: expect.stringMatching(/^a share of memory limits the layouts a search tries/) }]);
    const memory = parse('how much memory does llama3-70b need on 64 H100 nodes with tp 8 pp 4 with 90% memory');
    expect(memory.intent).toBe('memory');
    expect(memory.notRead?.[0]).toMatchObject({ phrase: '"with 90% memory"' });
    // "50% memory savings" is a change, no share to plan in.
    expect(parse(`${BASE} with 50% memory savings`).stated.memoryFraction).toBeUndefined();
  });

  it('past 100%, or a bare number past 1: said not read with what to write, the question still answered', () => {
    const over = parse(`${BASE} with 120% memory`);
    expect(over.problems).toEqual([]);
    expect(over.notRead).toEqual([{ phrase: '"with 120% memory"', why: "a memory fraction is a share of the GPU's memory, above 0% and at most 100%" }]);
    expect(parse(`${BASE} memory fraction 90`).notRead).toEqual([
      { phrase: '"memory fraction 90"', why: 'a memory fraction is a share of the GPU\'s memory, at most 1; for 90% write "90% memory" (or 0.9)' },
    ]);
  });

});
