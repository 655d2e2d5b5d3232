import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

/**
 * A share of memory is read only where it is one (lexicon/memory-fraction.ts). QA: "save 40% memory", "20% memory
 * fragmentation", "90% memory pressure" were planned as shares; "leave 10% memory" as 10%; "90% memory bandwidth" and
 * "10% memory headroom" as 90 and 10 GPUs a node (a refusal); "at 0.9 memory utilization" turned the question into a memory one.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes';

describe('the shares a question states', () => {
  it.each([
    ['with 90% HBM memory', 0.9], ['at 90% memory utilization', 0.9], ['with memory utilization 0.9', 0.9], ['using 90% of the memory', 0.9],
    ['at 0.9 memory utilization', 0.9], ['with 45% MFU and 80% memory', 0.8],
  ])('"%s": memoryFraction %d, the time asked', (phrase, fraction) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.intent).toBe('time');
    expect(q.stated.memoryFraction).toBe(fraction);
    expect(q.notRead ?? []).toEqual([]);
  });

  it.each([', leave 10% memory for fragmentation', ', keep 10% memory in reserve', ', reserve 10% memory'])('"%s": the share left free, 1 − 10% = 0.9 used', (phrase) => {
    expect(parse(`${BASE}${phrase}`).stated.memoryFraction).toBe(0.9);
  });
});

describe('a percentage of memory that is no share is said, never planned, never GPUs a node nor a memory question', () => {
  it.each([
    [', save 40% memory', '40% memory'], [', activations take 30% of GPU memory', '30% of GPU memory'], [', optimizer takes 50% memory', '50% memory'],
    [' with 20% memory fragmentation', 'with 20% memory fragmentation'], [' at 90% memory pressure', 'at 90% memory pressure'],
    [' at 90% memory efficiency', 'at 90% memory efficiency'], [' with 90% memory bandwidth', 'with 90% memory bandwidth'],
    [' with 10% memory headroom', 'with 10% memory headroom'],
  ])('"%s"', (phrase, said) => {
    const q = parse(`${BASE}${phrase}`);
    expect(q.intent).toBe('time');
    expect(q.stated).toMatchObject({ nodes: 64 });
    expect(q.stated.memoryFraction).toBeUndefined();
    expect(q.stated.gpusPerNode).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: `"${said}"`, why: expect.stringMatching(/^no share of memory a plan may use/) }]);
  });

  it.each([['with a memory cap of 70 GB', 'memory cap of 70 GB'], ['with memory usage 0.5 TB', 'memory usage 0.5 TB']])('"%s": an amount, said with no share advised from its number', (phrase, said) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.intent).toBe('time');
    expect(q.stated.memoryFraction).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: `"${said}"`, why: expect.stringMatching(/^an amount of memory is not read as a limit/) }]);
    expect(q.notRead?.[0]?.why).not.toMatch(/70%|50%/);
  });

  it('"with 90% memory, 80% memory": the first planned, the second said as contradicting it', () => {
    const q = parse(`${BASE} with 90% memory, 80% memory`);
    expect(q.stated.memoryFraction).toBe(0.9);
    expect(q.notRead).toEqual([{ phrase: '"80% memory"', why: 'contradicts "with 90% memory", which is planned; say one' }]);
  });
});
