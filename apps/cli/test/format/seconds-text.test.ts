import { days } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { secondsText } from '../../src/format/seconds-text.ts';

describe('secondsText', () => {
  // Under a thousand days, units' formatSeconds to three figures; from a thousand, whole days grouped by thousands.
  it.each([
    [20, '20.0 s'],
    [days(3), '3.00 days'],
    [days(999.4), '999 days'],
    // 999.7 days round to 1,000 whole days: grouped, not the "1000 days" three figures would print.
    [days(999.7), '1,000 days'],
    [days(1_108_059.4), '1,108,059 days'],
  ])('%d s is "%s"', (s, text) => {
    expect(secondsText(s)).toBe(text);
  });
});
