import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi, encodeMsgpack, MAX_BODY_BYTES } from '@trainplan/api';
import { createChatApp, MAX_CHAT_BODY_BYTES } from '@trainplan/chatops';
import { formatPath } from '@trainplan/protocol';
import {
  caseCounter, calibrateRequestBudget, checkAnswer, HEAVIEST_RATIO, exchange, requestBudgetMs, hostileScalar, hostileText, hostileValue, mutationsOf, relatedPaths,
  type Exchange, type ProblemJson,
} from '../src/index.ts';

/**
 * Issue 8, "bad input, everywhere": every HTTP endpoint of the API, in process, under random and
 * malformed requests. The POST operations are read from the API's own OpenAPI document, so an
 * endpoint added later is fuzzed without touching this file.
 */
const counter = caseCounter('http-fuzz');

// The chat bot is mounted as infra/node mounts it, with secrets set, so its requests reach verification.
const discordPublicKeyHex = (generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }) as Buffer)
  .subarray(-32).toString('hex');
const ENV = { SLACK_SIGNING_SECRET: 'fuzz-signing-secret-0123456789', DISCORD_PUBLIC_KEY: discordPublicKeyHex };
const app = createApi({ mounts: [{ path: '/v1/chat', app: createChatApp() }] });

interface OpenApiOperation {
  requestBody?: { content: Record<string, { example?: unknown; schema?: { properties?: Record<string, unknown> } }> };
}
const document = JSON.parse((await exchange(app, '/openapi.json')).text) as { paths: Record<string, { get?: OpenApiOperation; post?: OpenApiOperation }> };
const postPaths = Object.entries(document.paths).filter(([, item]) => item.post).map(([path, item]) => {
  const content = item.post?.requestBody?.content['application/json'];
  return { path, example: content?.example, fields: Object.keys(content?.schema?.properties ?? {}) };
});
const getPaths = Object.entries(document.paths).filter(([, item]) => item.get).map(([path]) => path);
// The time bound is a ratio to the heaviest valid request, timed here: the search example at the cap.
const searchExample = postPaths.find((p) => p.path === '/v1/search')?.example;
if (searchExample === undefined) throw new Error('the OpenAPI document has no /v1/search example to calibrate the time bound on');
const budgetMs = await calibrateRequestBudget(() => exchange(app, '/v1/search', { method: 'POST', body: JSON.stringify(searchExample), headers: { 'content-type': 'application/json' } }, ENV));
console.log(`[http-fuzz] time bound per request: ${budgetMs.toFixed(0)} ms (${HEAVIEST_RATIO}× the slowest of 3 runs of the search example)`);

/**
 * The body damaged by the mutation fuzz: the document's example, with the search space narrowed where
 * the endpoint takes constraints (a full search at the API's cap costs ~200 ms; narrowed, a few ms),
 * so thousands of mutations fit in the suite's time. Every field of the example is still mutated.
 */
const CHEAP_CONSTRAINTS = { maxTensor: 8, maxPipeline: 8, maxContext: 1, maxVirtualStages: 1, microBatchSizes: [1], recompute: ['full'] };
const baseBody = (op: (typeof postPaths)[number]): unknown =>
  op.fields.includes('constraints') && typeof op.example === 'object' ? { ...op.example, constraints: CHEAP_CONSTRAINTS } : op.example;

const JSON_HEADERS = { 'content-type': 'application/json' };
const post = (path: string, body: BodyInit, headers: Record<string, string> = JSON_HEADERS) =>
  exchange(app, path, { method: 'POST', body, headers }, ENV);

/** The answer checks every request gets (../src/http.ts), plus: a POST answers 200, 400, 413, 415 or 422 only. */
function checkPost(what: string, x: Exchange): unknown {
  counter.add();
  const body = checkAnswer(what, x);
  expect([200, 400, 413, 415, 422], `${what} → ${x.status}: ${x.text.slice(0, 200)}`).toContain(x.status);
  return body;
}

const ops = postPaths.map((op) => [op.path, op] as const);

