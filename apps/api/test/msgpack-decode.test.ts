import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { decodeMsgpack, firstNonJson, UnbuiltBody } from '../src/http/msgpack.ts';
import { createApi, encodeMsgpack } from '../src/index.ts';

// Expected values are derived by hand from the MessagePack specification's "Formats" table
// (github.com/msgpack/msgpack/blob/master/spec.md): each row's comment says how.
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
const decode = (bytes: number[]) => decodeMsgpack(new Uint8Array(bytes));

describe('every MessagePack format JSON has an equivalent of decodes to that JSON value', () => {
  it.each([
    ['nil', [0xc0], null],
    ['false, true', [0x92, 0xc2, 0xc3], [false, true]],
    ['positive fixint 0x7f', [0x7f], 127],
    ['negative fixint 0xe0 (111xxxxx: 0xe0 − 0x100)', [0xe0], -32],
    ['uint 8 0xff', [0xcc, 0xff], 255],
    ['uint 16 0xffff', [0xcd, 0xff, 0xff], 65535],
    ['uint 32 0xffffffff', [0xce, 0xff, 0xff, 0xff, 0xff], 4_294_967_295],
    ['int 8 0x80 (two\'s complement)', [0xd0, 0x80], -128],
    ['int 16 0x8000', [0xd1, 0x80, 0x00], -32768],
    ['int 32 0x80000000', [0xd2, 0x80, 0x00, 0x00, 0x00], -2_147_483_648],
    ['int 64 0xffffffffffffffff', [0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], -1],
    // 0x00000001_00000000 = 2^32; 0x00000045_d964b800 = 69 · 2^32 + 3,647,256,576 = 300,000,000,000.
    ['uint 64 2^32', [0xcf, 0, 0, 0, 0x01, 0, 0, 0, 0], 2 ** 32],
    ['uint 64 300 billion', [0xcf, 0, 0, 0, 0x45, 0xd9, 0x64, 0xb8, 0x00], 300e9],
    // −5e9 = −2 · 2^32 + 3,589,934,592 (0xd5fa0e00): high word 0xfffffffe.
    ['int 64 −5 billion', [0xd3, 0xff, 0xff, 0xff, 0xfe, 0xd5, 0xfa, 0x0e, 0x00], -5e9],
    // IEEE 754 binary32 0x3fc00000: sign 0, exponent 127 (2^0), fraction .1b = 1.5.
    ['float 32 1.5', [0xca, 0x3f, 0xc0, 0x00, 0x00], 1.5],
    // binary32 0x3dcccccd is the float nearest 0.1: exactly 13,421,773 · 2^−27, not rounded to 0.1.
    ['float 32 0x3dcccccd, its exact value', [0xca, 0x3d, 0xcc, 0xcc, 0xcd], 13_421_773 / 2 ** 27],
    // IEEE 754 binary64 0x3fb999999999999a is the double JSON.parse reads "0.1" as.
    ['float 64 0.1', [0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a], 0.1],
    ['fixstr ""', [0xa0], ''],
    ['fixstr "a"', [0xa1, 0x61], 'a'],
    // U+00E9 is C3 A9 in UTF-8, U+20AC is E2 82 AC, U+1F600 is F0 9F 98 80 (RFC 3629 §3).
    ['fixstr "é€😀" (9 bytes)', [0xa9, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], 'é€😀'],
    // Longer forms than needed are still MessagePack; other encoders write them.
    ['str 8 "a"', [0xd9, 0x01, 0x61], 'a'],
    ['str 16 "ab"', [0xda, 0x00, 0x02, 0x61, 0x62], 'ab'],
    ['str 32 "a"', [0xdb, 0, 0, 0, 0x01, 0x61], 'a'],
    ['fixarray [1, 2, 3]', [0x93, 0x01, 0x02, 0x03], [1, 2, 3]],
    ['array 16 [nil]', [0xdc, 0x00, 0x01, 0xc0], [null]],
    ['array 32 []', [0xdd, 0, 0, 0, 0], []],
    // msgpack.org's own example: {"compact": true, "schema": 0} in 18 bytes.
    ['fixmap {"compact": true, "schema": 0}', [0x82, 0xa7, ...ascii('compact'), 0xc3, 0xa6, ...ascii('schema'), 0x00], { compact: true, schema: 0 }],
    ['map 16 {"a": 1}', [0xde, 0x00, 0x01, 0xa1, 0x61, 0x01], { a: 1 }],
    ['map 32 {}', [0xdf, 0, 0, 0, 0], {}],
  ])('%s', (_, bytes, value) => {
    expect(decode(bytes)).toStrictEqual(value);
  });

  it.each([
    // 2^53 + 1 lies halfway between the doubles 2^53 and 2^53 + 2; round-half-even gives 2^53, as JSON.parse does.
    ['uint 64 2^53 + 1', [0xcf, 0x00, 0x20, 0, 0, 0, 0, 0, 0x01], '9007199254740993'],
    ['uint 64 2^64 − 1', [0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], '18446744073709551615'],
    ['int 64 −2^63', [0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], '-9223372036854775808'],
    // 0x7fffffffffffffff = 2^63 − 1, which rounds to 2^63.
    ['int 64 2^63 − 1', [0xd3, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], '9223372036854775807'],
  ])('%s reads as the number JSON.parse reads its digits %s as', (_, bytes, digits) => {
    expect(decode(bytes)).toBe(JSON.parse(digits));
  });

  it.each([
    // C3 starts a 2-byte sequence that 0x28 does not continue: one U+FFFD, then "(" (WHATWG Encoding, UTF-8 decoder).
    ['a bad continuation byte', [0xa2, 0xc3, 0x28], '\ufffd('],
    ['a byte that never starts UTF-8', [0xa1, 0xff], '\ufffd'],
    ['the same past the short-string path (17 bytes)', [0xb1, ...ascii('a'.repeat(16)), 0xff], `${'a'.repeat(16)}\ufffd`],
  ])('a str that is not UTF-8 (%s) reads with U+FFFD for each bad sequence, as TextDecoder does', (_, bytes, text) => {
    expect(decode(bytes)).toBe(text);
  });
});

