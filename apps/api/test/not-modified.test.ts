import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';

// A 304 states what its 200 would (RFC 9110 §15.4.5): the 200's ETag, not the form If-None-Match sent it in (QA: a 304
// said the tag back as the request gave it).
// If-None-Match: * is a 304 on a GET route and answered on a POST route (RFC 9110 §13.1.2: it asks about the target
// resource's representation, which a POST route has none of), as /openapi.json says.

const app = createApi();
const json = JSON.stringify(CONTRACT_EXAMPLE);
const estimate = (headers: Record<string, string> = {}) =>
  app.request('/v1/estimate', { method: 'POST', body: json, headers: { 'content-type': 'application/json', ...headers } });
const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe('a 304 carries the headers of the 200 it stands for', () => {
  it.each([
    ['GET /openapi.json', 'application/json'],
    ['GET /openapi.json', 'application/msgpack'],
    ['GET /v1/presets/gpus', 'application/json'],
    ['POST /v1/estimate', 'application/json'],
    ['POST /v1/estimate', 'application/msgpack'],
  ])('%s as %s: the same ETag, type and caching, whatever form the tag was sent in', async (route, accept) => {
    const send = (headers: Record<string, string>) => (route.startsWith('POST') ? estimate(headers) : get(route.slice(4), headers));
    const full = await send({ accept });
    expect(full.headers.get('etag')).toMatch(/^"[0-9a-f]{16}(-mp)?"$/);
    // Tags are compared weakly (RFC 9110 §8.8.3.2), so a client may send the weak form, among others.
    const again = await send({ accept, 'if-none-match': `"0000000000000000", W/${full.headers.get('etag')!}` });
    expect(again.status).toBe(304);
    for (const header of ['etag', 'content-type', 'cache-control', 'vary']) expect(again.headers.get(header), header).toBe(full.headers.get(header));
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('If-None-Match: *', () => {
  type Doc = { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };

  it('is a 304 on a GET route and an answer on a POST route, each as its 304\'s description says', async () => {
    expect((await get('/v1/presets/gpus', { 'if-none-match': '*' })).status).toBe(304);
    const posted = await estimate({ 'if-none-match': '*' });
    expect(posted.status).toBe(200);
    expect(((await posted.json()) as { ok: boolean }).ok).toBe(true);
    const doc = await (await get('/openapi.json')).json() as Doc;
    expect(doc.paths['/v1/presets/gpus']!.get!.responses['304']!.description).toMatch(/names the current ETag \(compared weakly[^)]*\) or is \*/);
    expect(doc.paths['/v1/estimate']!.post!.responses['304']!.description).toMatch(/If-None-Match: \* does not: .* answered 200/);
  });
});
