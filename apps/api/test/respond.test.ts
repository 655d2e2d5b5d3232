import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { decodeMsgpack } from '../src/http/msgpack.ts';
import { fixedResponder } from '../src/http/respond.ts';

describe('fixedResponder: an answer that never changes', () => {
  it('is built and serialised on the first request only, and every request gets the same bytes and ETag, JSON or MessagePack', async () => {
    let built = 0;
    const app = new Hono();
    app.get('/doc', fixedResponder(() => { built += 1; return { openapi: '3.1.0', paths: { '/x': { n: 1 } } }; }));
    expect(built).toBe(0);
    const [a, b] = [await app.request('/doc'), await app.request('/doc')];
    const packed = [await app.request('/doc', { headers: { accept: 'application/msgpack' } }), await app.request('/doc', { headers: { accept: 'application/msgpack' } })];
    expect(built).toBe(1);
    expect(await a.text()).toBe(await b.text());
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    expect(packed[0]!.headers.get('etag')).toBe(`${a.headers.get('etag')!.slice(0, -1)}-mp"`);
    const bytes = await Promise.all(packed.map(async (r) => new Uint8Array(await r.arrayBuffer())));
    expect(bytes[0]).toEqual(bytes[1]);
    expect(decodeMsgpack(bytes[1]!)).toEqual({ openapi: '3.1.0', paths: { '/x': { n: 1 } } });
    // A conditional request still answers 304 from the kept hash.
    expect((await app.request('/doc', { headers: { 'if-none-match': a.headers.get('etag')! } })).status).toBe(304);
  });
});
