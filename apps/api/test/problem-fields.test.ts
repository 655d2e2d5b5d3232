import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createApi, MAX_BODY_BYTES, type RunInBackground } from '../src/index.ts';

// QA: the 503's body carried retryAfterSeconds, which /openapi.json's Problem did not list, and a browser's script could
// not read its Retry-After (CORS exposed etag, content-type and allow only); the 413 was titled "Payload Too Large",
// RFC 7231's phrase, where RFC 9110 §15.5.14 says "Content Too Large".

type Problem = { properties: Record<string, unknown> };
type Doc = { components: { schemas: { Problem: Problem } }; paths: Record<string, { post: { responses: Record<string, { headers?: Record<string, unknown> }> } }> };

const SEARCH = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 64 }, top: 1 };
const busy: RunInBackground = async () => ({ busy: { retryAfterSeconds: 7 } });
const app = createApi({ runInBackground: busy });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('the 503 of a server with too many searches waiting', () => {
  it('every member of its body is one Problem lists, retryAfterSeconds among them, and the body validates', async () => {
    const res = await post('/v1/search', JSON.stringify(SEARCH), { origin: 'https://blog.example' });
    expect(res.status).toBe(503);
    const body = await res.json() as Record<string, unknown>;
    expect(body.retryAfterSeconds).toBe(7);
    const doc = await (await app.request('/openapi.json')).json() as Doc;
    const { Problem } = doc.components.schemas;
    // Problem strips unknown members rather than refusing them (RFC 9457 §3.2), so each is looked up by name.
    for (const member of Object.keys(body)) expect(Problem.properties, member).toHaveProperty(member);
    expect(new Ajv2020({ strict: false }).compile(Problem)(body)).toBe(true);
    expect(new Ajv2020({ strict: false }).compile(Problem)({ ...body, retryAfterSeconds: -1 })).toBe(false);
    expect(doc.paths['/v1/search']!.post.responses['503']!.headers).toHaveProperty('Retry-After');
  });

  it('a browser\'s script may read its Retry-After: CORS exposes it beside the ETag', async () => {
    const res = await post('/v1/search', JSON.stringify(SEARCH), { origin: 'https://blog.example' });
    expect(res.headers.get('retry-after')).toBe('7');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(',').map((h) => h.trim());
    expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'etag']));
  });

  it('a wait given in a fraction of a second is rounded up to whole seconds, as Retry-After takes them (RFC 9110 §10.2.3)', async () => {
    const fraction = createApi({ runInBackground: async () => ({ busy: { retryAfterSeconds: 2.5 } }) });
    const res = await fraction.request('/v1/search', { method: 'POST', body: JSON.stringify(SEARCH), headers: { 'content-type': 'application/json' } });
    expect(res.headers.get('retry-after')).toBe('3');
    expect(((await res.json()) as { retryAfterSeconds: number }).retryAfterSeconds).toBe(3);
  });
});

describe('the 413 is titled with RFC 9110\'s phrase', () => {
  it.each([
    ['declared over the limit', { 'content-length': String(MAX_BODY_BYTES + 1) }],
    ['sent over the limit without a declared length', {}],
  ])('%s: "Content Too Large"', async (_, headers) => {
    const res = await post('/v1/estimate', 'x'.repeat(MAX_BODY_BYTES + 1), headers);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'about:blank', title: 'Content Too Large', status: 413, limitBytes: MAX_BODY_BYTES });
  });
});
