import { CONTRACT_EXAMPLE, runEstimate, scenariosJsonSchema, validateScenario } from '@trainplan/protocol';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApi, decodeMsgpack, encodeMsgpack, POST_OPERATIONS } from '../src/index.ts';

const app = createApi();
const post = (path: string, body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.request(path, { method: 'POST', body, headers });
const json = JSON.stringify(CONTRACT_EXAMPLE);
/** A path item's operations, not its other fields (description: OpenAPI 3.1 §4.8.9). */
const operationsOf = <T>(item: Record<string, T>): T[] =>
  Object.entries(item).filter(([field]) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(field)).map(([, op]) => op);

describe('MessagePack in both directions', () => {
  it.each(['/v1/estimate', '/v1/memory'])('%s answers identical data in JSON and MessagePack, whichever way the request came', async (path) => {
    const viaJson = await (await post(path, json)).json();
    const packed = await post(path, encodeMsgpack(CONTRACT_EXAMPLE), { 'content-type': 'application/msgpack', accept: 'application/msgpack' });
    expect(packed.status).toBe(200);
    expect(packed.headers.get('content-type')).toBe('application/msgpack');
    expect(decodeMsgpack(new Uint8Array(await packed.arrayBuffer()))).toEqual(viaJson);
  });
  it('an array of scenarios round-trips through MessagePack in order', async () => {
    const body = [CONTRACT_EXAMPLE, { ...CONTRACT_EXAMPLE, parallelism: { tensor: 7 } }];
    const res = await post('/v1/estimate', encodeMsgpack(body), { 'content-type': 'application/msgpack', accept: 'application/msgpack' });
    const answer = decodeMsgpack(new Uint8Array(await res.arrayBuffer())) as { ok: boolean }[];
    expect(answer.map((a) => a.ok)).toEqual([true, false]);
  });
  it('malformed MessagePack is a 400 problem, not a 500', async () => {
    const res = await post('/v1/estimate', new Uint8Array([0xdc, 0xff]), { 'content-type': 'application/msgpack' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { message: string }[] }).issues[0]!.message).toContain('MessagePack');
  });
  it('invalid MessagePack input names the offending field like JSON does', async () => {
    const res = await post('/v1/estimate', encodeMsgpack({ ...CONTRACT_EXAMPLE, parallelism: { tensor: 0 } }), { 'content-type': 'application/msgpack' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('parallelism.tensor');
  });
});

describe('ETag and caching', () => {
  it('a deterministic answer carries an ETag and Cache-Control; the same request gets the same tag', async () => {
    const [a, b] = [await post('/v1/estimate', json), await post('/v1/estimate', json)];
    expect(a.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    expect(a.headers.get('cache-control')).toContain('max-age');
    expect(a.headers.get('vary')).toContain('Accept');
  });
  it('a different scenario gets a different tag, and MessagePack its own', async () => {
    const base = (await post('/v1/estimate', json)).headers.get('etag');
    const other = (await post('/v1/estimate', JSON.stringify({ ...CONTRACT_EXAMPLE, training: { globalBatchSize: 768 } }))).headers.get('etag');
    const packed = (await post('/v1/estimate', json, { 'content-type': 'application/json', accept: 'application/msgpack' })).headers.get('etag');
    expect(new Set([base, other, packed]).size).toBe(3);
  });
  it.each(['GET /v1/presets/gpus', 'GET /openapi.json', 'POST /v1/estimate'])('%s with a matching If-None-Match is a 304 with no body', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const init = method === 'POST' ? { method, body: json, headers: { 'content-type': 'application/json' } } : {};
    const etag = (await app.request(path!, init)).headers.get('etag')!;
    const again = await app.request(path!, { ...init, headers: { ...(init.headers ?? {}), 'if-none-match': `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    // The stored representation's type, not a default a Node adapter would add (text/plain).
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
  it('If-None-Match: * is a 304 on GET (a current representation exists) but no reason to withhold a POST\'s answer (RFC 9110 §13.1.2)', async () => {
    expect((await app.request('/v1/presets/gpus', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    // Before: a 304 with no body, for an answer the client had never been sent.
    const res = await post('/v1/estimate', json, { 'content-type': 'application/json', 'if-none-match': '*' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
  it('a stale If-None-Match gets the full answer', async () => {
    const res = await post('/v1/estimate', json, { 'content-type': 'application/json', 'if-none-match': '"0000000000000000"' });
    expect(res.status).toBe(200);
  });
});

describe('CORS', () => {
  it('a preflight from any origin allows the path\'s methods (POST with a JSON body here, GET on the presets), without credentials', async () => {
    const res = await app.request('/v1/estimate', {
      method: 'OPTIONS',
      headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-methods')).not.toContain('GET');
    const presets = await app.request('/v1/presets/gpus', { method: 'OPTIONS', headers: { origin: 'https://blog.example', 'access-control-request-method': 'GET' } });
    expect(presets.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
  it('a preflight is allowed the request headers it names, tracing headers included (before: a fixed list without them)', async () => {
    const res = await app.request('/v1/search', {
      method: 'OPTIONS',
      headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, traceparent, x-request-id' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(['content-type', 'traceparent', 'x-request-id']);
    expect(res.headers.get('vary')).toContain('Access-Control-Request-Headers');
  });
  it('OPTIONS on a path no route answers is a 404 problem, as GET there is (before: a 204), plain or a preflight', async () => {
    for (const headers of [{}, { origin: 'https://blog.example', 'access-control-request-method': 'POST' }] as Record<string, string>[]) {
      const res = await app.request('/nope', { method: 'OPTIONS', headers });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toBe('no route OPTIONS /nope; the routes are listed on /docs and in /openapi.json');
    }
  });
  it('answers carry Access-Control-Allow-Origin: * and expose the ETag', async () => {
    const res = await post('/v1/estimate', json, { 'content-type': 'application/json', origin: 'https://blog.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
  });
});

describe('POST /v1/memory', () => {
  it('the contract example: the most loaded stage is the largest of its stages, and the parts add up', async () => {
    const body = await (await post('/v1/memory', json)).json() as {
      ok: true; fits: boolean; memory: Record<string, number>; stages: Record<string, number>[]; resolved: { pipeline: number };
    };
    expect(body.ok).toBe(true);
    expect(body.stages).toHaveLength(body.resolved.pipeline);
    expect(Math.max(...body.stages.map((s) => s.totalBytes!))).toBe(body.memory.totalBytes);
    for (const s of body.stages) {
      const parts = s.weightsBytes! + s.gradientsBytes! + s.optimizerBytes! + s.activationsBytes! + s.otherBytes!;
      expect(parts).toBeCloseTo(s.totalBytes!, 0);
    }
  });
  it("GPT-3 175B unsharded on one A100 does not fit, and still gets its breakdown: weights alone are 2 bytes × 175 B parameters", async () => {
    const body = await (await post('/v1/memory', JSON.stringify({ ...CONTRACT_EXAMPLE, training: { globalBatchSize: 1024 }, parallelism: { tensor: 1, pipeline: 1 } }))).json() as {
      ok: boolean; fits: boolean; memory: { weightsBytes: number; totalBytes: number; capacityBytes: number }; parameters: number;
    };
    expect(body.ok).toBe(true);
    expect(body.fits).toBe(false);
    expect(body.memory.totalBytes).toBeGreaterThan(body.memory.capacityBytes);
    expect(body.memory.weightsBytes).toBeCloseTo(2 * body.parameters, -3);
    expect(body.parameters / 175e9).toBeCloseTo(1, 1);
  });
  it.each([
    ['tensor 7 (does not divide the GPUs)', { tensor: 7 }],
    ['pipeline 7 (does not divide 96 layers)', { tensor: 8, pipeline: 7 }],
  ])('%s is ok: false with the same answer (reason, message, issues) as the estimate gives', async (_, parallelism) => {
    const body = JSON.stringify({ ...CONTRACT_EXAMPLE, parallelism });
    const memory = await (await post('/v1/memory', body)).json() as { ok: boolean; reason: string };
    const estimate = await (await post('/v1/estimate', body)).json() as { ok: boolean; reason: string };
    expect(estimate.ok).toBe(false);
    expect(memory).toEqual(estimate);
  });
  it('a bad field is a 400', async () => {
    expect((await post('/v1/memory', JSON.stringify({ ...CONTRACT_EXAMPLE, cluster: {} }))).status).toBe(400);
  });
});

describe('an array with a malformed scenario', () => {
  const scenarios = [
    { model: 'gpt3-126m', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 8 } },
    { model: 'gpt3-126m', cluster: { gpu: 'a100-80gb', nodes: -1 }, training: { globalBatchSize: 8 } },
    { model: 'nope', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 8 } },
  ];
  it.each(['/v1/estimate', '/v1/memory'])('%s answers every slot: the valid ones, and the bad ones ok false and invalid naming [i] and the field, as runEstimate does', async (path) => {
    const res = await post(path, JSON.stringify(scenarios));
    expect(res.status).toBe(200);
    const answers = await res.json() as { ok: boolean; reason?: string; issues?: { path: string }[] }[];
    expect(answers.map((a) => a.ok)).toEqual([true, false, false]);
    expect(answers[1]).toMatchObject({ reason: 'invalid', issues: [{ path: '[1].cluster.nodes' }] });
    // A schema fault (nodes −1) and a preset lookup (an unknown model) come back alike, each in its slot.
    expect(answers[2]).toMatchObject({ reason: 'invalid', issues: [{ path: '[2].model' }] });
    expect(answers.slice(1)).toEqual((runEstimate(scenarios) as unknown[]).slice(1));
  });
  it.each(['/v1/estimate', '/v1/memory'])('%s: an empty array is a 400, said as the CLI refuses it (runEstimate)', async (path) => {
    const res = await post(path, '[]');
    expect(res.status).toBe(400);
    // QA: the API said "expected an array of 1 to 1024 scenarios, got 0", the CLI "expected a scenario or a non-empty array of scenarios".
    const cli = runEstimate([]) as { message: string };
    expect(cli.message).toBe('expected a scenario or a non-empty array of scenarios, got an empty array');
    expect((await res.json() as { issues: { message: string }[] }).issues).toEqual([{ path: '', message: cli.message }]);
  });
  it('one malformed scenario alone is still a 400 naming the field', async () => {
    const res = await post('/v1/estimate', JSON.stringify(scenarios[1]));
    expect(res.status).toBe(400);
    expect((await res.json() as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['cluster.nodes']);
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with every POST operation and the preset routes', async () => {
    const doc = await (await app.request('/openapi.json')).json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const op of POST_OPERATIONS) expect(doc.paths[op.path]?.post).toBeDefined();
    for (const path of ['/v1/presets', '/v1/presets/gpus', '/v1/presets/systems', '/v1/presets/networks', '/v1/presets/models',
      '/v1/presets/gpus/{id}', '/v1/presets/systems/{id}', '/v1/presets/networks/{id}', '/v1/presets/models/{id}']) {
      expect(doc.paths[path]?.get).toBeDefined();
    }
  });
  it("publishes for /v1/estimate the very JSON Schema the validator is built from, and its example validates", async () => {
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: object; example: unknown }> } } }> };
    const media = doc.paths['/v1/estimate']!.post.requestBody.content['application/json']!;
    const { $schema: _, $id: _id, ...published } = scenariosJsonSchema;
    expect(media.schema).toEqual(published);
    expect(validateScenario(media.example).ok).toBe(true);
    expect(Object.keys(doc.paths['/v1/estimate']!.post.requestBody.content)).toContain('application/msgpack');
  });
  it('every request and response schema compiles in a JSON Schema 2020-12 validator: no $id names two schemas', async () => {
    // The toolkit's schemas carry an $id; the document holds each several times (JSON and MessagePack,
    // /v1/estimate's one-or-array twice in one schema), and a validator refuses an $id it meets twice.
    type Media = Record<string, { schema: object }>;
    const doc = await (await app.request('/openapi.json')).json() as { paths: Record<string, Record<string, {
      requestBody?: { content: Media }; responses: Record<string, { content?: Media }>;
    }>> };
    const schemas = Object.values(doc.paths).flatMap(operationsOf).flatMap((op) => [
      ...Object.values(op.requestBody?.content ?? {}), ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {})),
    ]).map((media) => media.schema).filter((schema) => !('$ref' in schema));
    expect(schemas.length).toBeGreaterThan(40);
    for (const schema of schemas) expect(() => new Ajv2020({ strict: false }).compile(schema)).not.toThrow();
    const ids = JSON.stringify(doc).match(/"\$id":/g) ?? [];
    expect(ids).toEqual([]);
  });
});

describe('GET /docs', () => {
  it('is a self-contained page: no script, style or font from another host', async () => {
    const res = await app.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('openapi.json');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//i);
  });
  it('with a trailing slash redirects there permanently, not a 404', async () => {
    const res = await app.request('/docs/');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/docs');
  });
});

describe('never a 500 for anything a client sends', () => {
  it('arbitrary JSON bodies on every POST route get 200, 400 or 413', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...POST_OPERATIONS.map((o) => o.path)), async (value, path) => {
      const res = await post(path, JSON.stringify(value));
      expect([200, 400, 413, 422]).toContain(res.status);
    }), { numRuns: 150 });
  });
  it('arbitrary bytes as MessagePack get 200, 400 or 422', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
      const res = await post('/v1/estimate', bytes, { 'content-type': 'application/msgpack' });
      expect([200, 400, 422]).toContain(res.status);
    }), { numRuns: 150 });
  });
  it.each(POST_OPERATIONS.map((o) => [o.path]))('%s: 30,000 nested arrays (JSON) or maps (MessagePack) are refused, not a stack overflow', async (path) => {
    const deepJson = '['.repeat(30_000) + ']'.repeat(30_000);
    const res = await post(path, deepJson);
    // An array of scenarios answers its one item, itself no scenario, in its slot (/v1/estimate, /v1/memory); elsewhere a 400.
    if (res.status === 200) expect(await res.json()).toMatchObject([{ ok: false, reason: 'invalid', issues: [{ path: '[0]' }] }]);
    else expect(res.status).toBe(400);
    const deepPack = new Uint8Array(30_001).fill(0x81); // fixmap of one entry, nested: keys and values never end
    expect((await post(path, deepPack, { 'content-type': 'application/msgpack' })).status).toBe(400);
  });
  it('a body declared over the limit is refused as 413 before it is read', async () => {
    const res = await post('/v1/estimate', json, { 'content-type': 'application/json', 'content-length': String(1 << 20) });
    expect(res.status).toBe(413);
  });
});

describe('problem documents stay within the published Problem schema (issues ≤ 1,024, detail ≤ 1,024 characters)', () => {
  const problemSchema = async () => {
    const doc = await (await app.request('/openapi.json')).json() as { components: { schemas: { Problem: object } } };
    return new Ajv2020({ strict: false }).compile(doc.components.schemas.Problem);
  };
  const junk = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`junk${i}`, 0]));
  it('a scenario of 153 issues is a 400 listing 100 of them and a count of the rest', async () => {
    const res = await post('/v1/estimate', JSON.stringify(junk));
    expect(res.status).toBe(400);
    const problem = await res.json() as { issues: { path: string; message: string }[] };
    expect((await problemSchema())(problem)).toBe(true);
    expect(problem.issues).toHaveLength(101);
    expect(problem.issues.at(-1)).toEqual({ path: '', message: '53 more issues not shown' });
  });
  it('1,001 bad scenarios in an array are each answered in its slot, ok false and invalid, each listing at most 100 issues and a count', async () => {
    const res = await post('/v1/estimate', JSON.stringify([{}, junk, ...Array(999).fill({}), CONTRACT_EXAMPLE]));
    expect(res.status).toBe(200);
    const answers = await res.json() as { ok: boolean; reason?: string; issues?: { path: string; message: string }[] }[];
    expect(answers).toHaveLength(1002);
    expect(answers.slice(0, 1001).every((a) => !a.ok && a.reason === 'invalid' && a.issues!.length <= 101)).toBe(true);
    expect(answers[1]!.issues!.at(-1)).toEqual({ path: '[1]', message: '53 more issues not shown' });
    // The well-formed scenario after them is answered as on its own.
    expect(answers[1001]).toMatchObject({ ok: true });
  });
  it('a 415 says a 3,000-character Content-Type back cut to its start and its length', async () => {
    const res = await post('/v1/estimate', json, { 'content-type': `text/${'x'.repeat(3000)}` });
    expect(res.status).toBe(415);
    const problem = await res.json() as { detail: string };
    expect((await problemSchema())(problem)).toBe(true);
    expect(problem.detail).toMatch(/, not text\/x+… \(3,005 characters\)$/);
  });
});

describe('the OpenAPI document names the statuses and problem fields the server sends (QA: 405, allow, limitBytes, limit)', () => {
  it('GET on a POST route is a 405 whose allow field the Problem schema documents, and every operation lists 405', async () => {
    const doc = await (await app.request('/openapi.json')).json() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>; components: { schemas: { Problem: { properties: Record<string, unknown> } } };
    };
    const res = await app.request('/v1/estimate');
    expect(res.status).toBe(405);
    const problem = await res.json() as { allow: string[] };
    expect(problem.allow.join(', ')).toBe(res.headers.get('allow'));
    for (const field of ['allow', 'limitBytes', 'limit', 'max', 'requested']) expect(doc.components.schemas.Problem.properties, field).toHaveProperty(field);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of operationsOf(item)) expect(op.responses, `${op.operationId} ${path}`).toHaveProperty('405');
    }
  });
});

describe('a bug of ours: a 500 the client can quote and the log can find', () => {
  const broken = { ...POST_OPERATIONS[0]!, path: '/v1/broken' as const, operationId: 'broken', run: () => { throw new Error('boom at the core'); } };
  const logged: { error: unknown; id: string; method: string; path: string }[] = [];
  const buggy = createApi({ operations: [broken], logError: (error, request) => logged.push({ error, ...request }) });

  it('answers 500 with an id (RFC 9457 instance) and no trace of the error, and logs the error under the same id', async () => {
    const res = await buggy.request('/v1/broken', { method: 'POST', body: json, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(500);
    const body = await res.json() as { instance: string; detail: string };
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/boom|at the core|\.ts/);
    expect(body.instance).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(logged).toHaveLength(1);
    expect(body.instance).toBe(`urn:uuid:${logged[0]!.id}`);
    expect(body.detail).toContain(logged[0]!.id);
    expect(logged[0]).toMatchObject({ method: 'POST', path: '/v1/broken' });
    expect((logged[0]!.error as Error).message).toBe('boom at the core');
  });

  it('gives each failure its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await buggy.request('/v1/broken', { method: 'POST', body: json, headers: { 'content-type': 'application/json' } });
      ids.add(((await res.json()) as { instance: string }).instance);
    }
    expect(ids.size).toBe(3);
  });
});
