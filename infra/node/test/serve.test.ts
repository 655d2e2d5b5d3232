import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from './support/start-server.ts';

// The real thing: `npm start`'s entry on Node, on 127.0.0.1 and a free port (PORT=0).
let started: StartedServer | undefined;
let base = '';

beforeAll(async () => {
  started = await startServer();
  base = started.base;
}, 30_000);

afterAll(() => { started?.server.kill(); });

/**
 * A slow POST, and /healthz asked 300 ms into it (once the slow work has started; on one thread it would wait nearly all
 * of it): the health check's status and time, and the slow answer with its own time.
 */
async function healthzDuring(path: string, body: unknown) {
  const started = performance.now();
  const slowAnswer = fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then(async (res) => ({ status: res.status, body: await res.json() as Record<string, unknown>, ms: performance.now() - started }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const asked = performance.now();
  const health = await fetch(`${base}/healthz`);
  const healthMs = performance.now() - asked;
  expect(health.status).toBe(200);
  return { healthMs, slow: await slowAnswer };
}

describe('npm start on Node', () => {
  it('answers /healthz', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(await res.json()).toEqual({ ok: true });
  });
  it('estimates the contract example over HTTP', async () => {
    const res = await fetch(`${base}/v1/estimate`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
  it('answers /healthz while a slow request runs: the search per cluster size runs on a worker thread, not the thread that serves', async () => {
    // A deadline no size meets: one search per cluster size up to the largest, seconds of CPU (26 searches).
    const { healthMs, slow } = await healthzDuring('/v1/nodes',
      { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 0.01 });
    expect(slow).toMatchObject({ status: 200, body: { reason: 'deadline-unreachable' } });
    // Ratios in one run, not absolute times: the health check takes a small part of the search's time.
    expect(healthMs / slow.ms).toBeLessThan(0.25);
  }, 60_000);

  it('answers /healthz while an emulated estimate runs: a request that asks for the emulator runs on a worker thread too', async () => {
    // Security QA's request (213 B): 2,048 DGX A100 nodes emulated, seconds of CPU; it held /healthz 2,831 ms on this thread.
    const { healthMs, slow } = await healthzDuring('/v1/estimate', {
      model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 2048, communicationModel: 'emulated', oversubscription: 1.001 },
      training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
    });
    expect(slow).toMatchObject({ status: 200, body: { ok: true, resolved: { communicationModel: 'emulated' } } });
    // Ratios in one run: the health check takes a small part of the emulation's time, not nearly all of it.
    expect(healthMs / slow.ms).toBeLessThan(0.25);
  }, 60_000);

  it('documents the chat bot\'s endpoints in /openapi.json, and each refuses as documented (no secret set: 503)', async () => {
    const doc = await (await fetch(`${base}/openapi.json`)).json() as { paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    for (const [path, type] of [['/v1/chat/slack', 'application/x-www-form-urlencoded'], ['/v1/chat/discord', 'application/json']] as const) {
      const documented = doc.paths[path]?.post?.responses;
      expect(documented, path).toBeDefined();
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type }, body: type === 'application/json' ? '{}' : 'text=hi' });
      // The test server runs without SLACK_SIGNING_SECRET or DISCORD_PUBLIC_KEY (start-server.ts): 503, a status documented.
      expect(res.status).toBe(503);
      expect(Object.keys(documented!)).toContain(String(res.status));
    }
  });
  it('a known path with another method is 405 with Allow (the shared app\'s handling, on Node)', async () => {
    const res = await fetch(`${base}/v1/estimate`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await fetch(`${base}/v1/presets/gpus`, { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
  it('a CORS preflight is a 204 with no content type (the adapter would add text/plain to it)', async () => {
    const res = await fetch(`${base}/v1/estimate`, {
      method: 'OPTIONS', headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });
  it('a 304 keeps the type the API states for it', async () => {
    const init = (headers: Record<string, string> = {}) => ({
      method: 'POST', headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } }),
    });
    const first = await fetch(`${base}/v1/estimate`, init());
    await first.arrayBuffer();
    const again = await fetch(`${base}/v1/estimate`, init({ 'if-none-match': first.headers.get('etag')! }));
    expect(again.status).toBe(304);
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
  it('compresses where the client asks: /openapi.json gzipped decodes to the bytes sent uncompressed (node:http, which decodes nothing)', async () => {
    // fetch would decode the body itself and hide the coding: node:http hands over the bytes on the wire.
    const raw = (headers: Record<string, string>) => new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpGet(`${base}/openapi.json`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    const plain = await raw({});
    const coded = await raw({ 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(coded.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(coded.body).equals(plain.body)).toBe(true);
    expect(coded.body.byteLength).toBeLessThan(plain.body.byteLength / 10);
    expect(coded.headers['etag']).toBe(`W/${plain.headers['etag']}`);
  });
  it('serves the landing page at /', async () => {
    expect(await (await fetch(`${base}/`)).text()).toContain('POST /v1/estimate');
  });
});
