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
  it('an array as the docs bound it: 600 minimal scenarios fit the body limit and are answered; 1,024 of them are a 413, as the description says', async () => {
    const minimal = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } };
    const fits = await post(JSON.stringify(Array(600).fill(minimal)));
    expect(fits.status).toBe(200);
    expect(((await fits.json()) as unknown[]).length).toBe(600);
    expect((await post(JSON.stringify(Array(1024).fill(minimal)))).status).toBe(413);
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { description: string } }> };
    expect(doc.paths['/v1/estimate']!.post.description).toMatch(/at most 1,024 scenarios and, like every request body, at most 64 KiB \(a larger body is a 413\): about 600/);
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
    expect(body).toMatchObject({ title: 'Invalid scenario', type: 'https://trainplan.dev/problems/invalid-scenario' });
  });
  it('a 400 is the contract\'s invalid answer too: ok false, reason "invalid", the message the same scenario gets in an array', async () => {
    const bad = { ...scenario, parallelism: { tensor: 0 } };
    const single = await (await post(JSON.stringify(bad))).json() as { ok: boolean; reason: string; message: string };
    const [slot] = await (await post(JSON.stringify([bad]))).json() as { ok: boolean; reason: string; message: string }[];
    expect(single).toMatchObject({ ok: false, reason: 'invalid' });
    // The array's slot names the field under its index ("[0].parallelism.tensor"); the message is otherwise the same.
    expect(slot!.message.replace(/\[0\]\./g, '')).toBe(single.message);
    expect(single.message).toMatch(/^parallelism\.tensor: /);
  });
  it.each([
    ['/v1/search', 'search request'], ['/v1/nodes', 'nodes request'], ['/v1/scale', 'scale request'], ['/v1/inference', 'inference request'],
  ])('a 400 from %s is titled "Invalid %s"', async (path, subject) => {
    const res = await app.request(path, { method: 'POST', body: '{"model":7}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    const body = await res.json() as { title: string; detail: string };
    expect(body.title).toBe(`Invalid ${subject}`);
    expect(body.detail.startsWith(`The ${subject} has `)).toBe(true);
  });
  it('an unknown preset id is no 400: a 200 answer with ok: false, reason "invalid", naming the field (the contract)', async () => {
    const res = await post(JSON.stringify({ ...scenario, cluster: { gpu: 'a100-81gb', nodes: 128 } }));
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; reason: string; issues: { path: string }[] };
    expect(body).toMatchObject({ ok: false, reason: 'invalid' });
    expect(body.issues.map((i) => i.path)).toContain('cluster.gpu');
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
  it.each([
    ['GET', '/v2/', 404],
    ['GET', '/v1/presets/', 404],
    ['GET', '/v1/presets/gpus/', 404],
    ['PUT', '/v1/presets/gpus/', 405],
  ])('%s %s + 3,000 characters is a %i whose detail stays within the published Problem schema (1,024 characters)', async (method, prefix, status) => {
    const res = await app.request(prefix + 'x'.repeat(3000), { method });
    expect(res.status).toBe(status);
    const { detail } = await res.json() as { detail: string };
    expect(detail.length).toBeLessThanOrEqual(1024);
    expect(detail).toContain('xxxxxxxx');
  });
});

describe('a known path asked with another method is 405 with an Allow header', () => {
  it.each([
    ['GET', '/v1/estimate', 'POST, OPTIONS'],
    ['PUT', '/v1/estimate', 'POST, OPTIONS'],
    ['DELETE', '/v1/collective', 'POST, OPTIONS'],
    ['DELETE', '/v1/presets/gpus', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/presets/models/gpt3-175b', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/openapi.json', 'GET, HEAD, OPTIONS'],
    ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
  ])('%s %s → 405, Allow: %s', async (method, path, allow) => {
    const res = await app.request(path, { method, headers: { origin: 'https://a.example' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json() as { title: string; status: number; detail: string; allow: string[] };
    expect(body).toMatchObject({ title: 'Method Not Allowed', status: 405, allow: allow.split(', ') });
    expect(body.detail).toContain(method);
  });
  it.each([
    ['/v1/estimate', 'POST, OPTIONS'],
    ['/v1/presets/gpus/h100-sxm', 'GET, HEAD, OPTIONS'],
    ['/openapi.json', 'GET, HEAD, OPTIONS'],
  ])('OPTIONS %s (plain or a CORS preflight) is a 204 with Allow: %s (RFC 9110 §9.3.7)', async (path, allow) => {
    const plain: Record<string, string> = {};
    for (const headers of [plain, { origin: 'https://a.example', 'access-control-request-method': 'POST' }]) {
      const res = await app.request(path, { method: 'OPTIONS', headers });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
      // A preflight is told the same methods (before: GET, POST, OPTIONS on every path).
      if (headers !== plain) expect(res.headers.get('access-control-allow-methods')?.replace(/,(?=\S)/g, ', ')).toBe(allow);
    }
  });
  it('a trailing slash on a known path is a 404 that names the path without it; a slip of one names the route meant', async () => {
    const slash = await app.request('/v1/estimate/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(slash.status).toBe(404);
    expect(((await slash.json()) as { detail: string }).detail).toBe('no route POST /v1/estimate/ (without the trailing slash: /v1/estimate)');
    const unknown = await app.request('/v1/estimates/');
    expect(((await unknown.json()) as { detail: string }).detail).toBe('no route GET /v1/estimates/; did you mean POST /v1/estimate?');
  });
  it('HEAD of a POST route is 405 too; the right method still answers, and unknown paths stay 404', async () => {
    const head = await app.request('/v1/estimate', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await app.request('/v1/presets/gpus')).status).toBe(200);
    expect((await post(JSON.stringify(scenario))).status).toBe(200);
    const missing = await app.request('/v1/estimates', { method: 'PUT' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBeNull();
  });
});

describe('GET / (the landing page, where no widget is mounted: Deno, Workers)', () => {
  it('opens a widget link\'s #scenario= instead of ignoring it: shows the scenario and posts it to /v1/estimate', async () => {
    const html = await (await app.request('/')).text();
    expect(html).toContain('POST /v1/estimate');
    expect(html).toMatch(/location\.hash[\s\S]*'#scenario='/);
    expect(html).toContain("fetch('/v1/estimate'");
    expect(html).toContain('TRAINPLAN_PUBLIC_URL');
    // The hash is shown as text, never parsed as markup.
    expect(html).not.toContain('innerHTML');
  });
});
