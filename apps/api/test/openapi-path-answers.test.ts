import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApi, decodeMsgpack, POST_OPERATIONS } from '../src/index.ts';

// QA: /openapi.json left out answers the app gives on its paths: OPTIONS (a 204 with Allow on every path a route
// answers), the mounted chat routes' 405 on GET, /openapi.json in MessagePack, and the 500 of a bug of ours. Each is
// checked here against what the app answers, not against the document's own text alone.

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> };
type PathItem = Record<string, unknown> & { description?: string };
type Doc = { paths: Record<string, PathItem> };

const OPERATION_FIELDS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operationsOf = (item: PathItem): [string, Operation][] =>
  Object.entries(item).filter(([field]) => OPERATION_FIELDS.includes(field)) as [string, Operation][];

// A mounted app documenting one POST route, as the chat bot is mounted at /v1/chat (infra/node main.ts).
const chat = new Hono();
chat.post('/slack', (c) => c.json({ text: 'hello' }));
chat.post('/discord', () => { throw new Error('a bug in the mounted app'); });
const chatItem = (operationId: string) => ({ post: { operationId, summary: operationId, responses: { 200: { description: 'An answer.' } } } });
const app = createApi({
  mounts: [{ path: '/v1/chat', app: chat, openApiPaths: { '/slack': chatItem('chat-slack'), '/discord': chatItem('chat-discord') } }],
  logError: () => {},
});
const documented = async (): Promise<Doc> => (await app.request('/openapi.json')).json() as Promise<Doc>;

/** A concrete path for a documented one: its {id} as the parameter's example. */
const concrete = (path: string, item: PathItem): string => {
  const parameters = operationsOf(item).flatMap(([, op]) => (op as { parameters?: { name: string; example?: string }[] }).parameters ?? []);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => parameters.find((p) => p.name === name)?.example ?? name);
};

describe('OPTIONS on every documented path: the 204 and Allow its description states', () => {
  it('each path item\'s description names the Allow the app answers OPTIONS with, and a 405 lists the same', async () => {
    const doc = await documented();
    const paths = Object.entries(doc.paths);
    expect(paths.length).toBeGreaterThan(15);
    for (const [path, item] of paths) {
      const stated = /Allow: ([A-Z, ]+?) \(/.exec(item.description ?? '')?.[1];
      const url = concrete(path, item);
      const options = await app.request(url, { method: 'OPTIONS' });
      expect(options.status, path).toBe(204);
      expect(options.headers.get('allow'), path).toBe(stated);
      // A method no path answers: the 405 each operation documents, with the same Allow.
      const refused = await app.request(url, { method: 'DELETE' });
      expect(refused.status, path).toBe(405);
      expect(refused.headers.get('allow'), path).toBe(stated);
      for (const [field, op] of operationsOf(item)) expect(op.responses['405']?.headers, `${field} ${path}`).toHaveProperty('Allow');
    }
  });

  it('the mounted chat routes: GET is a 405 naming POST, listed on their POST operation', async () => {
    const doc = await documented();
    for (const path of ['/v1/chat/slack', '/v1/chat/discord']) {
      const res = await app.request(path);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      const op = (doc.paths[path]!.post as Operation);
      expect(op.responses['405']?.content).toHaveProperty(['application/problem+json']);
      // The mounted app's own responses are kept.
      expect(op.responses['200']).toEqual({ description: 'An answer.' });
    }
  });
});

describe('GET /openapi.json in MessagePack, as documented', () => {
  it('Accept preferring MessagePack gets the same document packed, with its own ETag; both types and the 304 are listed', async () => {
    const doc = await documented();
    const packed = await app.request('/openapi.json', { headers: { accept: 'application/msgpack' } });
    expect(packed.headers.get('content-type')).toBe('application/msgpack');
    expect(decodeMsgpack(new Uint8Array(await packed.arrayBuffer()))).toEqual(doc);
    const again = await app.request('/openapi.json', { headers: { accept: 'application/msgpack', 'if-none-match': packed.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const responses = (doc.paths['/openapi.json']!.get as Operation).responses;
    expect(Object.keys(responses['200']!.content!).sort()).toEqual(['application/json', 'application/msgpack']);
    expect(responses).toHaveProperty('304');
  });
});

describe('the 500 of a bug of ours, documented where the app can answer one', () => {
  const broken = { ...POST_OPERATIONS[0]!, path: '/v1/broken' as const, operationId: 'broken', run: () => { throw new Error('boom'); } };
  const buggy = createApi({ operations: [broken], logError: () => {} });

  it('a POST operation that throws: a 500 problem with its instance, which the operation lists', async () => {
    // A body the operation's validator takes (its example), so that its run is reached and throws.
    const res = await buggy.request('/v1/broken', { method: 'POST', body: JSON.stringify(POST_OPERATIONS[0]!.example), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { instance: string }).instance).toMatch(/^urn:uuid:/);
    const doc = await (await buggy.request('/openapi.json')).json() as Doc;
    expect((doc.paths['/v1/broken']!.post as Operation).responses['500']!.content).toHaveProperty(['application/problem+json']);
  });

  it('a mounted app that throws: the API\'s 500, which the mounted operation lists', async () => {
    const res = await app.request('/v1/chat/discord', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const doc = await documented();
    expect((doc.paths['/v1/chat/discord']!.post as Operation).responses).toHaveProperty('500');
  });

  it('every POST operation, preset route and /openapi.json lists it', async () => {
    const doc = await documented();
    const computed = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v1/') || path === '/openapi.json');
    for (const [path, item] of computed) {
      for (const [field, op] of operationsOf(item)) expect(op.responses, `${field} ${path}`).toHaveProperty('500');
    }
  });
});
