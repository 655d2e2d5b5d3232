import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { MAX_COMPARED } from '../src/lexicon/compared-models.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;
const line = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';

describe('two cluster sizes in one question are each answered, side by side, never one planned and the other dropped', () => {
  it.each([
    ['is 512 or 1024 H100 cheaper for 405B on 15T tokens', { gpus: 512 }, { gpus: 1024 }],
    ['train llama3-70b on 2T tokens on 512 H100 vs 1024 H100', { gpus: 512 }, { gpus: 1024 }],
    ['should we use 64 vs 128 nodes for 70b on 2T tokens at $2/gpu-hour', { nodes: 64 }, { nodes: 128 }],
    // k is a thousand in a count, as the CLI reads "--gpus 1k".
    ['16k or 32k gpus for 405b on 15T tokens', { gpus: 16_000 }, { gpus: 32_000 }],
    ['how long to train 70b on 2T tokens on 64 and 128 nodes', { nodes: 64 }, { nodes: 128 }],
  ])('"%s" reads both sizes', (question, first, second) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(first);
    expect(q.stated.comparedSizes).toEqual([second]);
  });

  it.each([
    // Before: 256 nodes alone; 64 nodes alone; 64,128 nodes (SI digit grouping); each with no note.
    ['how long to train 70b on 2T tokens on 64/128/256 nodes', { nodes: 64 }, [{ nodes: 128 }, { nodes: 256 }]],
    ['how long to train 70b on 2T tokens on 64 nodes, 128 nodes, 256 nodes', { nodes: 64 }, [{ nodes: 128 }, { nodes: 256 }]],
    ['how long to train 70b on 2T tokens on 64 128 nodes', { nodes: 64 }, [{ nodes: 128 }]],
    ['train 70b on 2T tokens on 64 128 256 h100', { gpus: 64 }, [{ gpus: 128 }, { gpus: 256 }]],
  ])('"%s": sizes listed by slashes, spaces or a repeated unit are compared', (question, first, others) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(first);
    expect(q.stated.comparedSizes).toEqual(others);
  });

  it('"8 16 32 … 1024 nodes": the first planned, the next compared up to the cap, the rest said (Not read)', () => {
    // Before: 1,024 nodes alone, the other seven dropped unsaid.
    const q = parse('how long to train 70b on 2T tokens on 8 16 32 64 128 256 512 1024 nodes');
    expect(q.stated.nodes).toBe(8);
    expect(q.stated.comparedSizes).toEqual([{ nodes: 16 }, { nodes: 32 }, { nodes: 64 }, { nodes: 128 }, { nodes: 256 }]);
    expect(q.notRead).toContainEqual({ phrase: '512 nodes, 1,024 nodes', why: `not compared: at most ${MAX_COMPARED} cluster sizes a question are set side by side; ask again for these` });
  });

  it.each(['train 70b on 64 nodes, 8 gpus per node', 'train 70b on 64 nodes, 512 gpus', 'tp 8 512 gpus for 70b', 'pp 16 128 nodes for 70b'])(
    '"%s" lists no sizes', (question) => {
      expect(parse(question).stated.comparedSizes).toBeUndefined();
    },
  );

  it('a size comparison keeps the first question\'s readings ("7B taken as Llama 2 7B"), as GPUs compared do', () => {
    // Before: the first size was restated and its readings lost.
    const a = ask('how long to train 7B on 1T tokens on 64 vs 128 H100', { publicUrl: null });
    expect(a.assumptions.some((x) => x.startsWith('7B taken as Llama 2 7B'))).toBe(true);
  });

  it('"512 H100 vs 1024 H100": a line for each size, each its own plan, the larger faster', () => {
    const a = ask('train llama3-70b on 2T tokens on 512 H100 vs 1024 H100', { publicUrl: null });
    expect(a.headline).toMatch(/^512 GPUs vs 1,024 GPUs for Llama 3 70B on H100 SXM5 80GB: 512 GPUs: 64 nodes \(512 GPUs\), .*; 1,024 GPUs: 128 nodes \(1,024 GPUs\), /);
    const days = (label: string): number => Number(/([\d.,]+) days/.exec(line(a, label))?.[1]?.replace(/,/g, ''));
    expect(days('1,024 GPUs')).toBeLessThan(days('512 GPUs'));
    const alone = ask('how long to train llama3-70b on 2T tokens on 1024 H100', { publicUrl: null }).data as NodesOk;
    expect(line(a, '1,024 GPUs')).toContain(`128 nodes (1,024 GPUs)`);
    expect(days('1,024 GPUs')).toBeCloseTo(alone.days, 0);
  });

  it('"512 H100, no wait, 1024 H100": a correction, the last size taken and said so', () => {
    const q = parse('train llama3-70b on 2T tokens on 512 H100, no wait, 1024 H100');
    expect(q.stated.gpus).toBe(1024);
    expect(q.stated.comparedSizes).toBeUndefined();
    expect(q.defaults.map((d) => d.text)).toContain('"no wait" read as a correction: the last cluster size said taken, 1,024 GPUs');
  });

  it('"512 H100 - actually make that 256": a correction to a bare count, in the first count\'s unit, said so', () => {
    const q = parse('llama3-70b 2T tokens on 512 H100 — actually make that 256');
    expect(q.stated.gpus).toBe(256);
    expect(q.stated.comparedSizes).toBeUndefined();
    expect(q.defaults.map((d) => d.text)).toContain('"actually make that" read as a correction: the last cluster size said taken, 256 GPUs');
  });

  it('"compare 256, 512 and 1024 H100": all three sizes, in order, never the first dropped', () => {
    const q = parse('compare 256, 512 and 1024 H100 for llama3-70b 2T tokens');
    expect(q.stated.gpus).toBe(256);
    expect(q.stated.comparedSizes).toEqual([{ gpus: 512 }, { gpus: 1024 }]);
  });

  it('"512 H100 or 512 H200 or 512 B200": all three GPUs compared, never the third dropped', () => {
    const q = parse('how long for llama3-70b 2T tokens on 512 H100 or 512 H200 or 512 B200');
    expect([q.stated.gpu, ...(q.stated.comparedGpus ?? []).map((g) => g.gpu)].sort()).toEqual(['b200', 'h100-sxm', 'h200']);
  });

  it('"512 H100 and 512 A100": both GPUs compared, each on its own count, never the A100 alone', () => {
    expect(parse('train llama3-70b on 2T tokens on 512 H100 and 512 A100').stated).toMatchObject({ gpu: 'h100-sxm', gpus: 512, comparedGpus: [{ gpu: 'a100-80gb', gpus: 512 }] });
    const a = ask('train llama3-70b on 2T tokens on 512 H100 and 1024 A100', { publicUrl: null });
    expect(a.headline).toMatch(/^H100 SXM5 80GB vs A100 SXM4 80GB for Llama 3 70B: H100 SXM5 80GB: 64 nodes \(512 GPUs\), .*; A100 SXM4 80GB: 128 nodes \(1,024 GPUs\), /);
  });

  it('one size, GPUs per node, or two models on one cluster, is no such comparison', () => {
    expect(parse('how long to train 405b on 15T tokens on 1024 H100').stated.comparedSizes).toBeUndefined();
    expect(parse('train 70b on 64 nodes and 8 gpus per node').stated).toMatchObject({ nodes: 64, gpusPerNode: 8 });
    expect(parse('train 70b on 64 nodes and 8 gpus per node').stated.comparedSizes).toBeUndefined();
    expect(parse('train 7b or 13b on 64 H100').problems).toEqual([]);
  });
});

