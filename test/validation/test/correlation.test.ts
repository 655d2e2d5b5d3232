import { describe, expect, it } from 'vitest';
import { pearson, spearman } from '../src/correlation.ts';

describe('pearson', () => {
  it.each([
    [[1, 2, 3, 4], [3, 5, 7, 9], 1],
    [[1, 2, 3, 4], [9, 7, 5, 3], -1],
    // Hand-computed: deviations (−1, 0, 1) and (−1, 1, 0): Σxy = 1, Σx² = Σy² = 2, r = 1/2.
    [[1, 2, 3], [1, 3, 2], 0.5],
  ])('of %j and %j is %d', (xs, ys, r) => {
    expect(pearson(xs, ys)).toBeCloseTo(r, 12);
  });
});

describe('spearman', () => {
  it.each([
    [[1, 2, 3, 4], [10, 20, 30, 40], 1],
    [[1, 2, 3, 4], [40, 30, 20, 10], -1],
    // Hand-computed: ranks (1,2,3,4,5) vs (2,1,4,3,5): Σd² = 4, ρ = 1 − 6·4/(5·24) = 0.8.
    [[1, 2, 3, 4, 5], [2, 1, 4, 3, 5], 0.8],
  ])('of %j and %j is %d', (xs, ys, rho) => {
    expect(spearman(xs, ys)).toBeCloseTo(rho, 12);
  });
  it('gives ties their average rank', () => {
    expect(spearman([1, 1, 2], [1, 1, 2])).toBeCloseTo(1, 12);
  });
});

