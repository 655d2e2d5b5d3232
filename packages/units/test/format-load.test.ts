import { describe, expect, it } from 'vitest';
import { formatLoad, formatSeconds, formatWaitSeconds } from '../src/index.ts';

describe('formatLoad: a share of capacity in use', () => {
  it('whole where that reads below 100%', () => {
    expect(formatLoad(0.95)).toBe('95%');
    expect(formatLoad(0.994)).toBe('99%');
  });

  it('a load below capacity never reads "100%" (a wait without bound): as many decimals as keep it below, up to three', () => {
    expect(formatLoad(0.998)).toBe('99.8%');
    expect(formatLoad(0.9996)).toBe('99.96%');
    expect(formatLoad(0.99999)).toBe('99.999%');
    // Closer than a thousandth of a per cent: cut, never rounded up to 100 (QA: 0.999996 read "100.000%").
    expect(formatLoad(0.999996)).toBe('99.999%');
    expect(formatLoad(0.9999999)).toBe('99.999%');
  });

  it('at or over capacity, whole', () => {
    expect(formatLoad(1)).toBe('100%');
    expect(formatLoad(1.2)).toBe('120%');
  });
});

describe('formatWaitSeconds: a mean wait for a slot', () => {
  it('reads "under 1 µs" below a microsecond, where Erlang C gives 1e-50 s and below', () => {
    expect(formatWaitSeconds(9.9e-32)).toBe('under 1 µs');
    expect(formatWaitSeconds(0)).toBe('under 1 µs');
    expect(formatWaitSeconds(0.999e-6)).toBe('under 1 µs');
  });

  it('is formatSeconds from a microsecond up', () => {
    expect(formatWaitSeconds(1e-6)).toBe(formatSeconds(1e-6));
    expect(formatWaitSeconds(0.012)).toBe('12.0 ms');
  });
});
