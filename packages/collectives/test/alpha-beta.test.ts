import { describe, expect, it } from 'vitest';
import { GB, GBps, KB, MB, MiB, us } from '@trainplan/units';
import {
  binomialBroadcast, hierarchicalAllReduce, lowerBoundAllReduceSeconds, pairwiseAllToAll, rabenseifnerAllReduce,
  recursiveDoublingAllReduce, ringAllGather, ringAllReduce, ringReduceScatter,
} from '../src/index.ts';

// Small binary-exact numbers so the closed forms can be asserted with toBe.
const base = { bytes: 8, ranks: 4, alphaSeconds: 1, betaSecondsPerByte: 0.5, gammaSecondsPerByte: 0.25 };

describe('α-β costs (Thakur, Rabenseifner & Gropp 2005), exact on small numbers', () => {
  it.each([
    ['ring all-reduce: 2(p-1)α + 2(p-1)/p·nβ + (p-1)/p·nγ', ringAllReduce, 6 + 6 + 1.5],
    ['ring all-gather: (p-1)α + (p-1)/p·nβ', ringAllGather, 3 + 3],
    ['ring reduce-scatter: (p-1)α + (p-1)/p·n(β+γ)', ringReduceScatter, 3 + 4.5],
    ['recursive doubling all-reduce: lg p·(α + nβ + nγ)', recursiveDoublingAllReduce, 2 * (1 + 4 + 2)],
    ['Rabenseifner all-reduce: 2 lg p·α + 2(p-1)/p·nβ + (p-1)/p·nγ', rabenseifnerAllReduce, 4 + 6 + 1.5],
    ['binomial broadcast: lg p·(α + nβ)', binomialBroadcast, 2 * (1 + 4)],
    ['pairwise all-to-all: (p-1)α + nβ', pairwiseAllToAll, 3 + 4],
  ] as const)('%s', (_title, cost, expected) => {
    expect(cost(base)).toBe(expected);
  });

  it('ring all-reduce of n ranks moves 2(n-1)/n of the buffer per rank', () => {
    for (const [n, bytes] of [[2, 1024], [4, 1024], [8, 4096], [64, MiB(1)]] as const) {
      expect(ringAllReduce({ bytes, ranks: n, alphaSeconds: 0, betaSecondsPerByte: 1 })).toBe(((2 * (n - 1)) / n) * bytes);
    }
  });

  it('recursive doubling takes ⌈lg p⌉ rounds when p is not a power of two', () => {
    expect(recursiveDoublingAllReduce({ ...base, ranks: 5, gammaSecondsPerByte: 0 })).toBe(3 * (1 + 4));
  });

  it('hierarchical all-reduce is intra RS + per-rail inter AR of n/g + intra AG (reference §3)', () => {
    const t = hierarchicalAllReduce({
      bytes: 16, gpusPerNode: 4, nodes: 2,
      alphaIntraSeconds: 1, betaIntraSecondsPerByte: 0.5, alphaInterSeconds: 2, betaInterSecondsPerByte: 1,
    });
    // intra: 3·1 + 3/4·16·0.5 = 9, twice; inter: 2·1·2 + 2·1/2·(16/4)·1 = 8.
    expect(t).toBe(9 + 8 + 9);
  });

  it('the Patarasuk-Yuan bound is 2(n-1)/n·S·β', () => {
    expect(lowerBoundAllReduceSeconds({ bytes: 1024, ranks: 4, betaSecondsPerByte: 1 })).toBe(1536);
  });

  it('rejects negative sizes and non-integer rank counts', () => {
    expect(() => ringAllReduce({ ...base, bytes: -1 })).toThrow(RangeError);
    expect(() => ringAllReduce({ ...base, ranks: 1.5 })).toThrow(RangeError);
  });
});

describe('no all-reduce algorithm beats the Patarasuk-Yuan lower bound', () => {
  const ranks = [2, 3, 4, 8, 16, 64, 512, 4096];
  const sizes = [1, KB(1), MB(1), GB(1), GB(16)];
  const alphas = [0, us(1)];
  const table = ranks.flatMap((n) => sizes.flatMap((S) => alphas.map((a) => [n, S, a] as const)));
  it.each(table)('n = %i, S = %d B, α = %d s', (n, S, alphaSeconds) => {
    const betaSecondsPerByte = 1 / GBps(25);
    const bound = lowerBoundAllReduceSeconds({ bytes: S, ranks: n, betaSecondsPerByte });
    const options = { bytes: S, ranks: n, alphaSeconds, betaSecondsPerByte };
    const g = n % 8 === 0 ? 8 : 1;
    const algorithms = [
      ringAllReduce(options), rabenseifnerAllReduce(options), recursiveDoublingAllReduce(options),
      hierarchicalAllReduce({
        bytes: S, gpusPerNode: g, nodes: n / g, alphaIntraSeconds: alphaSeconds, alphaInterSeconds: alphaSeconds,
        betaIntraSecondsPerByte: betaSecondsPerByte, betaInterSecondsPerByte: betaSecondsPerByte,
      }),
    ];
    for (const t of algorithms) expect(t).toBeGreaterThanOrEqual(bound * (1 - 1e-12));
  });
});
