import { describe, expect, it } from 'vitest';
import { GB, GBps, seconds } from '@trainplan/units';
import { algBandwidth, busBandwidth, busBandwidthFactor } from '../src/index.ts';
import type { CollectiveOp } from '../src/index.ts';

describe('nccl-tests bus bandwidth conventions (doc/PERFORMANCE.md)', () => {
  it.each<[CollectiveOp, number, number]>([
    ['all-reduce', 8, 14 / 8],
    ['all-reduce', 2, 1],
    ['all-gather', 8, 7 / 8],
    ['reduce-scatter', 4, 3 / 4],
    ['all-to-all', 16, 15 / 16],
    ['broadcast', 8, 1],
    ['reduce', 8, 1],
    ['send-recv', 2, 1],
  ])('the %s factor for %i ranks is %d', (op, n, factor) => {
    expect(busBandwidthFactor(op, n)).toBe(factor);
  });

  it('all-reduce moves 2(n-1)/n of the buffer per rank, so its factor is 2(n-1)/n', () => {
    for (const n of [2, 3, 8, 512]) expect(busBandwidthFactor('all-reduce', n)).toBe((2 * (n - 1)) / n);
  });

  it('algbw is the size over the time', () => {
    expect(algBandwidth(GB(10), seconds(2))).toBe(GBps(5));
  });

  it('a collective that takes no time (one rank) reports 0 rather than an infinite rate', () => {
    expect(algBandwidth(GB(1), 0)).toBe(0);
  });

  it('busbw is algbw times the op factor', () => {
    expect(busBandwidth({ op: 'all-reduce', ranks: 8, bytes: GB(8), seconds: 1 })).toBe(GBps(14));
  });

  it('rejects a rank count that is not a positive integer', () => {
    expect(() => busBandwidthFactor('all-reduce', 0)).toThrow(RangeError);
    expect(() => busBandwidthFactor('all-reduce', 2.5)).toThrow(RangeError);
  });
});
