import { describe, expect, it } from 'vitest';
import { createApi, POST_OPERATIONS } from '../src/index.ts';

// QA: the spec did not say when reason "invalid" is a 200 answer and when a 400 problem. Each POST operation's
// description now says it, and each operation is held to it: its example with an unknown GPU id (the README's
// "a100-81gb") is a 200, ok false, "invalid", naming the field; its example with an unknown field is a 400 problem.

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** The example with its GPU id (cluster.gpu, or a collective's top-level gpu) replaced by one no catalogue has. */
function withUnknownGpu(example: unknown): { body: unknown; field: string } {
  const ex = example as Record<string, unknown> & { cluster?: Record<string, unknown> };
  return ex.cluster !== undefined
    ? { body: { ...ex, cluster: { ...ex.cluster, gpu: 'a100-81gb' } }, field: 'cluster.gpu' }
    : { body: { ...ex, gpu: 'a100-81gb' }, field: 'gpu' };
}

describe('reason "invalid": a 200 for an unknown preset id, a 400 for a body that breaks the schema', () => {
  it.each(POST_OPERATIONS.map((op) => [op.path, op] as const))('%s answers both ways, as its description says', async (path, op) => {
    const unknown = withUnknownGpu(op.example);
    const answered = await post(path, unknown.body);
    expect(answered.status).toBe(200);
    const answer = await answered.json() as { ok: boolean; reason: string; issues: { path: string }[] };
    expect(answer).toMatchObject({ ok: false, reason: 'invalid' });
    expect(answer.issues.map((i) => i.path)).toEqual([unknown.field]);

    const refused = await post(path, { ...(op.example as object), notAField: 1 });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ ok: false, reason: 'invalid', issues: [{ path: 'notAField' }] });

    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { description: string } }> };
    expect(doc.paths[path]!.post.description).toMatch(/naming an id no preset catalogue has .* is a 200 answer, ok: false with reason "invalid".* is a 400 problem/);
  });
});

describe('the planner\'s own refusals: a 200, reason "invalid", each issue with its rule, as the description says', () => {
  const h100 = (training: object, parallelism: object) =>
    ({ model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 2 }, training: { globalBatchSize: 64, ...training }, parallelism });
  it.each([
    ['precision-unsupported', { model: 'gpt3-1.3b', cluster: { gpu: 'v100-32gb', nodes: 1 }, training: { globalBatchSize: 64, precision: 'bf16' } }],
    ['zero-with-pipeline', h100({}, { pipeline: 2, zeroStage: 2 })],
    ['fp8-params-needs-fp8', h100({ fp8Params: true }, {})],
    ['fp8-params-needs-distributed-optimizer', h100({ precision: 'fp8', fp8Params: true }, {})],
    ['tp-overlap-needs-sequence-parallel', h100({}, { tensor: 2, overlapTensorParallelComm: true })],
    ['recompute-layers-needs-full', h100({}, { recompute: 'selective', recomputeLayers: 2 })],
  ])('%s', async (rule, scenario) => {
    const res = await post('/v1/estimate', scenario);
    expect(res.status).toBe(200);
    const answer = await res.json() as { ok: boolean; reason: string; issues: { rule?: string }[] };
    expect(answer).toMatchObject({ ok: false, reason: 'invalid' });
    expect(answer.issues.map((i) => i.rule)).toContain(rule);
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { description: string } }> };
    expect(doc.paths['/v1/estimate']!.post.description).toMatch(new RegExp(`settings the planner refuses.*\\b${rule}\\b`));
  });
});

describe('cluster.gpus past 1,000,000 of the machine\'s nodes is out of range: a 400, as cluster.nodes past it is', () => {
  // QA: the estimate planned 9,000,000 GPUs (1,125,000 nodes of 8, past its own 1,000,000-node cap); the search refused
  // 10,000,000 as a 200, where its description says an out-of-range value is a 400.
  it.each([
    ['/v1/estimate', 9_000_000, 8, '8,000,000 GPUs (1,000,000 nodes of 8), got 9,000,000'],
    ['/v1/memory', 9_000_000, 8, '8,000,000 GPUs (1,000,000 nodes of 8), got 9,000,000'],
    ['/v1/search', 10_000_000, 8, '8,000,000 GPUs (1,000,000 nodes of 8), got 10,000,000'],
    ['/v1/estimate', 2_000_000, 1, '1,000,000 GPUs (1,000,000 nodes of 1), got 2,000,000'],
    ['/v1/search', 2_000_000, 1, '1,000,000 GPUs (1,000,000 nodes of 1), got 2,000,000'],
  ])('%s: %i GPUs on nodes of %i', async (path, gpus, gpusPerNode, most) => {
    const cluster = { gpu: 'a100-80gb', gpus, ...(gpusPerNode !== 8 && { gpusPerNode }) };
    const res = await post(path, { model: 'gpt3-175b', cluster, training: { globalBatchSize: 1536 } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, reason: 'invalid', issues: [{ path: 'cluster.gpus', message: `expected at most ${most}` }] });
  });

  it('as many as 1,000,000 nodes hold is in range', async () => {
    const res = await post('/v1/estimate', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', gpus: 8_000_000 }, training: { globalBatchSize: 1536 } });
    expect(res.status).toBe(200);
    // Its numbers grouped as elsewhere (QA: "1×9000000 = 9,000,000").
    expect(await res.json()).toMatchObject({ ok: false, reason: 'indivisible', message: expect.stringContaining('micro-batch × data-parallel = 1×8,000,000 = 8,000,000') });
  });
});
