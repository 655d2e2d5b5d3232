import { describe, expect, it } from 'vitest';
import { fnv1a64 } from '../src/http/fnv1a64.ts';

// Test vectors of the FNV reference suite (isthe.com/chongo/src/fnv/test_fnv.c, FNV1A_64).
describe('fnv1a64', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['b', 'af63df4c8601f1a5'],
    ['foobar', '85944171f73967e8'],
  ])('hashes %j to the published %s', (input, expected) => {
    expect(fnv1a64(input)).toBe(expected);
  });
  it('agrees with a BigInt reference on long and non-ASCII input', () => {
    const reference = (s: string) => {
      let h = 0xcbf29ce484222325n;
      for (const b of new TextEncoder().encode(s)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    for (const s of ['x'.repeat(5000), '{"é":"ü","n":[1,2,3]}', '\u{1f680} step time']) expect(fnv1a64(s)).toBe(reference(s));
  });
  it('hashes bytes and their string alike', () => {
    expect(fnv1a64(new TextEncoder().encode('foobar'))).toBe(fnv1a64('foobar'));
  });
});
