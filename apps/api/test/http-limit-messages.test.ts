import { describe, expect, it } from 'vitest';
import { createApi, HTTP_MAX_CANDIDATE_BUDGET, HTTP_MAX_EVENT_BUDGET, HTTP_MAX_SCALE_SIZES } from '../src/index.ts';

const app = createApi();
const post = async (path: string, body: unknown) => {
  const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as { issues?: { path: string; message: string }[]; max?: number } };
};
const TRAINING = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 } };

/** /openapi.json's bound for a property of a POST's request body. */
async function published(path: string, property: string): Promise<{ maximum?: number; maxItems?: number }> {
  const doc = await (await app.request('/openapi.json')).json() as {
    paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, { maximum?: number; maxItems?: number }> } } } } } }>;
  };
  return doc.paths[path]!.post.requestBody.content['application/json'].schema.properties[property]!;
}

describe('a 400 at a property the API limits quotes the limit /openapi.json publishes (and the 422 enforces), not the library\'s', () => {
  it.each([
    ['/v1/scale', 'nodes', { ...TRAINING, nodes: 32 }, `expected an array of 1 to ${HTTP_MAX_SCALE_SIZES} items, got 32 (this API's limit)`],
    ['/v1/collective', 'eventBudget', { op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, emulate: true, eventBudget: 1e12 }, 'expected an integer ≤ 2,000,000, got 1,000,000,000,000 (this API\'s limit)'],
    ['/v1/search', 'candidateBudget', { ...TRAINING, cluster: { gpu: 'a100-80gb', nodes: 2 }, candidateBudget: 'x' }, 'expected an integer from 1 to 5,000, got "x" (this API\'s limit)'],
  ])('%s %s', async (path, property, body, message) => {
    const r = await post(path, body);
    expect(r.status).toBe(400);
    expect(r.body.issues).toEqual([{ path: property, message }]);
    const bound = await published(path, property);
    expect(message).toContain((bound.maximum ?? bound.maxItems)!.toLocaleString('en-US'));
  });

  it('the limits quoted are the ones the 422s enforce: one past each is refused naming it', async () => {
    expect((await post('/v1/scale', { ...TRAINING, nodes: Array.from({ length: HTTP_MAX_SCALE_SIZES + 1 }, (_, i) => i + 1) })).body.max).toBe(HTTP_MAX_SCALE_SIZES);
    expect((await post('/v1/collective', { op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, emulate: true, eventBudget: HTTP_MAX_EVENT_BUDGET + 1 })).body.max).toBe(HTTP_MAX_EVENT_BUDGET);
    expect((await post('/v1/search', { ...TRAINING, cluster: { gpu: 'a100-80gb', nodes: 2 }, candidateBudget: HTTP_MAX_CANDIDATE_BUDGET + 1 })).body.max).toBe(HTTP_MAX_CANDIDATE_BUDGET);
  });

  it('an issue elsewhere keeps the library\'s words', async () => {
    const r = await post('/v1/search', { ...TRAINING, cluster: { gpu: 'a100-80gb', nodes: 2 }, top: 0 });
    expect(r.status).toBe(400);
    expect(r.body.issues![0]!.message).not.toContain("this API's limit");
  });
});
