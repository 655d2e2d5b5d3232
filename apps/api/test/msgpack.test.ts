import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MSGPACK_DEPTH, MessagePackError } from '../src/http/msgpack.ts';
import { createApi, decodeMsgpack, encodeMsgpack } from '../src/index.ts';

const app = createApi();

/** MessagePack's 64-bit integer families (spec: uint 64 = 0xcf, int 64 = 0xd3), big-endian, as a client writes them. */
function int64(marker: 0xcf | 0xd3, value: bigint): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(9);
  bytes[0] = marker;
  const view = new DataView(bytes.buffer);
  if (marker === 0xcf) view.setBigUint64(1, value);
  else view.setBigInt64(1, value);
  return bytes;
}

/** `bytes` with the first run of `find` replaced by `put`. */
function splice(bytes: Uint8Array, find: Uint8Array, put: Uint8Array): Uint8Array<ArrayBuffer> {
  const at = Buffer.from(bytes).indexOf(Buffer.from(find));
  expect(at).toBeGreaterThanOrEqual(0);
  return new Uint8Array([...bytes.subarray(0, at), ...put, ...bytes.subarray(at + find.byteLength)]);
}

describe('MessagePack integers past 32 bits', () => {
  // msgpack-python, Go's vmihailenco/msgpack and Rust's rmp write an integer over 2^32 − 1 as int 64 or
  // uint 64; JSON has one number type, so these are numbers, as JSON.parse reads "300000000000".
  it.each([
    { kind: 'uint 64', marker: 0xcf, value: 300_000_000_000n, number: 300e9 },
    { kind: 'int 64', marker: 0xd3, value: 300_000_000_000n, number: 300e9 },
    { kind: 'int 64', marker: 0xd3, value: -5_000_000_000n, number: -5e9 },
    { kind: 'uint 64', marker: 0xcf, value: 2n ** 53n, number: 2 ** 53 },
  ] as const)('$kind $value reads as the number $number, not a bigint', ({ marker, value, number }) => {
    expect(decodeMsgpack(int64(marker, value))).toBe(number);
  });
  it('a scenario whose training.tokens (300 billion) is a uint 64 is estimated, not refused as "a bigint"', async () => {
    // Packed with a 32-bit placeholder (uint 32, 0xce ffffffff), then that value rewritten as a client's uint 64.
    const placeholder = new Uint8Array([0xce, 0xff, 0xff, 0xff, 0xff]);
    const packed = encodeMsgpack({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, tokens: 0xffffffff } });
    const body = splice(packed, placeholder, int64(0xcf, 300_000_000_000n));
    const res = await app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': 'application/msgpack' } });
    const answer = (await res.json()) as { ok: boolean; issues?: unknown };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.ok).toBe(true);
    // The same answer as the JSON request with tokens 300e9 gets.
    const viaJson = await app.request('/v1/estimate', {
      method: 'POST', body: JSON.stringify({ ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, tokens: 300e9 } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer).toEqual(await viaJson.json());
  });
});

describe("msgpackr's structured-clone extension (shared and cyclic references) is not read", () => {
  // msgpackr's own ext 0x69 names the value after it, ext 0x70 points back at a named value: plain
  // MessagePack has neither, and they let a few hundred bytes stand for an exponential tree.
  const named = (id: number) => [0xd6, 0x69, 0, 0, 0, id];
  const pointer = (id: number) => [0xd6, 0x70, 0, 0, 0, id];
  /** An array of `levels` + 1 values, each level an array of 16 pointers to the one before: 16^levels leaves in 105 bytes a level. */
  function sharedTree(levels: number): number[] {
    const bytes = [0x90 + levels + 1, ...named(0), 0x91, 0x01];
    for (let level = 1; level <= levels; level++) {
      bytes.push(...named(level), 0xdc, 0x00, 0x10);
      for (let i = 0; i < 16; i++) bytes.push(...pointer(level - 1));
    }
    return bytes;
  }
  it('a cyclic value does not decode', () => {
    expect(() => decodeMsgpack(new Uint8Array([0x91, ...named(0), 0x91, ...pointer(0)]))).toThrow();
  });
  it('16^6 shared leaves in 640 bytes, one byte trailing, are a prompt 400 (before: 3.5 s of CPU, 1,270 bytes held Node past a minute)', async () => {
    // With a byte after the value, msgpackr's error message JSON-stringifies what it read: every leaf, synchronously.
    const body = new Uint8Array([...sharedTree(6), 0xc0]);
    expect(body.byteLength).toBe(640);
    const started = performance.now();
    const res = await app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': 'application/msgpack' } });
    const elapsedMs = performance.now() - started;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { message: string }[] }).issues[0]!.message).toMatch(/^the body is not valid MessagePack/);
    expect(elapsedMs).toBeLessThan(500);
  });
});

