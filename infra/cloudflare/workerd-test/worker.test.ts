// Runs inside workerd (vitest.config.mts): the Worker answers the same as Node does in apps/api/test.
import { SELF } from 'cloudflare:test';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { decodeMsgpack, encodeMsgpack } from '@trainplan/api';
import { describe, expect, it } from 'vitest';

const post = (path: string, body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  SELF.fetch(`http://worker${path}`, { method: 'POST', body, headers });

describe('the Worker on workerd', () => {
  it('answers /healthz', async () => {
    expect(await (await SELF.fetch('http://worker/healthz')).json()).toEqual({ ok: true });
  });
  it('estimates the contract example', async () => {
    const res = await post('/v1/estimate', JSON.stringify(CONTRACT_EXAMPLE));
    expect(res.status).toBe(200);
    const body = await res.json() as { ok: boolean; stepTimeSeconds: number };
    expect(body.ok).toBe(true);
    expect(body.stepTimeSeconds).toBeGreaterThan(0);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
  });
  it('speaks MessagePack with identical data (our codec, in workerd)', async () => {
    const viaJson = await (await post('/v1/estimate', JSON.stringify(CONTRACT_EXAMPLE))).json();
    const res = await post('/v1/estimate', encodeMsgpack(CONTRACT_EXAMPLE), { 'content-type': 'application/msgpack', accept: 'application/msgpack' });
    expect(res.headers.get('content-type')).toBe('application/msgpack');
    expect(decodeMsgpack(new Uint8Array(await res.arrayBuffer()))).toEqual(viaJson);
  });
  it('a bad field is a 400 problem naming it', async () => {
    const res = await post('/v1/estimate', JSON.stringify({ ...CONTRACT_EXAMPLE, parallelism: { tensor: 0 } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('parallelism.tensor');
  });
  it('serves presets, the OpenAPI document and the docs page', async () => {
    expect((await SELF.fetch('http://worker/v1/presets/models/gpt3-175b')).status).toBe(200);
    expect(((await (await SELF.fetch('http://worker/openapi.json')).json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await SELF.fetch('http://worker/docs')).headers.get('content-type')).toContain('text/html');
  });
  it('answers a CORS preflight and 404s an unknown route', async () => {
    const pre = await SELF.fetch('http://worker/v1/estimate', { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' } });
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect((await SELF.fetch('http://worker/v2/nothing')).status).toBe(404);
  });
  it('answers a known path asked with another method with 405 and Allow', async () => {
    const res = await SELF.fetch('http://worker/v1/estimate', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await SELF.fetch('http://worker/v1/chat/slack')).headers.get('allow')).toBe('POST, OPTIONS');
  });
});
