import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '@trainplan/api';
import { GPU_IDS, MODEL_IDS } from '@trainplan/presets';
import {
  allToAllFloorSeconds, busBandwidthLimit, calibrateRequestBudget, caseCounter, checkAnswer, exchange, gbpsToBytesPerSecond, validScenario,
  type CollectiveAnswerRow,
} from '../src/index.ts';

/**
 * Issue 8, "physics invariants": properties over random VALID requests to every POST endpoint, read
 * from the HTTP answers (in process). Each request is sent twice: answers are pure functions of the
 * request, so the two bodies and ETags must be identical.
 */
const counter = caseCounter('http-valid');
const app = createApi();
// The time bound of checkAnswer: a ratio to the heaviest valid request (the search example), timed here.
const searchExample = ((await (await app.request('/openapi.json')).json()) as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { example?: unknown }> } } }> })
  .paths['/v1/search']?.post?.requestBody?.content['application/json']?.example;
if (searchExample === undefined) throw new Error('the OpenAPI document has no /v1/search example to calibrate the time bound on');
await calibrateRequestBudget(() => exchange(app, '/v1/search', { method: 'POST', body: JSON.stringify(searchExample), headers: { 'content-type': 'application/json' } }));

async function postTwice(path: string, body: unknown): Promise<unknown> {
  counter.add();
  const text = JSON.stringify(body);
  const init = () => ({ method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  const first = await exchange(app, path, init());
  const answer = checkAnswer(`${path} ${text}`, first);
  expect(first.status, `${path} ${text}: ${first.text.slice(0, 300)}`).toBe(200);
  const second = await exchange(app, path, init());
  expect(second.text, `${path}: same request, same answer`).toBe(first.text);
  expect(second.headers.get('etag'), path).toBe(first.headers.get('etag'));
  checkPhysics(path, answer);
  return answer;
}

const MEMORY_TERMS = ['weightsBytes', 'gradientsBytes', 'optimizerBytes', 'activationsBytes', 'otherBytes'] as const;

/**
 * Wherever an answer carries them: 0 < MFU ≤ 1 and MFU ≤ HFU ≤ 1 (HFU counts recomputed FLOPs too,
 * so it is never below MFU); memory terms (weights, gradients, optimizer, activations, other) sum to
 * the total, per GPU and per stage.
 */
function checkPhysics(what: string, value: unknown, path = ''): number {
  if (value === null || typeof value !== 'object') return 0;
  let checked = 0;
  const o = value as Record<string, unknown>;
  if (typeof o.mfu === 'number') {
    expect(o.mfu, `${what} ${path}.mfu`).toBeGreaterThan(0);
    expect(o.mfu, `${what} ${path}.mfu`).toBeLessThanOrEqual(1);
    if (typeof o.hfu === 'number') {
      expect(o.hfu, `${what} ${path}.hfu`).toBeGreaterThanOrEqual(o.mfu * (1 - 1e-12));
      expect(o.hfu, `${what} ${path}.hfu`).toBeLessThanOrEqual(1);
    }
    checked += 1;
  }
  if (typeof o.totalBytes === 'number' && MEMORY_TERMS.every((k) => typeof o[k] === 'number')) {
    const sum = MEMORY_TERMS.reduce((s, k) => s + (o[k] as number), 0);
    expect(Math.abs(sum - o.totalBytes), `${what} ${path}: memory terms sum to the total`).toBeLessThanOrEqual(o.totalBytes * 1e-9);
    checked += 1;
  }
  for (const [k, v] of Object.entries(o)) checked += checkPhysics(what, v, `${path}.${k}`);
  return checked;
}

const pow2 = (min: number, max: number) => fc.integer({ min: Math.log2(min), max: Math.log2(max) }).map((e) => 2 ** e);
// Narrows a search so that one costs milliseconds (the API's own cap, 5,000 full estimates, is ~200 ms).
const constraints = fc.record({
  maxTensor: pow2(1, 8), maxPipeline: pow2(1, 16), maxContext: fc.constant(1), maxVirtualStages: pow2(1, 2),
  microBatchSizes: fc.constantFrom([1], [1, 2]), recompute: fc.constantFrom(['full'], ['selective', 'full']),
});
const machine = fc.record({ model: fc.constantFrom(...MODEL_IDS), gpu: fc.constantFrom(...GPU_IDS) });

describe('random valid requests: deterministic, finite and physical answers', () => {
  it('estimate: MFU ≤ HFU ≤ 1 and memory terms sum to the total', async () => {
    await fc.assert(fc.asyncProperty(validScenario, async (s) => { await postTwice('/v1/estimate', s); }), { numRuns: 150 });
  });

  it('memory: every stage\'s terms sum to its total, and the answer\'s memory is the most loaded stage', async () => {
    let fits = 0;
    await fc.assert(fc.asyncProperty(validScenario, async (s) => {
      const answer = await postTwice('/v1/memory', s) as { ok: boolean; fits?: boolean; memory?: { totalBytes: number }; stages?: { totalBytes: number }[] };
      if (!answer.ok || !answer.memory || !answer.stages) return;
      if (answer.fits) fits += 1;
      expect(answer.stages.length).toBeGreaterThan(0);
      expect(answer.memory.totalBytes).toBeCloseTo(Math.max(...answer.stages.map((st) => st.totalBytes)), -3);
    }), { numRuns: 150 });
    expect(fits).toBeGreaterThan(5);
  });

  it('collective: busbw never above the bandwidth a ring could reach on the fabric; all-to-all above its floor', async () => {
    const request = fc.record({
      op: fc.constantFrom('all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce', 'all-to-all', 'send-recv'),
      gpu: fc.constantFrom(...GPU_IDS),
      nodes: fc.oneof(pow2(1, 256), fc.integer({ min: 1, max: 100 })),
      algorithm: fc.constantFrom('auto', 'auto', 'auto', 'ring', 'tree', 'nvls', 'pat', 'hierarchical'),
      sizes: fc.array(fc.integer({ min: 1, max: 2 ** 34 }), { minLength: 1, maxLength: 8 }),
    });
    let rows = 0;
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const answer = await postTwice('/v1/collective', r) as { ok: boolean; rows?: { bytes: number; seconds: number; busbwGBps: number; algorithm: string }[] } & Omit<CollectiveAnswerRow, 'bytes' | 'seconds' | 'busbwGBps' | 'algorithm'>;
      if (!answer.ok) return;
      for (const row of answer.rows ?? []) {
        rows += 1;
        const full: CollectiveAnswerRow = { ...answer, ...row };
        const limit = busBandwidthLimit(full);
        const what = `${r.op} ${answer.ranks} ranks on ${answer.gpu}, ${row.bytes} B ${row.algorithm}`;
        if (limit !== undefined) expect(gbpsToBytesPerSecond(row.busbwGBps), what).toBeLessThanOrEqual(limit * (1 + 1e-9));
        else expect(row.seconds, what).toBeGreaterThanOrEqual(allToAllFloorSeconds(full) * (1 - 1e-9));
      }
    }), { numRuns: 250 });
    expect(rows).toBeGreaterThan(300);
  });

  it('collective with emulation on small machines: the emulated rows are finite and deterministic', async () => {
    const request = fc.record({
      op: fc.constantFrom('all-reduce', 'all-gather', 'reduce-scatter', 'all-to-all'),
      gpu: fc.constantFrom('a100-80gb', 'h100-sxm'),
      nodes: fc.integer({ min: 1, max: 4 }),
      sizes: fc.array(fc.integer({ min: 1_024, max: 2 ** 28 }), { minLength: 1, maxLength: 2 }),
      emulate: fc.constant(true),
    });
    await fc.assert(fc.asyncProperty(request, async (r) => { await postTwice('/v1/collective', r); }), { numRuns: 20 });
  });

  it('search (small candidate budget): every plan it ranks obeys MFU ≤ HFU ≤ 1', async () => {
    const request = fc.record({
      m: machine, nodes: pow2(1, 64), micro: pow2(1, 4), replicas: pow2(8, 256), top: fc.integer({ min: 1, max: 5 }),
      candidateBudget: fc.integer({ min: 1, max: 100 }), constraints,
    }).map(({ m, nodes, micro, replicas, top, candidateBudget, constraints: c }) => ({
      model: m.model, cluster: { gpu: m.gpu, nodes }, training: { globalBatchSize: micro * replicas }, top, candidateBudget, constraints: c,
    }));
    await fc.assert(fc.asyncProperty(request, async (r) => { await postTwice('/v1/search', r); }), { numRuns: 40 });
  });

  it('nodes, scale and inference: finite, deterministic, physical', async () => {
    const training = pow2(64, 4096).map((globalBatchSize) => ({ globalBatchSize }));
    const nodes = fc.record({ m: machine, training, constraints, tokens: fc.integer({ min: 1, max: 1_000 }).map((b) => b * 1e9), days: fc.double({ min: 0.5, max: 365, noNaN: true }) })
      .map(({ m, ...rest }) => ({ model: m.model, cluster: { gpu: m.gpu }, ...rest }));
    const scale = fc.record({ m: machine, training, constraints, nodes: fc.uniqueArray(pow2(1, 64), { minLength: 1, maxLength: 3 }), mode: fc.constantFrom('strong', 'weak') })
      .map(({ m, ...rest }) => ({ model: m.model, cluster: { gpu: m.gpu }, ...rest }));
    const inference = fc.record({ m: machine, promptTokens: fc.integer({ min: 1, max: 32_768 }), outputTokens: fc.integer({ min: 1, max: 4_096 }) })
      .map(({ m, ...rest }) => ({ model: m.model, cluster: { gpu: m.gpu }, ...rest }));
    await fc.assert(fc.asyncProperty(nodes, async (r) => { await postTwice('/v1/nodes', r); }), { numRuns: 15 });
    await fc.assert(fc.asyncProperty(scale, async (r) => { await postTwice('/v1/scale', r); }), { numRuns: 15 });
    await fc.assert(fc.asyncProperty(inference, async (r) => { await postTwice('/v1/inference', r); }), { numRuns: 60 });
  });
});

afterAll(() => {
  expect(counter.count).toBeGreaterThanOrEqual(counter.floor);
});