describe('a body that is not one MessagePack value, or nests too deeply, is refused for that', () => {
  const post = (body: Uint8Array<ArrayBuffer>) => app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': 'application/msgpack' } });
  const nested = (levels: number): Uint8Array<ArrayBuffer> => new Uint8Array([...new Array<number>(levels).fill(0x91), 0xc0]);

  it.each([
    ['the body', [0xc1]],
    ['a map value', [0x81, 0xa1, 0x61, 0xc1]],
    ['an array item', [0x92, 0x01, 0xc1]],
  ])('0xC1 (the spec\'s "never used") as %s is not valid MessagePack (before: "an extension value (msgpackr\'s Object)")', async (_, bytes) => {
    const body = new Uint8Array(bytes);
    expect(() => decodeMsgpack(body)).toThrow(MessagePackError);
    expect(() => decodeMsgpack(body)).toThrow(/^the body is not valid MessagePack: byte \d is 0xC1, which the MessagePack specification marks "never used"$/);
    const res = await post(body);
    expect(res.status).toBe(400);
    const issues = ((await res.json()) as { issues: { path: string; message: string }[] }).issues;
    expect(issues).toEqual([{ path: '', message: expect.stringMatching(/^the body is not valid MessagePack: byte \d is 0xC1/) }]);
  });

  it('over HTTP, a body nested too deeply is a 400 that says so (before: "the body is not valid MessagePack")', async () => {
    const res = await post(nested(60_000));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { message: string }[] }).issues[0]!.message).toBe(`the body is nested deeper than ${MAX_MSGPACK_DEPTH} levels`);
  });

  it(`${MAX_MSGPACK_DEPTH} levels of arrays decode; one more, or 60,000 (before: a RangeError, "not valid MessagePack"), is nested too deeply`, () => {
    expect(decodeMsgpack(nested(MAX_MSGPACK_DEPTH))).toBeDefined();
    for (const levels of [MAX_MSGPACK_DEPTH + 1, 60_000]) {
      expect(() => decodeMsgpack(nested(levels))).toThrow(new MessagePackError(`the body is nested deeper than ${MAX_MSGPACK_DEPTH} levels`));
    }
    // Maps count as arrays do: { a: { a: … } }.
    const maps = new Uint8Array([...Array.from({ length: MAX_MSGPACK_DEPTH + 1 }, () => [0x81, 0xa1, 0x61]).flat(), 0xc0]);
    expect(() => decodeMsgpack(maps)).toThrow(`nested deeper than ${MAX_MSGPACK_DEPTH} levels`);
  });

  it.each([
    ['cut inside a string', [0xa3, 0x61], /^the body is not valid MessagePack: it ends inside the value at byte 0$/],
    ['cut inside an array16 count', [0xdc, 0x00], /^the body is not valid MessagePack: it ends inside the value at byte 0$/],
    ['cut before an array\'s last item', [0x92, 0x01], /^the body is not valid MessagePack: it ends before its last value \(after 2 bytes\)$/],
    ['with bytes after its value', [0x80, 0xc0, 0xc0], /^the body is not valid MessagePack: 2 bytes follow its value$/],
    // Before: "1 bytes follow its value", "after 1 bytes".
    ['with one byte after its value', [0x80, 0x80], /^the body is not valid MessagePack: 1 byte follows its value$/],
    ['cut after one byte', [0x92], /^the body is not valid MessagePack: it ends before its last value \(after 1 byte\)$/],
  ])('a body %s is not valid MessagePack', (_, bytes, message) => {
    expect(() => decodeMsgpack(new Uint8Array(bytes))).toThrow(message);
  });

  it('every JSON value the API writes, of every MessagePack length format, reads back as it was (property)', () => {
    // Long strings, arrays and maps reach str 8/16, array 16 and map 16; integers and floats each width.
    const long = fc.oneof(fc.string({ minLength: 32, maxLength: 70_000 }), fc.array(fc.integer(), { minLength: 16, maxLength: 70_000 }),
      fc.dictionary(fc.string(), fc.double({ noNaN: true }), { minKeys: 16, maxKeys: 40 }));
    // "__proto__" keys included: they read back as own properties, as JSON.parse makes them (before, msgpackr
    // renamed one "__proto_", and this property had to leave them out).
    const values = fc.oneof(fc.jsonValue(), long, fc.maxSafeInteger(), fc.maxSafeNat());
    fc.assert(fc.property(values, (value) => {
      // Compared as JSON text: -0 is written as the integer 0, as JSON.stringify writes it "0".
      expect(JSON.stringify(decodeMsgpack(encodeMsgpack(value)))).toBe(JSON.stringify(value));
    }), { numRuns: 200 });
  });
});

