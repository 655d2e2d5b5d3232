import { brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { createApi, decodeMsgpack } from '@trainplan/api';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, compressResponse, gzipLevel, preferredCoding } from '../src/compress.ts';

// The API's answers passed through compressResponse (its conditional requests and HEADs: compressing.test.ts).
const app = createApi();
async function get(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
  const request = new Request(`http://127.0.0.1${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
  const response = await compressResponse(request, await app.fetch(request.clone()));
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}
const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;
const post = (body: unknown, headers: Record<string, string> = {}): RequestInit =>
  ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

describe('the coding an Accept-Encoding asks for (RFC 9110 §12.5.3)', () => {
  it.each([
    [null, undefined], // no header: sent as it is
    ['', undefined],
    ['identity', undefined],
    ['deflate', undefined], // not offered: zlib-wrapped deflate is too often misread
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZip', 'gzip'],
    ['gzip, deflate', 'gzip'], // what Node's fetch sends over http
    ['gzip, deflate, br, zstd', 'br'], // curl --compressed: br and gzip tie, br is smaller
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.5', 'gzip'],
    ['br;q=0, *', 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('answers compressed where the client takes br or gzip', () => {
  it.each(['br', 'gzip'] as const)('GET /openapi.json as %s decodes to the very bytes sent without Accept-Encoding, and is a twentieth of them or less', async (coding) => {
    const plain = await get('/openapi.json');
    const coded = await get('/openapi.json', { 'accept-encoding': coding });
    expect(coded.response.headers.get('content-encoding')).toBe(coding);
    expect(decode[coding](coded.bytes).equals(plain.bytes)).toBe(true);
    expect(coded.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 10);
    // Neither states a length the body does not have.
    expect(coded.response.headers.get('content-length') ?? String(coded.bytes.byteLength)).toBe(String(coded.bytes.byteLength));
  });
  it('without Accept-Encoding the answer is sent as the API made it, strong ETag and all, yet says it varies by Accept-Encoding', async () => {
    const plain = await get('/openapi.json');
    const raw = Buffer.from(await (await app.request('/openapi.json')).arrayBuffer());
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.equals(raw)).toBe(true);
    expect(plain.response.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    expect(plain.response.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });
  it('a compressed answer is another representation: its ETag is the same tag, weak, and Vary keeps Accept', async () => {
    const plain = await get('/v1/presets/models');
    const coded = await get('/v1/presets/models', { 'accept-encoding': 'gzip' });
    expect(coded.response.headers.get('etag')).toBe(`W/${plain.response.headers.get('etag')}`);
    expect(coded.response.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });
  it('a POST answer, in MessagePack, and a problem document are compressed too', async () => {
    const search = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 3 };
    const packed = await get('/v1/search', {}, post(search, { accept: 'application/msgpack', 'accept-encoding': 'br' }));
    expect(packed.response.headers.get('content-encoding')).toBe('br');
    expect((decodeMsgpack(brotliDecompressSync(packed.bytes)) as { ok: boolean }).ok).toBe(true);
    // One scenario with ten unknown fields: ten issues, a problem document over a kilobyte (in an array, each bad
    // scenario is answered in its slot, a 200).
    const junk = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`unknownField${i}`, 0]));
    const problem = await get('/v1/estimate', {}, post({ ...CONTRACT_EXAMPLE, ...junk }, { 'accept-encoding': 'gzip' }));
    expect(problem.response.status).toBe(400);
    expect(problem.response.headers.get('content-type')).toBe('application/problem+json');
    expect(problem.response.headers.get('content-encoding')).toBe('gzip');
    const text = gunzipSync(problem.bytes).toString();
    expect(text.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect((JSON.parse(text) as { issues: unknown[] }).issues).toHaveLength(10);
  });
  it(`an answer under ${COMPRESS_MIN_BYTES} bytes goes as it is (GET /healthz: 11)`, async () => {
    const { response, bytes } = await get('/healthz', { 'accept-encoding': 'br' });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(bytes.toString()).toBe('{"ok":true}');
  });
});

describe('gzip levels: JavaScript at 9, the rest at zlib\'s default', () => {
  it('a JavaScript module goes out as gzip at level 9 codes it, the size its budget is held to (QA: level 6 sent 80,011 B of an 80,000 B budget)', async () => {
    const source = new TextEncoder().encode(Array.from({ length: 4000 }, (_, i) => `export const f${i} = (x) => x * ${i % 97} + ${(i * 7919) % 1000};`).join('\n'));
    const request = new Request('http://127.0.0.1/widget.js', { headers: { 'accept-encoding': 'gzip' } });
    const answer = new Response(source, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    const coded = Buffer.from(await (await compressResponse(request, answer)).arrayBuffer());
    expect(coded.byteLength).toBe(gzipSync(source, { level: 9 }).byteLength);
    expect(coded.byteLength).toBeLessThan(gzipSync(source, { level: 6 }).byteLength);
    expect(Buffer.from(gunzipSync(coded)).equals(Buffer.from(source))).toBe(true);
  });
  it('JSON and the rest at the default level (the API\'s answers are coded per request)', () => {
    expect(gzipLevel('application/json')).toBe(constants.Z_DEFAULT_COMPRESSION);
    expect(gzipLevel(null)).toBe(constants.Z_DEFAULT_COMPRESSION);
    expect(gzipLevel('application/javascript')).toBe(9);
  });
});

describe('what compression leaves alone', () => {
  it('HEAD: the API\'s own answer, untouched', async () => {
    const request = new Request('http://127.0.0.1/openapi.json', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    const answer = await app.fetch(request);
    expect(await compressResponse(request, answer)).toBe(answer);
    expect(answer.headers.get('content-encoding')).toBeNull();
  });
  it('a 204 (a CORS preflight): untouched', async () => {
    const request = new Request('http://127.0.0.1/v1/estimate', { method: 'OPTIONS', headers: { 'accept-encoding': 'br', origin: 'https://blog.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    const answer = await app.fetch(request);
    expect(answer.status).toBe(204);
    expect(await compressResponse(request, answer)).toBe(answer);
    expect(answer.headers.get('vary')).not.toContain('Accept-Encoding');
  });
  it('Cache-Control: no-transform, a body coded already, and a type that is no text (an image) are sent as they are', async () => {
    const request = new Request('http://127.0.0.1/', { headers: { 'accept-encoding': 'gzip' } });
    const big = 'x'.repeat(4 * COMPRESS_MIN_BYTES);
    const cases: [Record<string, string>, string | null][] = [
      [{ 'content-type': 'application/json', 'cache-control': 'public, no-transform' }, null],
      [{ 'content-type': 'application/json', 'content-encoding': 'br' }, 'br'],
      [{ 'content-type': 'image/png' }, null],
    ];
    for (const [headers, coding] of cases) {
      const answer = await compressResponse(request, new Response(big, { headers }));
      expect(answer.headers.get('content-encoding')).toBe(coding);
      expect(await answer.text()).toBe(big);
    }
  });
});

describe('a response whose headers cannot change (as fetch makes them)', () => {
  it('is copied, told Vary, and compressed all the same', async () => {
    const text = JSON.stringify({ padding: 'x'.repeat(2 * COMPRESS_MIN_BYTES) });
    const fetched = () => fetch(`data:application/json,${encodeURIComponent(text)}`); // fetch's headers are immutable
    await expect(fetched().then((r) => r.headers.set('vary', 'x'))).rejects.toThrow(TypeError);
    const plain = await compressResponse(new Request('http://127.0.0.1/'), await fetched());
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(text);
    const coded = await compressResponse(new Request('http://127.0.0.1/', { headers: { 'accept-encoding': 'gzip' } }), await fetched());
    expect(coded.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await coded.arrayBuffer())).toString()).toBe(text);
  });
});
