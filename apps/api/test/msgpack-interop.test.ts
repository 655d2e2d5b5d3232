import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { createApi, decodeMsgpack, encodeMsgpack } from '../src/index.ts';

// msgpackr (a devDependency only), configured as the API configured it when it was the API's codec:
// another implementation, so that ours is checked against more than its own reading of the spec.
const msgpackr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false, int64AsType: 'number', structuredClone: false });

const app = createApi();
const answer = async (path: string, body: unknown): Promise<unknown> => {
  const res = await app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  return res.json();
};

const EDGE_NUMBERS = [0, -1, -32, -33, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1), 0.1, 1e300, -1e-300, 1.5];
const STRINGS = [0, 31, 32, 255, 256, 65535, 65536].map((n) => 'a'.repeat(n)).concat(['é€😀', 'ü'.repeat(20_000), '日本語'.repeat(100)]);
const ARRAYS = [15, 16, 65535, 65536].map((n) => Array.from({ length: n }, (_, i) => i));
const map = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i % 2 === 0 ? i : `v${i}`]));
// msgpackr writes every map as a map 16 (0xde), small ones too, and refuses one past 65,535 entries
// (map 32) unless told `variableMapSize`: that one is tested apart, below.
const MAPS = [15, 16, 65535].map(map);

describe('our MessagePack and msgpackr read each other', () => {
  const cases: [string, () => Promise<unknown> | unknown][] = [
    ['the contract example', () => CONTRACT_EXAMPLE],
    ['its estimate (POST /v1/estimate)', () => answer('/v1/estimate', CONTRACT_EXAMPLE)],
    ['a search answer of 50 candidates (POST /v1/search)', () => answer('/v1/search', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 50 })],
    ['edge numbers', () => EDGE_NUMBERS],
    ['strings of every str length format, and multibyte UTF-8', () => STRINGS],
    ['arrays of every array length format', () => ARRAYS],
    ['maps of 15, 16 and 65,535 entries', () => MAPS],
    ['nil, booleans and empty containers', () => [null, true, false, [], {}, [[]], { a: {} }]],
  ];
  it.each(cases)('%s: ours → msgpackr', async (_, value) => {
    const data = await value();
    expect(msgpackr.unpack(encodeMsgpack(data))).toStrictEqual(data);
  });
  it.each(cases)('%s: msgpackr → ours', async (_, value) => {
    const data = await value();
    expect(decodeMsgpack(msgpackr.pack(data))).toStrictEqual(data);
  });
  it('a map of 65,536 entries (map 32), msgpackr told to size its maps', () => {
    const data = map(65536);
    const sized = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false, int64AsType: 'number', structuredClone: false, variableMapSize: true });
    expect(msgpackr.unpack(encodeMsgpack(data))).toStrictEqual(data);
    expect(decodeMsgpack(sized.pack(data))).toStrictEqual(data);
  });
  it.each(EDGE_NUMBERS)('%d reads back as itself both ways, alone', (n) => {
    expect(msgpackr.unpack(encodeMsgpack(n))).toBe(n);
    expect(decodeMsgpack(msgpackr.pack(n))).toBe(n);
  });
});