describe('the OpenAPI document lists every POST operation with a valid example', () => {
  it('at least the seven endpoints of issues 3–7, each example answered 200', async () => {
    expect(postPaths.map((p) => p.path)).toEqual(expect.arrayContaining(
      ['/v1/estimate', '/v1/memory', '/v1/collective', '/v1/search', '/v1/nodes', '/v1/scale', '/v1/inference'],
    ));
    for (const op of postPaths) {
      expect(op.example, op.path).toBeDefined();
      for (const body of [op.example, baseBody(op)]) {
        const x = await post(op.path, JSON.stringify(body));
        checkPost(op.path, x);
        expect(x.status, `${op.path}: ${x.text.slice(0, 300)}`).toBe(200);
      }
    }
  });
});

describe.each(ops)('POST %s under hostile input', (path, op) => {
  it('any JSON value: no 5xx, within the time budget, a 400 names its fields', async () => {
    await fc.assert(fc.asyncProperty(hostileValue, async (value) => {
      checkPost(path, await post(path, JSON.stringify(value) ?? 'null'));
    }), { numRuns: 250 });
  });

  it('one damaged field of the example: refused with an issue at that field, its parent or a child', async () => {
    const base = baseBody(op);
    let refused = 0;
    await fc.assert(fc.asyncProperty(mutationsOf(base), async ({ body, path: damagedPath }) => {
      const damaged = formatPath([...damagedPath]);
      const x = await post(path, JSON.stringify(body));
      const answer = checkPost(`${path} ${damaged}`, x);
      if (x.status !== 400) return;
      refused += 1;
      const issues = (answer as ProblemJson).issues ?? [];
      expect(issues.some((i) => relatedPaths(i.path, damaged)), `${path} ${damaged}: ${JSON.stringify(issues).slice(0, 400)}`).toBe(true);
    }), { numRuns: 300 });
    expect(refused).toBeGreaterThan(60);
  });

  it('text that is not JSON, or JSON of the wrong kind: 400 or an answer, never a 5xx', async () => {
    await fc.assert(fc.asyncProperty(hostileText, async (text) => {
      checkPost(path, await post(path, text));
    }), { numRuns: 150 });
  });

  it('MessagePack: a damaged example answers as its JSON twin does; random and truncated bytes are a 400', async () => {
    const msgpack = { 'content-type': 'application/msgpack' };
    const valid = encodeMsgpack(baseBody(op));
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.integer({ min: 0, max: valid.length - 1 }).map((n) => valid.slice(0, n)),
      fc.tuple(fc.integer({ min: 0, max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
        const copy = valid.slice();
        copy[i] = b;
        return copy;
      }),
    );
    await fc.assert(fc.asyncProperty(bytes, async (b) => {
      const x = await post(path, b, msgpack);
      checkPost(`${path} msgpack`, x);
      expect([200, 400, 422]).toContain(x.status);
    }), { numRuns: 150 });
    await fc.assert(fc.asyncProperty(mutationsOf(baseBody(op)), async ({ body }) => {
      const viaJson = await post(path, JSON.stringify(body));
      const viaMsgpack = await post(path, encodeMsgpack(body), msgpack);
      checkPost(`${path} msgpack`, viaMsgpack);
      expect(viaMsgpack.status, `${path}: ${viaMsgpack.text.slice(0, 200)}`).toBe(viaJson.status);
    }), { numRuns: 60 });
  });

  it('a wrong or odd Content-Type: 415 unless it names JSON or MessagePack', async () => {
    const type = fc.oneof(
      fc.constantFrom('text/plain', '', 'application/xml', 'multipart/form-data; boundary=x', 'application/json-patch+json',
        'application/x-www-form-urlencoded', 'application/jsonx', 'json', '*/*', 'APPLICATION/JSON', ' application/json ;charset=utf-8',
        'application/msgpack; q=0', 'application/x-msgpack'),
      fc.string({ maxLength: 40 }).filter((s) => !/[\r\n\0]/.test(s)),
    );
    await fc.assert(fc.asyncProperty(type, async (contentType) => {
      let x: Exchange;
      try {
        x = await post(path, JSON.stringify(op.example), { 'content-type': contentType });
      } catch (e) {
        // A header value no HTTP client can send (the Headers class refuses it): nothing reaches the app.
        expect(String(e)).toMatch(/header|Headers|invalid/i);
        counter.add();
        return;
      }
      checkPost(`${path} content-type ${JSON.stringify(contentType)}`, x);
      const media = contentType.split(';')[0]!.trim().toLowerCase();
      const known = media === 'application/json' || media === 'application/msgpack' || media === 'application/x-msgpack';
      if (!known) expect(x.status).toBe(415);
    }), { numRuns: 80 });
  });

  it('a body over the limit is 413 before anything parses it; deep nesting is a 400', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: MAX_BODY_BYTES + 1, max: 3 * MAX_BODY_BYTES }), async (size) => {
      const x = await post(path, `{"model":"${'x'.repeat(size - 12)}"}`);
      checkPost(path, x);
      expect(x.status).toBe(413);
    }), { numRuns: 10 });
    const deep = [
      '['.repeat(30_000) + ']'.repeat(30_000),
      '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
      `{"model":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    ];
    for (const text of deep) checkPost(path, await post(path, text));
    // {"model": [[[…1…]]]} 20,000 deep, written byte by byte (msgpack.org spec: fixmap 0x81, fixstr 0xa5,
    // fixarray-of-one 0x91, positive fixint 0x01): an encoder would overflow its own stack first.
    const nested = new Uint8Array([0x81, 0xa5, ...new TextEncoder().encode('model'), ...new Array<number>(20_000).fill(0x91), 0x01]);
    const x = await post(path, nested, { 'content-type': 'application/msgpack' });
    checkPost(`${path} nested msgpack`, x);
  });
});

describe('work a request cannot buy', () => {
  // Found by this fuzzer: emulating these ran the server out of memory (65,536 nodes) or for a minute
  // (a 4,096-node all-to-all) before the event budget refused them. The emulator now refuses them
  // early (packages/collectives' own tests), and over HTTP the node-sizes limit refuses them first.
  it.each([
    { op: 'all-reduce', gpu: 'h100-sxm', nodes: 65_536, emulate: true },
    { op: 'all-to-all', gpu: 'h100-sxm', nodes: 4_096, emulate: true, size: 1_048_576 },
    { op: 'all-gather', gpu: 'a100-80gb', nodes: 65_536, emulate: true, algorithm: 'ring' },
  ])('emulating %j is refused (422, naming the emulatedNodeSizes limit) within the time budget', async (body) => {
    const x = await post('/v1/collective', JSON.stringify(body));
    const problem = checkPost('/v1/collective', x) as ProblemJson & { limit?: string };
    expect(x.status).toBe(422);
    expect(problem.limit).toBe('emulatedNodeSizes');
  });
});

describe('any path, any method', () => {
  const known = [...postPaths.map((p) => p.path), ...getPaths.map((p) => p.replace('{id}', 'gpt3-175b')), '/', '/v1/chat/slack', '/v1/chat/discord'];
  const segment = fc.oneof(fc.constantFrom('v1', 'presets', 'models', 'gpus', '..', '%2e%2e', '', 'estimate', 'chat'), hostileScalar.map((v) => String(v).slice(0, 300)));
  const path = fc.oneof(
    fc.constantFrom(...known),
    fc.tuple(fc.constantFrom(...known), fc.array(segment, { maxLength: 3 })).map(([p, rest]) => [p, ...rest.map(encodeURIComponent)].join('/')),
    fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/${s.map(encodeURIComponent).join('/')}`),
  );
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');

  it('no 5xx and within the time budget; an unknown route is a 404 problem', async () => {
    await fc.assert(fc.asyncProperty(method, path, fc.option(hostileText, { nil: undefined }), async (m, p, body) => {
      const init: RequestInit = { method: m, headers: JSON_HEADERS };
      if (body !== undefined && m !== 'GET' && m !== 'HEAD') init.body = body;
      const x = await exchange(app, p, init, ENV);
      counter.add();
      if (m === 'HEAD') {
        // No body to read: the status and the time are what a HEAD can show.
        expect(x.status, `HEAD ${p}`).toBeLessThan(500);
        expect(x.ms).toBeLessThan(requestBudgetMs());
        return;
      }
      checkAnswer(`${m} ${p}`, x);
    }), { numRuns: 500 });
  });

  it('every GET of the document, with hostile ids, Accept and If-None-Match headers', async () => {
    const header = fc.oneof(fc.constantFrom('*', '""', 'W/"x"', 'application/msgpack;q=2', 'application/msgpack;q=NaN', '*/*'), fc.string({ maxLength: 60 }).filter((s) => !/[\r\n\0]/.test(s)));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...getPaths), hostileScalar, header, header, async (p, id, accept, ifNoneMatch) => {
      const target = p.replace('{id}', encodeURIComponent(String(id).slice(0, 300)));
      const x = await exchange(app, target, { headers: { accept, 'if-none-match': ifNoneMatch } }, ENV);
      counter.add();
      checkAnswer(`GET ${target}`, x);
      expect([200, 304, 404]).toContain(x.status);
    }), { numRuns: 200 });
  });
});

