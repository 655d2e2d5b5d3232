import { CONTRACT_EXAMPLE, validateScenario } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi, HTTP_MAX_CANDIDATE_BUDGET, HTTP_MAX_EVENT_BUDGET, HTTP_MAX_SCALE_SIZES, POST_OPERATIONS } from '../src/index.ts';

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('every POST operation', () => {
  it.each(POST_OPERATIONS.map((op) => [op.path, op] as const))('%s: the example /openapi.json shows is valid and answers 200', async (path, op) => {
    expect(op.validate(op.example).ok).toBe(true);
    expect((await post(path, op.example)).status).toBe(200);
  });
  it.each(POST_OPERATIONS.map((op) => [op.path]))('%s: an empty object is a 400 problem with field paths', async (path) => {
    const res = await post(path, {});
    expect(res.status).toBe(400);
    const body = await res.json() as { issues: { path: string }[] };
    expect(body.issues.length).toBeGreaterThan(0);
  });
});

describe('/openapi.json states the API\'s work limits, past which it answers 422 (before: the library\'s, 1e8 and 64 items)', () => {
  it.each([
    ['/v1/search', 'candidateBudget', 'maximum', HTTP_MAX_CANDIDATE_BUDGET],
    ['/v1/collective', 'eventBudget', 'maximum', HTTP_MAX_EVENT_BUDGET],
    ['/v1/scale', 'nodes', 'maxItems', HTTP_MAX_SCALE_SIZES],
  ] as const)('%s: %s has %s %i, in JSON and MessagePack', async (path, property, keyword, limit) => {
    type Media = { schema: { properties: Record<string, Record<string, unknown>> } };
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { requestBody: { content: Record<string, Media> } } }> };
    for (const media of Object.values(doc.paths[path]!.post.requestBody.content)) expect(media.schema.properties[property]![keyword]).toBe(limit);
  });
});

describe('POST /v1/search', () => {
  it("GPT-3 175B on 128 DGX A100: the best plan is a contract scenario whose estimate matches /v1/estimate's", async () => {
    const body = await (await post('/v1/search', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 3 })).json() as {
      ok: true; candidatesEvaluated: number; best: { scenario: unknown; estimate: { stepTimeSeconds: number } }; top: unknown[];
    };
    expect(body.ok).toBe(true);
    expect(body.top.length).toBeLessThanOrEqual(3);
    expect(validateScenario(body.best.scenario).ok).toBe(true);
    const estimate = await (await post('/v1/estimate', body.best.scenario)).json() as { stepTimeSeconds: number };
    expect(estimate.stepTimeSeconds).toBeCloseTo(body.best.estimate.stepTimeSeconds, 9);
  });
  it(`a candidateBudget over ${HTTP_MAX_CANDIDATE_BUDGET} is refused with 422 naming the limit`, async () => {
    const res = await post('/v1/search', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, candidateBudget: HTTP_MAX_CANDIDATE_BUDGET + 1 });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ limit: 'candidateBudget', max: HTTP_MAX_CANDIDATE_BUDGET, requested: HTTP_MAX_CANDIDATE_BUDGET + 1 });
  });
  it('a model that fits nowhere on the cluster is a 200 with ok: false and the reason', async () => {
    // fp16: the V100 has no BF16 tensor cores, and a bf16 request is refused as invalid before any search.
    const res = await post('/v1/search', { model: 'gpt3-175b', cluster: { gpu: 'v100-32gb', nodes: 1 }, training: { globalBatchSize: 8, precision: 'fp16' } });
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; reason: string; message: string };
    expect(body).toMatchObject({ ok: false, reason: 'no-feasible-configuration' });
    expect(body.message.length).toBeGreaterThan(0);
  });
});

describe('POST /v1/scale, /v1/nodes, /v1/inference', () => {
  it(`more than ${HTTP_MAX_SCALE_SIZES} sizes in one /v1/scale is refused with 422 naming nodes`, async () => {
    const nodes = Array.from({ length: HTTP_MAX_SCALE_SIZES + 1 }, (_, i) => 8 * (i + 1));
    const res = await post('/v1/scale', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, nodes });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ limit: 'nodes', max: HTTP_MAX_SCALE_SIZES });
  });
  it('days on a given number of nodes: 300 B tokens at the estimate\'s tokens/s', async () => {
    const res = await post('/v1/nodes', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, nodes: 128 });
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; days: number };
    expect(body.ok).toBe(true);
    expect(body.days).toBeGreaterThan(0);
  });
  it('frontier: the time–cost curve, the cheapest size as the answer, each size within the API\'s cap on a search', async () => {
    const res = await post('/v1/nodes', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, frontier: true, pricePerGpuHour: 2 });
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; mode: string; nodes: number; gpuHours: number; frontier: { nodes: number; gpuHours: number; cost: number }[] };
    expect(body).toMatchObject({ ok: true, mode: 'cost-time-frontier' });
    expect(body.gpuHours).toBe(Math.min(...body.frontier.map((p) => p.gpuHours)));
    for (const p of body.frontier) expect(p.cost).toBeCloseTo(2 * p.gpuHours, 6);
  });
  it('inference answers per tensor/pipeline shape', async () => {
    const body = await (await post('/v1/inference', { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512 })).json() as { ok: boolean };
    expect(body.ok).toBe(true);
  });
  it('the contract scenario is not a search request: 400, not 500', async () => {
    expect((await post('/v1/search', CONTRACT_EXAMPLE)).status).toBe(400);
  });
});
