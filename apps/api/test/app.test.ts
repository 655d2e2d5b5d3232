import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';

const app = createApi();
const post = (body: string, type = 'application/json') =>
  app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': type } });
const scenario = {
  model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 },
  training: { globalBatchSize: 1536, microBatchSize: 1 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
};

describe('POST /v1/estimate', () => {
  it('answers a contract scenario with an estimate', async () => {
    const res = await post(JSON.stringify(scenario));
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; stepTimeSeconds: number };
    expect(body.ok).toBe(true);
    expect(body.stepTimeSeconds).toBeGreaterThan(0);
  });
  it('answers an array with an array in the same order', async () => {
    const res = await post(JSON.stringify([scenario, { ...scenario, parallelism: { tensor: 7 } }]));
    const body = await res.json() as { ok: boolean }[];
    expect(body.map((b) => b.ok)).toEqual([true, false]);
  });
  it('an infeasible scenario is a 200 answer with ok: false', async () => {
    const res = await post(JSON.stringify({ ...scenario, training: { globalBatchSize: 1024 }, parallelism: { tensor: 1, pipeline: 1 } }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { reason: string }).reason).toBe('out-of-memory');
  });
  it('bad input is a 400 problem+json naming each field', async () => {
    const res = await post(JSON.stringify({ ...scenario, parallelism: { tensor: 0 } }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = await res.json() as { issues: { path: string }[] };
    expect(body.issues.map((i) => i.path)).toContain('parallelism.tensor');
  });
  it.each([
    ['{not json', 'application/json', 400],
    ['{}', 'text/plain', 415],
    ['x'.repeat(70_000), 'application/json', 413],
  ])('%#: refuses %s with %s → %i', async (body, type, status) => {
    expect((await post(body, type)).status).toBe(status);
  });
  it('unknown routes are 404', async () => {
    expect((await app.request('/v2/nothing')).status).toBe(404);
  });
});
