import { describe, expect, it } from 'vitest';
import { formatAmount } from '../src/index.ts';

describe('formatAmount: GPU-hours and costs', () => {
  it('whole and grouped by thousands from 100 up', () => {
    expect(formatAmount(476_157.4)).toBe('476,157');
    expect(formatAmount(100.4)).toBe('100');
  });

  it('below 100, three significant figures rather than a rounded 0 (56.3 s on 16 GPUs is 0.250 GPU-hours)', () => {
    expect(formatAmount((16 * 56.3) / 3600)).toBe('0.250');
    expect(formatAmount(12.34)).toBe('12.3');
  });

  it('a whole number stays whole ("5", not "5.00")', () => {
    expect(formatAmount(5)).toBe('5');
    expect(formatAmount(0)).toBe('0');
  });
});
