import { modelById } from '@trainplan/presets';
import type { EstimateJson, EstimateOk } from '@trainplan/protocol';
import { formatPercentChange, formatSeconds } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import type { Layout } from '../src/question.ts';

/** The estimates a comparison answer was built from, one per layout in the question's order; every one must have run. */
function estimatesOf(a: ReturnType<typeof ask>): EstimateOk[] {
  const data = a.data as EstimateJson[];
  expect(Array.isArray(data)).toBe(true);
  return data.map((e) => {
    if (!e.ok) throw new Error(`a layout did not run: ${e.message}`);
    return e;
  });
}

const GPT3_ON_A100 = 'gpt3 175b on 128 a100 nodes';

describe('parse: two layouts or more in one question are all read, never the first alone', () => {
  it.each([
    ['tp 8 pp 8 or tp 4 pp 16', [{ tensor: 8, pipeline: 8 }, { tensor: 4, pipeline: 16 }]],
    ['compare tp 8 pp 8 vs tp 4 pp 16', [{ tensor: 8, pipeline: 8 }, { tensor: 4, pipeline: 16 }]],
    // A later layout keeps the first's sizes it does not restate.
    ['tp 8 pp 8 or pp 16', [{ tensor: 8, pipeline: 8 }, { tensor: 8, pipeline: 16 }]],
    // Grouped where written, not each size's first mention: the first layout has no TP of its own.
    ['pp 8 or tp 4 pp 16', [{ pipeline: 8 }, { tensor: 4, pipeline: 16 }]],
    // A bare number after "or" is the size just named.
    ['tp 4 or 8', [{ tensor: 4 }, { tensor: 8 }]],
    ['tp 8 pp 8, tp 4 pp 16 or tp 2 pp 32', [{ tensor: 8, pipeline: 8 }, { tensor: 4, pipeline: 16 }, { tensor: 2, pipeline: 32 }]],
  ] as [string, Layout[]][])('"%s" reads layouts %j', (layouts, expected) => {
    const q = parse(`step time of ${GPT3_ON_A100} with ${layouts}`);
    expect(q.problems).toEqual([]);
    expect(q.stated.layouts).toEqual(expected);
    // The first is also the question's own layout.
    expect({ tensor: q.stated.tensor, pipeline: q.stated.pipeline }).toEqual({ tensor: expected[0]?.tensor, pipeline: expected[0]?.pipeline });
  });

  it.each(['tp 8 pp 8', 'tp 8 and pp 8', '8-way tensor parallel and pp 8', 'tp 8 pp 8 (tensor parallel 8)'])('"%s" is one layout', (layout) => {
    expect(parse(`step time of ${GPT3_ON_A100} with ${layout}`).stated.layouts).toBeUndefined();
  });
});