describe('valid MessagePack that JSON has no equivalent of, which msgpackr could not build, is named where it is, as a timestamp is (400)', () => {
  const post = (path: string, body: Uint8Array<ArrayBuffer>) => app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/msgpack' } });
  const SEND = 'which JSON has no equivalent of: send a string, number, boolean, nil, array or map';
  const text = (s: string) => [0xa0 + s.length, ...new TextEncoder().encode(s)];
  /** `{ model: <value> }`, the rest of a scenario left out: the value is refused before the schema reads the body. */
  const asModel = (value: number[]) => new Uint8Array([0x81, ...text('model'), ...value]);
  it.each([
    // Before (each): "the body is not valid MessagePack", though every byte is MessagePack.
    ['a fixext 1 of application type 1', '/v1/estimate', [0xd4, 0x01, 0x00], '', `an extension value (ext 1), ${SEND}`],
    ['a map with a bin key', '/v1/estimate', [0x81, 0xc4, 0x01, 0x61, 0x01], '', `binary data (bin, 1 byte) as a map key, ${SEND}`],
    ['an ext 8 of type 5 as the model', '/v1/estimate', [...asModel([0xc7, 0x03, 0x05, 0x01, 0x02, 0x03])], 'model', `an extension value (ext 5), ${SEND}`],
    ['a fixext 4 of type -2 as the model', '/v1/estimate', [...asModel([0xd6, 0xfe, 0, 0, 0, 0])], 'model', `an extension value (ext -2), ${SEND}`],
    ['an unknown ext as an array item', '/v1/collective', [0x81, ...text('sizes'), 0x92, 0x01, 0xd5, 0x07, 0x00, 0x00], 'sizes[1]', `an extension value (ext 7), ${SEND}`],
    ['a bin 16 key in the model map', '/v1/estimate', [...asModel([0x81, 0xc5, 0x00, 0x02, 0x61, 0x62, 0x01])], 'model', `binary data (bin, 2 bytes) as a map key, ${SEND}`],
    ['an array key in a map in an array', '/v1/search', [0x91, 0x81, 0x91, 0x01, 0x02], '[0]', `an array as a map key, ${SEND}`],
    ['a timestamp as a map key (msgpackr reads one as a value, not as a key)', '/v1/estimate', [...asModel([0x81, 0xd6, 0xff, 0, 0, 0, 0, 0x01])], 'model', `a timestamp (ext -1) as a map key, ${SEND}`],
  ])('%s (POST %s)', async (_, path, bytes, at, message) => {
    const res = await post(path, new Uint8Array(bytes));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: unknown[] }).issues).toEqual([{ path: at, message }]);
  });

  it('over HTTP, one byte after the value is "1 byte follows" (before: "1 bytes follow its value")', async () => {
    const res = await post('/v1/estimate', new Uint8Array([0x80, 0x80]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: unknown[] }).issues).toEqual([{ path: '', message: 'the body is not valid MessagePack: 1 byte follows its value' }]);
  });

  it('a body with a bin key that is also cut short reads as not valid MessagePack: framing answers first', async () => {
    // A map whose bin key is well-formed but whose trailing value is cut: framing answers first.
    const res = await post('/v1/estimate', new Uint8Array([0x81, 0xc4, 0x01, 0x61]));
    expect(((await res.json()) as { issues: { message: string }[] }).issues[0]!.message).toMatch(/^the body is not valid MessagePack: it ends/);
  });
});
