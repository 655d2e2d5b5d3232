import { describe, expect, it } from 'vitest';
import { createApi, POST_OPERATIONS, type RunInBackground } from '../src/index.ts';

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const SCENARIO = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8 } };
const SEARCH = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 64 }, top: 1 };

/** A runInBackground that records what it is handed and runs it here, as the Node worker runs it (by path). */
function recording(): { calls: { path: string; value: unknown }[]; run: RunInBackground } {
  const calls: { path: string; value: unknown }[] = [];
  return {
    calls,
    run: async (path, value) => {
      calls.push({ path, value });
      return POST_OPERATIONS.find((op) => op.path === path)!.run(value);
    },
  };
}

describe('ApiOptions.runInBackground: where the slow operations run', () => {
  it('hands it the slow operations (each by path, with the validated value) and keeps the µs estimates here', async () => {
    const background = recording();
    const app = createApi({ runInBackground: background.run });
    const estimate = await app.request('/v1/estimate', json(SCENARIO));
    expect(estimate.status).toBe(200);
    expect(background.calls).toEqual([]);
    const search = await app.request('/v1/search', json(SEARCH));
    expect(search.status).toBe(200);
    expect(background.calls.map((c) => c.path)).toEqual(['/v1/search']);
    // The same answer as without it.
    expect(await search.json()).toEqual(await (await createApi().request('/v1/search', json(SEARCH))).json());
  });

  it('marks exactly the operations that may take seconds: every request of some, the emulating requests of the estimates', () => {
    expect(POST_OPERATIONS.filter((op) => op.slow === true).map((op) => op.path).sort())
      .toEqual(['/v1/collective', '/v1/inference', '/v1/nodes', '/v1/scale', '/v1/search']);
    expect(POST_OPERATIONS.filter((op) => typeof op.slow === 'function').map((op) => op.path).sort())
      .toEqual(['/v1/estimate', '/v1/memory']);
  });

  // Security QA: one 213-byte emulated estimate (2,048 DGX A100 nodes) held Node's only serving thread 2,954 ms.
  it.each(['/v1/estimate', '/v1/memory'])('%s: hands over a request that emulates (one scenario or any of an array\'s), keeps the closed form here', async (path) => {
    const background = recording();
    const app = createApi({ runInBackground: background.run });
    const emulated = { ...SCENARIO, cluster: { ...SCENARIO.cluster, nodes: 8, communicationModel: 'emulated' } };
    expect((await app.request(path, json(SCENARIO))).status).toBe(200);
    expect((await app.request(path, json([SCENARIO, SCENARIO]))).status).toBe(200);
    expect(background.calls).toEqual([]);
    const one = await app.request(path, json(emulated));
    const mixed = await app.request(path, json([SCENARIO, emulated]));
    expect([one.status, mixed.status]).toEqual([200, 200]);
    expect(background.calls.map((c) => c.path)).toEqual([path, path]);
    // The same answer as without it.
    expect(await mixed.json()).toEqual(await (await createApi().request(path, json([SCENARIO, emulated]))).json());
  });

  it('answers busy with a 503 problem and Retry-After, and /openapi.json lists the 503 for the operations with slow requests only', async () => {
    const app = createApi({ runInBackground: async () => ({ busy: { retryAfterSeconds: 7 } }) });
    const res = await app.request('/v1/search', json(SEARCH));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable', retryAfterSeconds: 7 });
    // Invalid input is still a 400, before anything is queued.
    expect((await app.request('/v1/search', json({ ...SEARCH, top: -1 }))).status).toBe(400);
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    expect(Object.keys(doc.paths['/v1/search']!.post!.responses)).toContain('503');
    // An estimate that emulates may wait on the same queue; a GET never does.
    expect(Object.keys(doc.paths['/v1/estimate']!.post!.responses)).toContain('503');
    expect(Object.keys((doc.paths['/v1/presets/gpus'] as { get: { responses: Record<string, unknown> } }).get.responses)).not.toContain('503');
  });

  it('a background that is stopping is a 503 that says so, not a 500 to report', async () => {
    const app = createApi({ runInBackground: async () => ({ busy: { retryAfterSeconds: 5, stopping: true } }) });
    const res = await app.request('/v1/search', json(SEARCH));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 503, detail: 'the server is stopping; ask again in 5 s' });
  });

  it('a background that fails is a 500 with an id, logged, as any error of ours', async () => {
    const logged: unknown[] = [];
    const app = createApi({ runInBackground: async () => { throw new Error('the operation worker exited with code 3'); }, logError: (e) => logged.push(e) });
    const res = await app.request('/v1/nodes', json({ model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 64 }, tokens: 1e9, days: 30 }));
    expect(res.status).toBe(500);
    expect(logged).toHaveLength(1);
  });
});