describe('a question stating two layouts answers each and says which is faster, and by how much', () => {
  it.each([
    `what's faster for ${GPT3_ON_A100}: tp 8 pp 8 or tp 4 pp 16`,
    `compare tp 8 pp 8 vs tp 4 pp 16 for ${GPT3_ON_A100}`,
  ])('"%s": both layouts planned, the one of the shorter step named faster, the other behind by its extra step time', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    const [first, second] = estimatesOf(a);
    if (first === undefined || second === undefined) throw new Error('expected two layouts');
    expect([first.resolved.tensor, first.resolved.pipeline, second.resolved.tensor, second.resolved.pipeline]).toEqual([8, 8, 4, 16]);
    const [fast, slow] = first.stepTimeSeconds <= second.stepTimeSeconds ? [first, second] : [second, first];
    const name = (e: EstimateOk): string => `TP ${e.resolved.tensor} · PP ${e.resolved.pipeline}`;
    expect(a.headline).toContain(`${name(fast)} is faster: ${formatSeconds(fast.stepTimeSeconds)} per step`);
    expect(a.headline).toContain(`${name(slow)}, ${formatPercentChange(slow.stepTimeSeconds / fast.stepTimeSeconds - 1).slice(1)} slower: ${formatSeconds(slow.stepTimeSeconds)} per step`);
    // The answer's own figures and configuration are the faster layout's.
    expect(a.stepTimeSeconds).toBe(fast.stepTimeSeconds);
    expect(a.configuration).toMatch(new RegExp(`^${name(fast)} ·`));
    expect(a.figures.map((f) => f.label)).toEqual(['TP 8 · PP 8', 'TP 4 · PP 16']);
  });

  it('each layout is planned as that layout asked alone: on the same GPUs, at the same batch, to the same step time', () => {
    const [first, second] = estimatesOf(ask(`what's faster for ${GPT3_ON_A100}: tp 8 pp 8 or tp 4 pp 16`, { publicUrl: null }));
    expect(first?.resolved.gpus).toBe(second?.resolved.gpus);
    expect(first?.resolved.globalBatchSize).toBe(second?.resolved.globalBatchSize);
    expect(ask(`step time of ${GPT3_ON_A100} with tp 8 pp 8`).stepTimeSeconds).toBe(first?.stepTimeSeconds);
    expect(ask(`step time of ${GPT3_ON_A100} with tp 4 pp 16`).stepTimeSeconds).toBe(second?.stepTimeSeconds);
  });

  it('three layouts: the fastest named, the others after it slowest last', () => {
    const a = ask(`best config for ${GPT3_ON_A100}: tp 8 pp 8 or tp 4 pp 16 or tp 2 pp 32`, { publicUrl: null });
    const estimates = estimatesOf(a);
    expect(estimates).toHaveLength(3);
    const ranked = [...estimates].sort((x, y) => x.stepTimeSeconds - y.stepTimeSeconds).map((e) => `TP ${e.resolved.tensor} · PP ${e.resolved.pipeline}`);
    expect(a.headline).toContain(`${ranked[0]} is the fastest:`);
    const at = ranked.map((name) => a.headline.indexOf(name));
    expect(at).toEqual([...at].sort((x, y) => x - y));
  });

  it('a memory question names the layout needing less memory per GPU', () => {
    const a = ask('memory for llama3-70b on 64 h100: tp 8 pp 2 vs tp 4 pp 2', { publicUrl: null });
    const [first, second] = (a.data as EstimateJson[]).map((e) => (e.ok ? e.memory.totalBytes : Number.POSITIVE_INFINITY));
    const less = (first ?? 0) <= (second ?? 0) ? 'TP 8 · PP 2' : 'TP 4 · PP 2';
    expect(a.headline).toContain(`${less} needs less memory:`);
  });

  it('with no cluster, both are planned on the GPUs of whole replicas of each (TP 8 · PP 2 and TP 4: 16 GPUs)', () => {
    const estimates = estimatesOf(ask('step time of llama3-8b: tp 8 pp 2 or tp 4 pp 1', { publicUrl: null }));
    expect(estimates.map((e) => e.resolved.gpus)).toEqual([16, 16]);
    expect(estimates.map((e) => e.resolved.data)).toEqual([1, 4]);
  });

  it('a layout that does not divide the GPUs is said with its fix, the other still answered', () => {
    const a = ask('step time of llama3-8b on 8 h100 with tp 8 or tp 16', { publicUrl: null });
    expect(a.ok).toBe(true);
    // Nothing to be faster than: the one that runs is said to be that.
    expect(a.headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB × 8 GPUs: TP 8 · PP 1 is the only one that runs: /);
    expect(a.headline).toContain('TP 16 · PP 1: the parallel layout: 8 GPUs are not divisible by tensor × pipeline × context = 16; TP can be at most 8 on 8 GPUs');
  });

  it.each([
    ['how many nodes for gpt3 175b in 30 days with tp 8 pp 8 or tp 4 pp 16', 'the cluster a plan needs'],
    ['serve llama3-70b on 8 h100 with tp 8 or tp 4', 'serving'],
  ])('"%s": no comparison for %s, refused saying to ask one layout at a time, never the first answered alone', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.headline).toContain('ask one layout at a time');
  });
});

describe('a later layout keeps only what was said for it: sizes named by the first alone carry over only to a change of the first', () => {
  it.each([
    // Names a size the first does not (CP): a layout of its own, none of the first's sizes (no VP 5).
    ['tp 8 pp 4 vp 5 or tp 8 pp 4 cp 2', [{ tensor: 8, pipeline: 4, virtualStages: 5 }, { tensor: 8, pipeline: 4, context: 2 }]],
    ['tp 8 cp 2 or tp 4 pp 2', [{ tensor: 8, context: 2 }, { tensor: 4, pipeline: 2 }]],
    // Names only sizes the first names: a change of those, the first's others kept.
    ['tp 4 pp 4 or pp 8', [{ tensor: 4, pipeline: 4 }, { tensor: 4, pipeline: 8 }]],
    ['tp 8 pp 4 vp 5 or pp 8', [{ tensor: 8, pipeline: 4, virtualStages: 5 }, { tensor: 8, pipeline: 8, virtualStages: 5 }]],
  ] as [string, Layout[]][])('"%s" reads layouts %j', (layouts, expected) => {
    expect(parse(`step time of llama3-70b on 128 h100 with ${layouts}`).stated.layouts).toEqual(expected);
  });

  it('TP 8 · PP 4 · CP 2 beside TP 8 · PP 4 · VP 5 is planned as TP 8 · PP 4 · CP 2 asked alone: no VP, the same step time and memory', () => {
    const a = ask('llama3-70b on 128 h100: tp 8 pp 4 vp 5 or tp 8 pp 4 cp 2', { publicUrl: null });
    const [withVp, withCp] = estimatesOf(a);
    const alone = ask('llama3-70b on 128 h100: tp 8 pp 4 cp 2', { publicUrl: null }).data as EstimateJson;
    if (!alone.ok || withVp === undefined || withCp === undefined) throw new Error('expected every layout to run');
    expect(withVp.resolved.virtualStages).toBe(5);
    expect(withCp.resolved.virtualStages).toBe(alone.resolved.virtualStages);
    expect(withCp.resolved.globalBatchSize).toBe(alone.resolved.globalBatchSize);
    expect(withCp.stepTimeSeconds).toBe(alone.stepTimeSeconds);
    expect(withCp.memory.totalBytes).toBe(alone.memory.totalBytes);
    expect(a.figures.map((f) => f.label)).not.toContain('TP 8 · PP 4 · CP 2 · VP 5');
  });
});

