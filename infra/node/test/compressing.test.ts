import { gunzipSync } from 'node:zlib';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { createApi } from '@trainplan/api';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES } from '../src/compress.ts';
import { compressing } from '../src/compressing.ts';

// The API as `npm start` serves it: its answers through compressing, as main.ts passes them.
const app = createApi();
const served = compressing((request) => app.fetch(request));
async function ask(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const response = await served(new Request(`http://127.0.0.1${path}`, { ...init, headers }));
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}
const memory = { method: 'POST', body: JSON.stringify(CONTRACT_EXAMPLE) } as const;
const json = { 'content-type': 'application/json' } as const;
/** A response's header fields, less those named. */
const fields = (response: Response, ...less: string[]) => Object.fromEntries([...response.headers].filter(([name]) => !less.includes(name)));

describe('HEAD states the header fields its GET does, as main.ts serves both (RFC 9110 §9.3.2)', () => {
  it.each([
    ['/v1/presets/gpus', 'gzip'], // before: HEAD said "…" and Vary: Accept; GET W/"…", Accept-Encoding in Vary, gzip
    ['/openapi.json', 'br'],
    ['/healthz', 'gzip'], // too small to compress, yet Vary: Accept-Encoding all the same
    ['/v1/presets/gpus', undefined],
  ] as const)('HEAD %s (Accept-Encoding: %s): GET\'s status and headers, no body', async (path, coding) => {
    const headers: Record<string, string> = coding === undefined ? {} : { 'accept-encoding': coding };
    const get = await served(new Request(`http://127.0.0.1${path}`, { headers }));
    const head = await served(new Request(`http://127.0.0.1${path}`, { method: 'HEAD', headers }));
    expect(head.status).toBe(get.status);
    expect([...head.headers]).toEqual([...get.headers]);
    expect(head.headers.get('vary')).toContain('Accept-Encoding');
    expect(head.body).toBeNull();
  });
});

