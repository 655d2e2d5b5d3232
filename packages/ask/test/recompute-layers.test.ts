import { describe, expect, it } from 'vitest';
import { runEstimate, type ScenarioInput, type EstimateJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/**
 * "Recompute 4 layers" is full recompute of 4 layers a stage (parallelism.recomputeLayers, lexicon/recompute-layers.ts),
 * never the model's layer count ("a layer count is not taken"), nor the default selective recompute.
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

describe('layers recomputed a stage are planned on a stated layout', () => {
  it.each(['recompute 4 layers', 'full recompute of 4 layers per stage', '--recompute-num-layers 4', 'with 4 layers recomputed'])('"%s": full recompute of 4 layers', (phrase) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.parameters).toMatchObject({ recompute: 'full', recomputeLayers: 4, tensor: 8, pipeline: 4 });
    expect(q.notRead ?? []).toEqual([]);
  });

  it("the answer is the API's with recompute full of 4 layers on the bot's scenario, and says it", () => {
    const a = ask(`${BASE} recompute 4 layers`, { publicUrl: null });
    const own = ask(BASE, { publicUrl: null }).scenario as ScenarioInput;
    const api = runEstimate({ ...own, parallelism: { ...own.parallelism, recompute: 'full', recomputeLayers: 4 } }) as EstimateJson;
    expect(api.ok && a.stepTimeSeconds).toBe(api.ok && api.stepTimeSeconds);
    expect(a.configuration).toContain('full recompute of 4 layers/stage');
  });

  it('beside selective recompute asked: the selective planned, the count said', () => {
    const q = parse(`${BASE} selective recompute, recompute 4 layers`);
    expect(q.parameters.recompute).toBe('selective');
    expect(q.parameters.recomputeLayers).toBeUndefined();
    expect(q.notRead?.[0]).toMatchObject({ phrase: '"recompute 4 layers"', why: expect.stringMatching(/^contradicts the selective recompute asked/) });
  });

  it('a search picks the count itself: said not read', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 64 H100 nodes recompute 4 layers');
    expect(q.stated.recomputeLayers).toBeUndefined();
    expect(q.notRead?.[0]).toMatchObject({ phrase: '"recompute 4 layers"', why: expect.stringMatching(/^the search picks how many layers to recompute itself/) });
  });
});

describe('full recompute named beside a count is full recompute, on a search too', () => {
  const SEARCHED = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes';
  it.each(['with full recompute of 4 layers per stage', 'with full recompute of 3 layers/stage'])('"%s" on a search: full recompute planned, as "with full recompute" alone; the count said not searched', (phrase) => {
    const q = parse(`${SEARCHED} ${phrase}`);
    expect(q.parameters.recompute).toBe('full');
    expect(q.notRead).toEqual([{ phrase: `"${phrase}"`, why: expect.stringMatching(/^the search picks how many layers to recompute itself/) }]);
    // QA: 59.7 days before the count was read, then "no recompute".
    expect(ask(`${SEARCHED} ${phrase}`, { publicUrl: null }).headline).toBe(ask(`${SEARCHED} with full recompute`, { publicUrl: null }).headline);
  });

  it('"full recompute of 3 layers/stage" on a stated layout: 3 layers a stage under full', () => {
    expect(parse(`${BASE} with full recompute of 3 layers/stage`).parameters).toMatchObject({ recompute: 'full', recomputeLayers: 3 });
  });
});

describe("Megatron's --recompute-method", () => {
  it('uniform: every layer recomputed (its num-layers is each unit\'s size), never 1 layer a stage', () => {
    const q = parse(`${BASE}, --recompute-granularity full --recompute-method uniform --recompute-num-layers 1`);
    expect(q.parameters.recompute).toBe('full');
    expect(q.parameters.recomputeLayers).toBeUndefined();
    expect(parse(`${BASE}, --recompute-method uniform --recompute-num-layers 2`).parameters).toMatchObject({ recompute: 'full' });
  });

  it('block: N layers a stage', () => {
    expect(parse(`${BASE}, --recompute-granularity full --recompute-method block --recompute-num-layers 4`).parameters).toMatchObject({ recompute: 'full', recomputeLayers: 4 });
  });
});