describe('a bare number after "or" changes only the size named just before it', () => {
  it.each([
    ['tp 4 pp 4 or 8', [{ tensor: 4, pipeline: 4 }, { tensor: 4, pipeline: 8 }]],
    ['pp 4 tp 4 or 8', [{ tensor: 4, pipeline: 4 }, { tensor: 8, pipeline: 4 }]],
    ['tp 4 pp 4 vs 16', [{ tensor: 4, pipeline: 4 }, { tensor: 4, pipeline: 16 }]],
  ] as [string, Layout[]][])('"%s" reads layouts %j', (layouts, expected) => {
    expect(parse(`step time of ${GPT3_ON_A100} with ${layouts}`).stated.layouts).toEqual(expected);
  });

  it('"tp 4 pp 4 or 8" plans the second as "tp 4 pp 8" asked alone', () => {
    const data = ask(`step time of ${GPT3_ON_A100} with tp 4 pp 4 or 8`, { publicUrl: null }).data as EstimateJson[];
    const second = data[1];
    const alone = ask(`step time of ${GPT3_ON_A100} with tp 4 pp 8`, { publicUrl: null }).data as EstimateJson;
    if (second === undefined || !second.ok || !alone.ok) throw new Error('expected TP 4 · PP 8 to run');
    expect([second.resolved.tensor, second.resolved.pipeline]).toEqual([alone.resolved.tensor, alone.resolved.pipeline]);
    expect(second.stepTimeSeconds).toBe(alone.stepTimeSeconds);
  });
});

describe('a layout that does not divide the GPUs is reported and leaves the others\' batch alone', () => {
  const question = `step time of ${GPT3_ON_A100}: tp 8 pp 7 or tp 8 pp 8`;

  it('TP 8 · PP 8 beside an indivisible TP 8 · PP 7 is planned as asked alone: the same batch and step time', () => {
    const a = ask(question, { publicUrl: null });
    const [indivisible, runs] = a.data as EstimateJson[];
    const alone = ask(`step time of ${GPT3_ON_A100} with tp 8 pp 8`, { publicUrl: null }).data as EstimateJson;
    if (runs === undefined || !runs.ok || !alone.ok) throw new Error('expected TP 8 · PP 8 to run');
    expect(indivisible?.ok).toBe(false);
    expect(runs.resolved.globalBatchSize).toBe(alone.resolved.globalBatchSize);
    expect(runs.stepTimeSeconds).toBe(alone.stepTimeSeconds);
    // The batch the headline's note says is the one planned, and its DP divides it.
    expect(runs.resolved.globalBatchSize % runs.resolved.data).toBe(0);
    expect(a.headline).toMatch(/; TP 8 · PP 7: the parallel layout: [\d,]+ GPUs are not divisible by /);
  });

  it('the layout its remedy suggests divides the GPUs and splits GPT-3\'s layers: asked, it runs', () => {
    const a = ask(question, { publicUrl: null });
    const suggested = /TP 8 · PP 7: [^;]*; give a TP × PP × CP that divides the 1,024 GPUs \(e\.g\. "([^"]+)"\)/.exec(a.headline)?.[1];
    expect(suggested).toBeDefined();
    const pipeline = Number(/pp (\d+)/.exec(suggested ?? '')?.[1]);
    expect(pipeline).toBeLessThanOrEqual(modelById('gpt3-175b')!.shape.layers);
    expect(ask(`step time of ${GPT3_ON_A100} with ${suggested}`, { publicUrl: null }).ok).toBe(true);
  });
});