describe('a 304 carries the ETag, and the header fields, its 200 would (RFC 9110 §15.4.5)', () => {
  it.each([
    ['gzip', 'strong'], // QA: the 304 said "…" where the 200 said W/"…"
    ['gzip', 'weak'],
    ['br', 'strong'],
    ['br', 'weak'],
  ] as const)('GET /openapi.json, Accept-Encoding %s, If-None-Match the %s form: a 304 saying the 200\'s W/ tag', async (coding, form) => {
    const ok = await ask('/openapi.json', { 'accept-encoding': coding });
    const etag = ok.response.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
    const again = await ask('/openapi.json', { 'accept-encoding': coding, 'if-none-match': form === 'weak' ? etag : etag.slice(2) });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(etag);
    expect(fields(again.response)).toEqual(fields(ok.response, 'content-encoding', 'content-length'));
    expect(again.bytes.byteLength).toBe(0);
  });
  it.each([
    [undefined, 'strong'],
    [undefined, 'weak'],
    ['identity', 'weak'], // takes no coding either
  ] as const)('Accept-Encoding %s, If-None-Match the %s form: a 304 saying the strong tag, as the 200 does', async (coding, form) => {
    const headers: Record<string, string> = coding === undefined ? {} : { 'accept-encoding': coding };
    const ok = await ask('/openapi.json', headers);
    const etag = ok.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const again = await ask('/openapi.json', { ...headers, 'if-none-match': form === 'weak' ? `W/${etag}` : etag });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(etag);
    expect(again.response.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });
  it(`an answer under ${COMPRESS_MIN_BYTES} bytes goes uncompressed, so its 200 and its 304 both say the strong tag`, async () => {
    const path = '/v1/presets/networks/ndr-ib-8x';
    const ok = await ask(path, { 'accept-encoding': 'gzip' });
    expect(ok.bytes.byteLength).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(ok.response.headers.get('content-encoding')).toBeNull();
    const etag = ok.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    for (const tag of [etag, `W/${etag}`]) {
      const again = await ask(path, { 'accept-encoding': 'gzip', 'if-none-match': tag });
      expect(again.response.status).toBe(304);
      expect(fields(again.response)).toEqual(fields(ok.response, 'content-length'));
    }
  });
  it('HEAD: the 304 its GET gets', async () => {
    const etag = (await ask('/openapi.json', { 'accept-encoding': 'gzip' })).response.headers.get('etag')!;
    const headers = { 'accept-encoding': 'gzip', 'if-none-match': etag.slice(2) };
    const get = await ask('/openapi.json', headers);
    const head = await ask('/openapi.json', headers, { method: 'HEAD' });
    expect([head.response.status, get.response.status]).toEqual([304, 304]);
    expect(fields(head.response)).toEqual(fields(get.response));
  });
  it('a POST revalidated with either form of its compressed answer\'s tag is a 304 saying the W/ one', async () => {
    const first = await ask('/v1/memory', { ...json, 'accept-encoding': 'gzip' }, memory);
    expect(first.response.headers.get('content-encoding')).toBe('gzip');
    const etag = first.response.headers.get('etag')!;
    for (const tag of [etag, etag.slice(2)]) {
      const again = await ask('/v1/memory', { ...json, 'accept-encoding': 'gzip', 'if-none-match': tag }, memory);
      expect(again.response.status).toBe(304);
      expect(again.response.headers.get('etag')).toBe(etag);
    }
  });
  it('a tag that is not the current one: the 200, compressed', async () => {
    const { response, bytes } = await ask('/openapi.json', { 'accept-encoding': 'gzip', 'if-none-match': '"0000000000000000", W/"1"' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^W\//);
    expect(JSON.parse(gunzipSync(bytes).toString())).toHaveProperty('openapi');
  });
});

describe('If-None-Match: * asks whether there is a current representation (RFC 9110 §13.1.2)', () => {
  it('GET with a coding: yes, a 304 saying the 200\'s W/ tag', async () => {
    const ok = await ask('/openapi.json', { 'accept-encoding': 'gzip' });
    const again = await ask('/openapi.json', { 'accept-encoding': 'gzip', 'if-none-match': '*' });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(ok.response.headers.get('etag'));
  });
  it('GET of what is not there: no, its 404', async () => {
    const { response } = await ask('/v1/presets/gpus/no-such-gpu', { 'accept-encoding': 'gzip', 'if-none-match': '*' });
    expect(response.status).toBe(404);
  });
  it.each<Record<string, string>>([{ 'accept-encoding': 'gzip' }, {}])('POST (%j): no, a POST route has no representation of its own; the 200', async (coding) => {
    const { response, bytes } = await ask('/v1/memory', { ...json, ...coding, 'if-none-match': '*' }, memory);
    expect(response.status).toBe(200);
    const text = response.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes).toString() : bytes.toString();
    expect((JSON.parse(text) as { ok: boolean }).ok).toBe(true);
  });
});

describe('the condition, taken off the request for the app', () => {
  const big = JSON.stringify({ padding: 'x'.repeat(2 * COMPRESS_MIN_BYTES) });
  const gzipped = (headers: Record<string, string>, method = 'GET') => new Request('http://127.0.0.1/', { method, headers: { 'accept-encoding': 'gzip', ...headers } });
  it('an app\'s weak tag is compared weakly (RFC 9110 §8.8.3.2): its W/ form earns a 304', async () => {
    const weakApp = compressing(() => new Response(big, { headers: { 'content-type': 'application/json', etag: 'W/"v1"' } }));
    const answer = await weakApp(gzipped({ 'if-none-match': 'W/"v1"' }));
    expect(answer.status).toBe(304);
    expect(answer.headers.get('etag')).toBe('W/"v1"');
  });
  it('If-Modified-Since is not evaluated where If-None-Match is present (RFC 9110 §13.1.3): a tag that fails is a 200', async () => {
    // An app that answers If-Modified-Since with a 304, as a static file server does.
    const datedApp = compressing((request) => request.headers.has('if-modified-since')
      ? new Response(null, { status: 304 })
      : new Response(big, { headers: { 'content-type': 'application/json', etag: '"v2"' } }));
    const answer = await datedApp(gzipped({ 'if-none-match': '"v1"', 'if-modified-since': 'Mon, 30 Nov 2026 00:00:00 GMT' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toBe('W/"v2"');
  });
  it('a method other than GET, HEAD and POST keeps its condition: the app\'s 412 stands, the method not run (RFC 9110 §13.1.2)', async () => {
    let ran = false;
    const guardedApp = compressing((request) => {
      if (request.headers.get('if-none-match') === '"v1"') return new Response(null, { status: 412 });
      ran = true;
      return new Response(big, { headers: { 'content-type': 'application/json', etag: '"v2"' } });
    });
    const answer = await guardedApp(gzipped({ 'if-none-match': '"v1"' }, 'PUT'));
    expect(answer.status).toBe(412);
    expect(ran).toBe(false);
  });
});