describe('the chat bot refuses every unsigned or badly signed request', () => {
  const headerValue = fc.oneof(hostileScalar.map((v) => String(v).slice(0, 200)), fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 128, maxLength: 128 }), fc.constant(String(Math.floor(Date.now() / 1000))));
  const cases = fc.record({
    platform: fc.constantFrom('slack', 'discord'),
    body: fc.oneof(hostileText, fc.constant('type=1'), fc.constant('{"type":1}'), fc.constant('{"type":2,"data":{"options":[{"name":"question","value":"175B on 1024 A100"}]}}')),
    timestamp: fc.option(headerValue, { nil: undefined }),
    signature: fc.option(fc.oneof(headerValue, headerValue.map((v) => `v0=${v}`)), { nil: undefined }),
    rightType: fc.boolean(),
  });
  it('random bodies and signatures: 401 (415 for another media type), never an answer, never a 5xx', async () => {
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const contentType = c.platform === 'slack' ? 'application/x-www-form-urlencoded' : 'application/json';
      const headers: Record<string, string> = { 'content-type': c.rightType ? contentType : 'text/plain' };
      const safe = (v: string | undefined) => (v === undefined ? undefined : v.replace(/[\r\n\0]/g, ''));
      const ts = safe(c.timestamp);
      const sig = safe(c.signature);
      if (c.platform === 'slack') {
        if (ts !== undefined) headers['x-slack-request-timestamp'] = ts;
        if (sig !== undefined) headers['x-slack-signature'] = sig;
      } else {
        if (ts !== undefined) headers['x-signature-timestamp'] = ts;
        if (sig !== undefined) headers['x-signature-ed25519'] = sig;
      }
      let x: Exchange;
      try {
        x = await post(`/v1/chat/${c.platform}`, c.body, headers);
      } catch (e) {
        expect(String(e)).toMatch(/header|Headers|invalid|ByteString/i);
        counter.add();
        return;
      }
      counter.add();
      expect(x.status, x.text).toBeLessThan(500);
      expect(x.ms).toBeLessThan(requestBudgetMs());
      const oversized = new TextEncoder().encode(c.body).byteLength > MAX_CHAT_BODY_BYTES;
      expect(x.status, `${c.platform}: ${x.text}`).toBe(!c.rightType ? 415 : oversized ? 413 : 401);
    }), { numRuns: 400 });
  });
});

afterAll(() => {
  // Issue 8: at least 10,000 generated cases per run across test/fuzz (see ../src/case-count.ts).
  expect(counter.count).toBeGreaterThanOrEqual(counter.floor);
});
