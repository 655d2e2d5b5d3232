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

  // MPICH (allreduce_intra_recursive_doubling.c, allreduce_intra_reduce_scatter_allgather.c): p = 5 runs on p' = 4
  // ranks after rank 0 sends its whole buffer to rank 1 (which reduces it) and before rank 1 sends the result back.
  it('recursive doubling of 5 ranks takes lg 4 rounds plus a step before and after: 4(α + nβ) + 3nγ', () => {
    // α = 1, nβ = 8·0.5 = 4, nγ = 8·0.25 = 2: 2 rounds of 7, the step before 7, the step after 5.
    expect(recursiveDoublingAllReduce({ ...base, ranks: 5 })).toBe(2 * 7 + 7 + 5);
  });
  it("Rabenseifner's all-reduce of 5 ranks halves and doubles over 4: (2·2 + 2)α + (2·3/4 + 2)nβ + (3/4 + 1)nγ", () => {
    // The power-of-two core: 4α + 2·(3/4)·4 + (3/4)·2 = 4 + 6 + 1.5; the step before 1 + 4 + 2, the step after 1 + 4.
    expect(rabenseifnerAllReduce({ ...base, ranks: 5 })).toBe(11.5 + 7 + 5);
  });
  it.each([3, 6, 7, 12, 100])('on p = %i ranks both cost the power of two below p plus the two folded steps, 2α + 2nβ + nγ', (p) => {
    // 2·1 + 2·4 + 2 = 12 (binary-exact, so toBe).
    const below = 2 ** Math.floor(Math.log2(p));
    for (const cost of [recursiveDoublingAllReduce, rabenseifnerAllReduce]) {
      expect(cost({ ...base, ranks: p }) - cost({ ...base, ranks: below })).toBe(12);
    }
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
