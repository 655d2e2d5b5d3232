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
