import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';

// QA asked that the estimate request say what omitted parallelism fields take. The published scenario schema states it
// field by field as JSON Schema defaults; this holds those to the README's reading of the contract ("an omitted degree
// is 1, recompute none, sequence parallelism and the distributed optimizer off") and to what an answer's `resolved`
// says was used for a scenario that omits parallelism.

const README_DEFAULTS = {
  tensor: 1, pipeline: 1, context: 1, virtualStages: 1, recompute: 'none', sequenceParallel: false, distributedOptimizer: false,
};

const app = createApi();

describe('POST /v1/estimate: omitted parallelism fields', () => {
  it('take the defaults the published schema states, which are the README\'s and what `resolved` reports', async () => {
    type Schema = { oneOf: { properties: { parallelism: { description?: string; properties: Record<string, { default?: unknown }> } } }[] };
    type Post = { description?: string; requestBody: { content: Record<string, { schema: Schema }> } };
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: Post }> };
    const scenario = doc.paths['/v1/estimate']!.post.requestBody.content['application/json']!.schema.oneOf[0]!;
    const fields = scenario.properties.parallelism.properties;
    const published = Object.fromEntries(Object.keys(README_DEFAULTS).map((name) => [name, fields[name]?.default]));
    expect(published).toEqual(README_DEFAULTS);
    // And in words, where a reader looks first (QA: the contract example's tensor 8, pipeline 8, recompute "full" were
    // taken for the defaults): the parallelism object's description and the operation's each name every one.
    for (const text of [scenario.properties.parallelism.description, doc.paths['/v1/estimate']!.post.description]) {
      for (const [name, value] of Object.entries(README_DEFAULTS)) expect(text).toContain(`${name} ${JSON.stringify(value)}`);
      expect(text).toMatch(/not the values? (of the example|the contract's example shows)/);
    }

    // GPT-3 1.3B on one node of 8 A100s, 64 sequences: runs with every parallelism field omitted (data-parallel 8).
    const res = await app.request('/v1/estimate', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 64 } }),
    });
    const answer = await res.json() as { ok: boolean; resolved: Record<string, unknown> };
    expect(answer.ok).toBe(true);
    expect(answer.resolved).toMatchObject(README_DEFAULTS);
  });
});
