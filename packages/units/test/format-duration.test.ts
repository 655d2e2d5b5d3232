import { describe, expect, it } from 'vitest';
import { days, formatDuration, formatFixedGrouped, hours, minutes } from '../src/index.ts';

describe('formatDuration at each boundary between its units', () => {
  // QA: a span that rounds up to the next unit was said in the one below it ("24.0 hours" for 0.999 days, "60 minutes"
  // for 59.9): each unit is judged on its figure as rounded, so a span that rounds to the next unit is said in that one.
  it.each([
    // Hours (one decimal) and days: past 23.95 hours they round to 24.0, a day.
    [days(0.999), '1.0 days'],
    [hours(23.96), '1.0 days'],
    [hours(23.9499), '23.9 hours'],
    [days(1), '1.0 days'],
    // Whole minutes and hours: 59.5 minutes and up round to 60, an hour.
    [minutes(59.9), '1.0 hours'],
    [minutes(59.5), '1.0 hours'],
    [minutes(59.49), '59 minutes'],
    [hours(1), '1.0 hours'],
    // Seconds (three figures) and minutes: 59.95 s and up round to 60.0 s, a minute.
    [59.99, '1 minute'],
    [59.95, '1 minute'],
    [59.94, '59.9 s'],
    [minutes(1), '1 minute'],
  ])('formatDuration(%d s) is %s', (s, text) => expect(formatDuration(s)).toBe(text));

  it.each([
    [days(1) - 1e-9], [hours(24) - 0.5], [hours(1) - 1e-9], [minutes(60) - 1], [60 - 1e-9], [60 - 0.01],
  ])('never says the next unit\'s worth in the unit below it (%d s)', (s) => {
    expect(formatDuration(s)).not.toMatch(/^(?:24\.0 hours|60 minutes|60\.0 s)$/);
  });
});

describe('formatFixedGrouped: a figure to fixed decimals, grouped by thousands as formatDuration\'s days are', () => {
  it.each([
    [3140.06, 1, '3,140.1'],
    [34.24, 1, '34.2'],
    [0.04, 1, '0.0'],
    [1234567.891, 2, '1,234,567.89'],
    [999.96, 1, '1,000.0'],
  ])('formatFixedGrouped(%d, %d) is %s', (x, decimals, text) => expect(formatFixedGrouped(x, decimals)).toBe(text));

  it('writes a span of days as formatDuration does', () => {
    expect(formatDuration(days(3140.06))).toBe(`${formatFixedGrouped(3140.06, 1)} days`);
  });
});
