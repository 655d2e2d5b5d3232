import { describe, expect, it } from 'vitest';
import { encodeMsgpack } from '../src/http/msgpack.ts';

// Expected bytes are derived by hand from the MessagePack specification's "Formats" table
// (github.com/msgpack/msgpack/blob/master/spec.md), big-endian throughout: each row says how.
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));
const encode = (value: unknown): number[] => [...encodeMsgpack(value)];

describe('a number is a safe integer in its smallest int or uint format, else a float 64', () => {
  it.each([
    [0, [0x00]], // positive fixint 0xxxxxxx
    [127, [0x7f]],
    [128, [0xcc, 0x80]], // uint 8
    [255, [0xcc, 0xff]],
    [256, [0xcd, 0x01, 0x00]], // uint 16
    [65535, [0xcd, 0xff, 0xff]],
    [65536, [0xce, 0x00, 0x01, 0x00, 0x00]], // uint 32
    [2 ** 32 - 1, [0xce, 0xff, 0xff, 0xff, 0xff]],
    [2 ** 32, [0xcf, 0, 0, 0, 0x01, 0, 0, 0, 0]], // uint 64
    [2 ** 53 - 1, [0xcf, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]], // 2^53 − 1 = 0x001fffffffffffff
    [-1, [0xff]], // negative fixint 111xxxxx: −1 is 0x100 − 1
    [-32, [0xe0]],
    [-33, [0xd0, 0xdf]], // int 8: 0x100 − 33 = 0xdf
    [-128, [0xd0, 0x80]],
    [-129, [0xd1, 0xff, 0x7f]], // int 16: 0x10000 − 129 = 0xff7f
    [-32768, [0xd1, 0x80, 0x00]],
    [-32769, [0xd2, 0xff, 0xff, 0x7f, 0xff]], // int 32
    [-(2 ** 31), [0xd2, 0x80, 0, 0, 0]],
    [-(2 ** 31) - 1, [0xd3, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff]], // int 64: 2^64 − 2^31 − 1
    [-(2 ** 53 - 1), [0xd3, 0xff, 0xe0, 0, 0, 0, 0, 0, 0x01]], // 2^64 − 2^53 + 1 = 0xffe0000000000001
    [-0, [0x00]], // the integer 0, as JSON.stringify writes "0"
    // float 64, IEEE 754 binary64: 0.5 = 1.0b · 2^−1, biased exponent 1022 = 0x3fe.
    [0.5, [0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0]],
    [0.1, [0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a]], // never float 32, whose 0x3dcccccd is not 0.1
    [-2.5, [0xcb, 0xc0, 0x04, 0, 0, 0, 0, 0, 0]], // −1.01b · 2^1: sign 1, exponent 1024 = 0x400
    [2 ** 53, [0xcb, 0x43, 0x40, 0, 0, 0, 0, 0, 0]], // past the safe integers: exponent 1023 + 53 = 0x434
    [Number.MAX_VALUE, [0xcb, 0x7f, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
  ])('%d', (value, bytes) => {
    expect(encode(value)).toEqual(bytes);
  });
});

describe('a string is UTF-8 with the smallest str header for its byte length', () => {
  it.each([
    ['""', '', [0xa0]], // fixstr 101xxxxx
    ['"a"', 'a', [0xa1, 0x61]],
    // U+00E9 is C3 A9, U+20AC is E2 82 AC, U+1F600 (a surrogate pair in UTF-16) is F0 9F 98 80 (RFC 3629 §3).
    ['"é€😀" (9 bytes)', 'é€😀', [0xa9, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]],
    // A lone surrogate (JSON.parse makes one of "\ud800") is U+FFFD, EF BF BD, as TextEncoder writes it.
    ['a lone surrogate', '\ud800', [0xa3, 0xef, 0xbf, 0xbd]],
    ['31 ASCII bytes', 'a'.repeat(31), [0xbf, ...ascii('a'.repeat(31))]],
    ['32 ASCII bytes', 'a'.repeat(32), [0xd9, 0x20, ...ascii('a'.repeat(32))]], // str 8
    // Past the ASCII at the é: 40 + 2 = 42 bytes (0x2a), a str 8.
    ['40 ASCII and one é (42 bytes)', `${'a'.repeat(40)}é`, [0xd9, 0x2a, ...ascii('a'.repeat(40)), 0xc3, 0xa9]],
    ['255 ASCII bytes', 'a'.repeat(255), [0xd9, 0xff, ...ascii('a'.repeat(255))]],
    ['256 ASCII bytes', 'a'.repeat(256), [0xda, 0x01, 0x00, ...ascii('a'.repeat(256))]], // str 16
    // 11 é: room was kept for 33 bytes (str 8), 22 came, a fixstr: 0xa0 | 22 = 0xb6.
    ['11 é (22 bytes)', 'é'.repeat(11), [0xb6, ...Array.from({ length: 11 }, () => [0xc3, 0xa9]).flat()]],
    // 100 é: room for 300 bytes (str 16), 200 came (0xc8), a str 8.
    ['100 é (200 bytes)', 'é'.repeat(100), [0xd9, 0xc8, ...Array.from({ length: 100 }, () => [0xc3, 0xa9]).flat()]],
  ])('%s', (_, value, bytes) => {
    expect(encode(value)).toEqual(bytes);
  });

  it.each([
    // 65,535 bytes is the last str 16 (0xffff); 65,536 (0x00010000) is a str 32.
    [65535, [0xda, 0xff, 0xff]],
    [65536, [0xdb, 0x00, 0x01, 0x00, 0x00]],
  ])('%i ASCII bytes have the header %j', (length, header) => {
    const bytes = encodeMsgpack('a'.repeat(length));
    expect([...bytes.subarray(0, header.length)]).toEqual(header);
    expect(bytes.byteLength).toBe(header.length + length);
  });

  it('30,000 é (60,000 bytes) take a str 16 header, though room was kept for 90,000 (a str 32)', () => {
    const bytes = encodeMsgpack('é'.repeat(30_000));
    expect([...bytes.subarray(0, 5)]).toEqual([0xda, 0xea, 0x60, 0xc3, 0xa9]); // 60,000 = 0xea60
    expect(bytes.byteLength).toBe(3 + 60_000);
    expect(new TextDecoder().decode(bytes.subarray(3))).toBe('é'.repeat(30_000));
  });
});

describe('arrays, objects, booleans and nil', () => {
  it.each([
    ['null', null, [0xc0]],
    ['false', false, [0xc2]],
    ['true', true, [0xc3]],
    ['[]', [], [0x90]], // fixarray 1001xxxx
    ['[1, [2], "a"]', [1, [2], 'a'], [0x93, 0x01, 0x91, 0x02, 0xa1, 0x61]],
    ['an array\'s undefined item is nil, as JSON.stringify writes null', [undefined], [0x91, 0xc0]],
    ['{}', {}, [0x80]], // fixmap 1000xxxx
    // msgpack.org's own example: {"compact": true, "schema": 0} in 18 bytes.
    ['{"compact": true, "schema": 0}', { compact: true, schema: 0 }, [0x82, 0xa7, ...ascii('compact'), 0xc3, 0xa6, ...ascii('schema'), 0x00]],
    ['a property whose value is undefined is left out, as JSON.stringify leaves it', { a: undefined, b: 1 }, [0x81, 0xa1, 0x62, 0x01]],
    ['an object without a prototype', Object.assign(Object.create(null) as object, { a: 1 }), [0x81, 0xa1, 0x61, 0x01]],
  ])('%s', (_, value, bytes) => {
    expect(encode(value)).toEqual(bytes);
  });

  it.each([
    // fixarray/fixmap up to 15, array 16/map 16 (0xdc/0xde) up to 65,535, array 32/map 32 (0xdd/0xdf) past it.
    [15, [0x9f], [0x8f]],
    [16, [0xdc, 0x00, 0x10], [0xde, 0x00, 0x10]],
    [65535, [0xdc, 0xff, 0xff], [0xde, 0xff, 0xff]],
    [65536, [0xdd, 0x00, 0x01, 0x00, 0x00], [0xdf, 0x00, 0x01, 0x00, 0x00]],
  ])('%i items: an array header %j, a map header %j', (count, arrayHeader, mapHeader) => {
    const array = encodeMsgpack(new Array<number>(count).fill(0));
    expect([...array.subarray(0, arrayHeader.length)]).toEqual(arrayHeader);
    expect(array.byteLength).toBe(arrayHeader.length + count); // each 0 a one-byte fixint
    const map = encodeMsgpack(Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 0])));
    expect([...map.subarray(0, mapHeader.length + 3)]).toEqual([...mapHeader, 0xa2, ...ascii('k0')]);
  });

  it('16 keys, one of them undefined, are a fixmap of 15 (0x8f), though a map 16 header was first set aside', () => {
    const object = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i === 0 ? undefined : i]));
    // Each pair: a fixstr key (0xa0 | its length) and its value, a positive fixint.
    const pairs = Array.from({ length: 15 }, (_, j) => [0xa0 | `k${j + 1}`.length, ...ascii(`k${j + 1}`), j + 1]).flat();
    expect(encode(object)).toEqual([0x8f, ...pairs]);
  });

  it('each answer is a fresh buffer the caller owns: a later one does not change it', () => {
    const first = encodeMsgpack({ a: 'x'.repeat(100_000) });
    const copy = first.slice();
    encodeMsgpack({ b: 'y'.repeat(200_000) });
    expect(first).toEqual(copy);
    expect(first.buffer.byteLength).toBe(first.byteLength);
  });

  it.each([
    ['a Date', new Date(0), '[object Date]'],
    ['a Uint8Array', new Uint8Array(1), '[object Uint8Array]'],
    ['a bigint', 1n, '[object BigInt]'],
  ])('%s is no JSON value: a TypeError (a programmer\'s error; answers are JSON.parse output)', (_, value, name) => {
    expect(() => encodeMsgpack({ a: [value] })).toThrow(new TypeError(`encodeMsgpack writes JSON values, not ${name}`));
  });
});
