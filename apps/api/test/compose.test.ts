import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';

describe('composing other apps into the API', () => {
  const chat = new Hono<{ Bindings: { CHAT_TOKEN?: string } }>();
  chat.get('/whoami', (c) => c.json({ hasToken: c.env?.CHAT_TOKEN === 'secret' }));
  const app = createApi({ mounts: [{ path: '/chat', app: chat }] });

  it('serves a mounted app under its path, with the environment the runtime passes as c.env', async () => {
    const res = await app.fetch(new Request('http://x/chat/whoami'), { CHAT_TOKEN: 'secret' });
    expect(await res.json()).toEqual({ hasToken: true });
  });
  it('the mounted app gets the same open CORS, and the API keeps its routes and 404s', async () => {
    const res = await app.fetch(new Request('http://x/chat/whoami', { headers: { origin: 'https://a.example' } }), {});
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/chat/nothing')).status).toBe(404);
  });
  it('a mounted route asked with another method is 405 naming the methods it answers', async () => {
    const res = await app.request('/chat/whoami', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('a mounted app\'s documented paths', () => {
  const chat = new Hono();
  chat.post('/slack', (c) => c.body(null, 503));
  const item = { post: { operationId: 'chat-slack', summary: 'Slack', responses: { 503: { description: 'no secret' } }, 'x-signed': true } };
  const app = createApi({ mounts: [{ path: '/v1/chat/', app: chat, openApiPaths: { '/slack': item } }, { path: '/plain', app: new Hono() }] });

  it('are listed in /openapi.json under the mount point (one slash between them), beside the API\'s own', async () => {
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, unknown> };
    // As given, with what the API answers there beside it (its 405 and 500, OPTIONS in the description: openapi-path-answers.test.ts).
    expect(doc.paths['/v1/chat/slack']).toMatchObject(item);
    expect(doc.paths['/v1/estimate']).toBeDefined();
    // A mount that documents nothing adds nothing.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/plain'))).toEqual([]);
  });
});