describe('money asked of a price the question does not give', () => {
  it('"$2.1/gpu-h in EUR": the price is taken in dollars, and the answer says it converts nothing', () => {
    const a = ask('train llama3-70b on 2T tokens on 512 H100 at $2.1/gpu-h in EUR', { publicUrl: null });
    expect(a.notes[0]).toBe('Not read: "in EUR" (prices are taken in the currency they are given in ($), never converted: give the price in that currency for a cost in it).');
    expect(a.headline).toContain('$');
    expect(parse('train llama3-70b on 2T tokens on 512 H100 at €2.1/gpu-h in euros').notRead).toEqual([]);
  });

  it('a cost with no price: the GPU-hours first, and that a price is needed for money', () => {
    const a = ask("what's the cost of training llama3-70b on 2T tokens on 512 H100", { publicUrl: null });
    const d = a.data as NodesOk;
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: [\d.]+k GPU-hours, /);
    expect(a.headline).toContain(`${Math.round(d.gpuHours / 1000)}k GPU-hours`);
    expect(a.notes.some((n) => /^No price given, so no cost in money: .*give one \("at \$2\/GPU-hour"\)/.test(n))).toBe(true);
    // Priced, the cost is answered and no price asked for.
    const priced = ask("what's the cost of training llama3-70b on 2T tokens on 512 H100 at $2/gpu-hour", { publicUrl: null });
    expect(priced.notes.some((n) => n.startsWith('No price given'))).toBe(false);
  });
});

describe('a list of cluster sizes of any length up to MAX_COMPARED is compared whole; past it, what is left out is said', () => {
  it('"on 64 vs 128 vs 256 vs 512 H100": all four sizes (before: 256 vs 512 only, 64 and 128 dropped unsaid)', () => {
    const question = 'how long to train 70B with tp 8 pp 4 on 64 vs 128 vs 256 vs 512 H100';
    const q = parse(question);
    expect(q.stated.gpus).toBe(64);
    expect(q.stated.comparedSizes).toEqual([{ gpus: 128 }, { gpus: 256 }, { gpus: 512 }]);
    expect(ask(question, { publicUrl: null }).headline).toMatch(/^64 GPUs vs 128 GPUs vs 256 GPUs vs 512 GPUs for Llama 3 70B on H100 SXM5 80GB: 64 GPUs: /);
  });

  it(`past ${MAX_COMPARED} sizes the rest are not compared, and said so (Not read)`, () => {
    const q = parse('how long to train 70B with tp 8 pp 4 on 64 vs 128 vs 256 vs 512 vs 1024 vs 2048 vs 4096 H100');
    expect(q.stated.comparedSizes).toHaveLength(MAX_COMPARED - 1);
    expect(q.notRead).toContainEqual({ phrase: '4,096 GPUs', why: `not compared: at most ${MAX_COMPARED} cluster sizes a question are set side by side; ask again for these` });
  });

  it('three GPUs each counted: each is planned at its own size, in the question\'s order (before: 2048 B200 planned at 512)', () => {
    const q = parse('how long for llama3-70b 2T tokens on 512 H100 or 1024 H200 or 2048 B200');
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', gpus: 512, comparedGpus: [{ gpu: 'h200', gpus: 1024 }, { gpu: 'b200', gpus: 2048 }] });
    expect(q.notRead ?? []).toEqual([]);
    // Named in another order than the lexicon's, each size still goes to the GPU written beside it.
    expect(parse('how long for llama3-70b 2T tokens on 2048 B200 or 512 H100 or 1024 H200').stated)
      .toMatchObject({ gpu: 'b200', gpus: 2048, comparedGpus: [{ gpu: 'h100-sxm', gpus: 512 }, { gpu: 'h200', gpus: 1024 }] });
  });
});
