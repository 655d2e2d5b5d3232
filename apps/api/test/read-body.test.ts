import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { createApi, MAX_BODY_BYTES } from '../src/index.ts';

const app = createApi();
const CHUNK_BYTES = 64 * 1024;
const MiB = 1024 * 1024;

/**
 * A body streamed without a Content-Length (as chunked uploads arrive), each chunk a fresh buffer;
 * records how many bytes the server pulled and the external memory (ArrayBuffers) when it had pulled
 * them all. That figure is process-wide (other test files' threads allocate too), so it is read once, at
 * the end, where a server that buffered the body would hold all of it, not as a peak any thread can raise.
 */
function streamed(totalBytes: number, fill: (chunk: Uint8Array, offset: number) => void = (c) => c.fill(0x20)) {
  const seen = { pulledBytes: 0, startBuffers: process.memoryUsage().arrayBuffers, endBuffers: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulledBytes >= totalBytes) {
        seen.endBuffers = process.memoryUsage().arrayBuffers;
        return controller.close();
      }
      const chunk = new Uint8Array(Math.min(CHUNK_BYTES, totalBytes - seen.pulledBytes));
      fill(chunk, seen.pulledBytes);
      seen.pulledBytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { body, seen };
}

const post = (body: ReadableStream<Uint8Array>) =>
  app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);

describe('request bodies without a Content-Length', () => {
  it('a 256 MiB streamed body is refused as 413 without being held: memory grows by far less than the body', async () => {
    const total = 256 * MiB;
    const { body, seen } = streamed(total);
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { limitBytes: number }).limitBytes).toBe(MAX_BODY_BYTES);
    expect(seen.pulledBytes).toBe(total);
    // Buffering it whole would hold all 256 MiB at the end; dropped chunks are collected as it goes.
    expect(seen.endBuffers).toBeGreaterThan(0); // read at the final pull, which the server makes to see the end
    expect(seen.endBuffers - seen.startBuffers).toBeLessThan(total / 4);
  });
  it('a streamed body within the limit is read whole and answered', async () => {
    const text = new TextEncoder().encode(JSON.stringify(CONTRACT_EXAMPLE));
    const { body } = streamed(text.byteLength, (chunk, offset) => chunk.set(text.subarray(offset, offset + chunk.byteLength)));
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
  it('a streamed body of exactly the limit is not refused for its size', async () => {
    const { body } = streamed(MAX_BODY_BYTES); // spaces only: not JSON, so a 400, but never a 413
    expect((await post(body)).status).toBe(400);
  });
  it('one byte past the limit is a 413', async () => {
    const { body } = streamed(MAX_BODY_BYTES + 1);
    expect((await post(body)).status).toBe(413);
  });
});

describe('a body that does not parse says why (400 problem+json)', () => {
  const send = (path: string, body: BodyInit, type = 'application/json') => app.request(path, { method: 'POST', body, headers: { 'content-type': type } });
  const detail = async (res: Response) => {
    expect(res.status).toBe(400);
    return ((await res.json()) as { issues: { path: string; message: string }[] }).issues;
  };
  it.each([
    ['/v1/estimate', '', 'the body is empty (expected a scenario as JSON)'],
    ['/v1/inference', '', 'the body is empty (expected an inference request as JSON)'],
    // Where the JSON breaks, as the CLI's --input says it (a trailing comma at offset 21).
    ['/v1/estimate', '{"model":"gpt3-175b",}', "the body is not valid JSON (unexpected '}' at position 21, line 1, column 22)"],
    ['/v1/search', '{\n  "model": "gpt3-175b",\n', 'the body is not valid JSON (unexpected end of input at position 26, line 3, column 1)'],
    ['/v1/estimate', new Uint8Array([0x7b, 0xff, 0x7d]), 'the body is not valid UTF-8 (JSON is UTF-8 text: RFC 8259 §8.1)'],
  ])('POST %s with %j', async (path, body, message) => {
    expect(await detail(await send(path, body))).toEqual([{ path: '', message }]);
  });
  it('an empty or truncated MessagePack body names MessagePack (an array of 2 with 1 item)', async () => {
    expect(await detail(await send('/v1/estimate', '', 'application/msgpack'))).toEqual([{ path: '', message: 'the body is empty (expected a scenario as MessagePack)' }]);
    expect(await detail(await send('/v1/estimate', new Uint8Array([0x92, 0x01]), 'application/msgpack'))).toEqual([{ path: '', message: 'the body is not valid MessagePack: it ends before its last value (after 2 bytes)' }]);
  });
});

describe('a MessagePack value JSON has no equivalent of is named where it is (400)', () => {
  const send = (path: string, body: Uint8Array<ArrayBuffer>) => app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/msgpack' } });
  const scenario = (model: unknown) => ({ model, cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } });
  // A JavaScript client's encoder, which packs a Uint8Array as bin and a Date as a timestamp (the API's own
  // encoder writes JSON values alone); configured as the API configured it when msgpackr was its codec.
  const client = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false, int64AsType: 'number', structuredClone: false });
  const pack = (value: unknown) => new Uint8Array(client.pack(value));
  const SEND = 'which JSON has no equivalent of: send a string, number, boolean, nil, array or map';
  it.each([
    // A Python client packing bytes with use_bin_type (the default): bin 8, 0xc4. Before: read as an object
    // with keys '0' … '8', so "model.layers: missing required field" and 13 more about fields never sent.
    ['the model id as bytes (bin 8)', '/v1/estimate', pack(scenario(new TextEncoder().encode('gpt3-175b'))), 'model', `binary data (bin, 9 bytes), ${SEND}`],
    // A timestamp (ext −1). Before: an object with no keys, so again five missing model fields.
    ['a timestamp', '/v1/estimate', pack(scenario(new Date(0))), 'model', `a timestamp (ext -1), ${SEND}`],
    ['bytes at the top', '/v1/search', pack(new Uint8Array(3)), '', `binary data (bin, 3 bytes), ${SEND}`],
    // ext 0 (fixext 1, type 0, one byte): msgpackr and notepack read it as undefined.
    ['an ext 0 in an array', '/v1/collective', new Uint8Array([0x81, 0xa5, ...new TextEncoder().encode('sizes'), 0x92, 0x01, 0xd4, 0x00, 0x00]), 'sizes[1]', `an extension value (ext 0), ${SEND}`],
  ])('%s (POST %s)', async (_, path, body, at, message) => {
    const res = await send(path, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: unknown[] }).issues).toEqual([{ path: at, message }]);
  });
});

describe('a content-coded body (Content-Encoding) is a 415 naming the coding, not a body that "does not parse"', () => {
  const json = JSON.stringify(CONTRACT_EXAMPLE);
  const gzipped = async (text: string) =>
    new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
  const send = (body: BodyInit, coding: string) =>
    app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-encoding': coding } });
  it.each(['gzip', 'br', 'gzip, identity'])('Content-Encoding: %s → 415 with Accept-Encoding: identity (RFC 9110 §15.5.16)', async (coding) => {
    // Before: 400 "the body is not valid UTF-8", of bytes the client had compressed on purpose.
    const res = await send(await gzipped(json), coding);
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    const problem = (await res.json()) as { title: string; detail: string };
    expect(problem.title).toBe('Unsupported Media Type');
    expect(problem.detail).toBe(`the body is content-coded (Content-Encoding: ${coding}); send it uncompressed`);
  });
  it('Content-Encoding: identity is no coding: answered', async () => {
    expect((await send(json, 'identity')).status).toBe(200);
  });
});