describe('map keys read as JSON.parse reads object keys', () => {
  it('a number, boolean or nil key is the string String makes of it (1 → "1", true → "true", nil → "null"), as msgpackr named them', () => {
    // fixmap of 5: 1 → "a", true → "b", nil → "c", −1 (0xff) → "d", float 64 1.5 (0x3ff8000000000000) → "e".
    const bytes = [0x85, 0x01, 0xa1, 0x61, 0xc3, 0xa1, 0x62, 0xc0, 0xa1, 0x63, 0xff, 0xa1, 0x64, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xa1, 0x65];
    expect(decode(bytes)).toStrictEqual({ 1: 'a', true: 'b', null: 'c', '-1': 'd', 1.5: 'e' });
  });

  it('a repeated key keeps its last value, as JSON.parse keeps it', () => {
    // {"a": 1, "a": 2}
    expect(decode([0x82, 0xa1, 0x61, 0x01, 0xa1, 0x61, 0x02])).toStrictEqual(JSON.parse('{"a": 1, "a": 2}'));
  });

  it('a "__proto__" key is an own property, as JSON.parse makes it, and no object\'s prototype changes', () => {
    // {"__proto__": {"polluted": true}}: fixmap 1, fixstr of 9, then fixmap 1 of fixstr "polluted" → true.
    const decoded = decode([0x81, 0xa9, ...ascii('__proto__'), 0x81, 0xa8, ...ascii('polluted'), 0xc3]) as Record<string, unknown>;
    const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')).toEqual(Object.getOwnPropertyDescriptor(parsed, '__proto__'));
    expect(decoded['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(parsed));
  });

  it('over HTTP, a scenario with a "__proto__" key gets the answer its JSON twin gets (before: msgpackr renamed it "__proto_")', async () => {
    const app = createApi();
    const text = `{"__proto__": {"x": 1}, ${JSON.stringify(CONTRACT_EXAMPLE).slice(1)}`;
    // The same scenario as MessagePack: the key by hand (fixstr of 9, fixmap {"x": 1}) before the example's own keys.
    const example = encodeMsgpack(CONTRACT_EXAMPLE);
    const keys = Object.keys(CONTRACT_EXAMPLE).length;
    expect(example[0]).toBe(0x80 + keys); // a fixmap: the example has fewer than 16 keys
    const packed = new Uint8Array([0x80 + keys + 1, 0xa9, ...ascii('__proto__'), 0x81, 0xa1, 0x78, 0x01, ...example.subarray(1)]);
    const post = (body: BodyInit, type: string) => app.request('/v1/estimate', { method: 'POST', body, headers: { 'content-type': type } });
    const [viaJson, viaMsgpack] = [await post(text, 'application/json'), await post(packed, 'application/msgpack')];
    expect(viaMsgpack.status).toBe(viaJson.status);
    expect(await viaMsgpack.json()).toEqual(await viaJson.json());
  });
});

describe('the first value JSON has no equivalent of, in body order, is named with its path', () => {
  it.each([
    // {"a": [1, {"b": bin 8 of 2 bytes}]}
    ['a bin inside a map inside an array inside a map', [0x81, 0xa1, 0x61, 0x92, 0x01, 0x81, 0xa1, 0x62, 0xc4, 0x02, 0x00, 0x00], ['a', 1, 'b'], 'binary data (bin, 2 bytes)'],
    // {nil: fixext 1 of type 3}: the key's path component is "null", as the key reads.
    ['an ext under a nil key', [0x81, 0xc0, 0xd4, 0x03, 0x00], ['null'], 'an extension value (ext 3)'],
    // [{"k": 1, {}: 2}]: a map key names the map's path, as the key has none.
    ['a map as a map key', [0x91, 0x82, 0xa1, 0x6b, 0x01, 0x80, 0x02], [0], 'a map as a map key'],
    // [timestamp 32 (fixext 4, type −1), bin 8]: the first is named.
    ['a timestamp before a bin', [0x92, 0xd6, 0xff, 0, 0, 0, 0, 0xc4, 0x00], [0], 'a timestamp (ext -1)'],
  ])('%s', (_, bytes, at, what) => {
    const decoded = decode(bytes);
    expect(decoded).toBeInstanceOf(UnbuiltBody);
    expect(firstNonJson(decoded)).toEqual({ at, what });
  });

  it('a JSON value has none', () => {
    expect(firstNonJson(decode([0x81, 0xa1, 0x61, 0x91, 0xc0]))).toBeUndefined();
  });
});
