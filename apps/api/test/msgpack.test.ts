import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi, decodeMsgpack, encodeMsgpack } from '../src/index.ts';

const app = createApi();

/** MessagePack's 64-bit integer families (spec: uint 64 = 0xcf, int 64 = 0xd3), big-endian, as a client writes them. */
function int64(marker: 0xcf | 0xd3, value: bigint): Uint8Array {
  const bytes = new Uint8Array(9);
  bytes[0] = marker;
  const view = new DataView(bytes.buffer);
  if (marker === 0xcf) view.setBigUint64(1, value);
  else view.setBigInt64(1, value);
  return bytes;
}

/** `bytes` with the first run of `find` replaced by `put`. */
function splice(bytes: Uint8Array, find: Uint8Array, put: Uint8Array): Uint8Array {
  const at = Buffer.from(bytes).indexOf(Buffer.from(find));
  expect(at).toBeGreaterThanOrEqual(0);
  return new Uint8Array([...bytes.subarray(0, at), ...put, ...bytes.subarray(at + find.byteLength)]);
}

describe('MessagePack integers past 32 bits', () => {
  // msgpack-python, Go's vmihailenco/msgpack and Rust's rmp write an integer over 2^32 − 1 as int 64 or
  // uint 64; JSON has one number type, so these are numbers, as JSON.parse reads "300000000000".
  it.each([
    ['uint 64', 0xcf, 300_000_000_000n, 300e9],
    ['int 64', 0xd3, 300_000_000_000n, 300e9],
    ['int 64, negative', 0xd3, -5_000_000_000n, -5e9],
    ['uint 64 at 2^53', 0xcf, 2n ** 53n, 2 ** 53],
  ] as const)('%s %s decodes to the number %d, not a bigint', (_, marker, value, number) => {
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
