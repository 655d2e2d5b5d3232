import { describe, expect, it } from 'vitest';
import {
  GB, GiB, Gbps, TFLOPS, us, days, hours, minutes, toDays, toHours, HOURS_PER_DAY, formatBytes, formatBytesDecimal, formatDuration, formatSeconds, formatFlops,
  countOf, formatBandwidth, formatGrouped, formatCount, formatCountExact, formatPercent, formatPercentChange, parseBytes, parseCount, parseDecimal, toGBps, gcd, lcm,
} from '../src/index.ts';

describe('constructors', () => {
  it('keeps decimal and binary sizes apart', () => {
    expect(GB(1)).toBe(1_000_000_000);
    expect(GiB(1)).toBe(1_073_741_824);
  });
  it('turns a line rate in Gb/s into bytes per second (200 Gb/s HDR is 25 GB/s)', () => {
    expect(toGBps(Gbps(200))).toBe(25);
  });
  it('scales FLOP/s and microseconds to SI', () => {
    expect(TFLOPS(312)).toBe(312e12);
    expect(us(15)).toBeCloseTo(15e-6, 18);
  });
  it('keeps times in seconds: an hour is 3,600, a day 24 hours (86,400 s), and converts back exactly', () => {
    expect(minutes(1)).toBe(60);
    expect(hours(1)).toBe(3600);
    expect(HOURS_PER_DAY).toBe(24);
    expect(days(1)).toBe(86_400);
    expect(toHours(days(1))).toBe(HOURS_PER_DAY);
    expect(toDays(hours(36))).toBe(1.5);
  });
});

describe('formatting for humans', () => {
  it.each([
    [GiB(80), '80.0 GiB'],
    [1536, '1.50 KiB'],
    [0, '0 B'],
  ])('formatBytes(%d) is %s', (b, text) => expect(formatBytes(b)).toBe(text));
  it('formats message sizes in decimal units', () => expect(formatBytesDecimal(GB(1))).toBe('1.00 GB'));
  it.each([
    [72, '72'],
    [999, '999'],
    [2.5, '2.50'],
    [2084, '2.08 k'],
    [1_228_800, '1.23 M'],
    [300e9, '300 B'],
  ])('formatCount(%d) is %s: whole counts under a thousand as they are', (c, text) => expect(formatCount(c)).toBe(text));
  // Rounded to three figures, a value can reach the next power of ten or the next step: said with three figures there
  // (QA: a cost of $999,998 read "$1000k", 99,997 GPU-hours "100.0k").
  it.each([
    [99_997, '100 k'],
    [999_998, '1.00 M'],
    [999.6, '1.00 k'],
    [9.9996, '10.0'],
    [0.99996, '1.00'],
    [999_499, '999 k'],
  ])('formatCount(%d) is %s: rounding up carries into the next figure or step', (c, text) => expect(formatCount(c)).toBe(text));
  it('binary sizes carry into the next step at 1,024: 1,023.99 MiB is 1.00 GiB', () => {
    expect(formatBytes(GiB(1) - 2 ** 10)).toBe('1.00 GiB');
    expect(formatBytes(GiB(1) - 2 ** 20 * 2)).toBe('1022 MiB');
  });
  it.each([
    [22.8, '22.8 s'],
    [0.0077, '7.70 ms'],
    [15e-6, '15.0 µs'],
    [34 * 86400, '34.0 days'],
    [119, '119 s'],
    [1463, '24.4 min'],
    [3 * 3600, '3.00 h'],
  ])('formatSeconds(%d) is %s', (s, text) => expect(formatSeconds(s)).toBe(text));
  it.each([
    [0.9996, '1.00 s'], [0.00099996, '1.00 ms'], [9.99996e-7, '1.00 µs'], [119.96, '2.00 min'], [7199.9, '2.00 h'], [-0.9996, '-1.00 s'],
    [0.9994, '999 ms'], [119.4, '119 s'],
  ])('formatSeconds(%d) is %s: the unit is judged on the figure shown (QA: 0.9996 s read "1000 ms")', (s, text) => expect(formatSeconds(s)).toBe(text));
  it.each([
    [days(34.24), '34.2 days'], [days(8764.44), '8,764.4 days'], [days(1), '1.0 days'], [days(0.99), '23.8 hours'], [hours(1), '1.0 hours'],
    [minutes(30), '30 minutes'], [minutes(1), '1 minute'], [minutes(2.4), '2 minutes'], [23.7, '23.7 s'],
  ])('formatDuration(%d s) is %s: days, then hours, minutes and seconds under a day (never "0.0 days")', (s, text) => expect(formatDuration(s)).toBe(text));
  it('formats rates', () => {
    expect(formatFlops(TFLOPS(145.1))).toBe('145 TFLOP/s');
    // A tiny model's rate in its own prefix, not a raw nine-digit number.
    expect(formatFlops(741791146)).toBe('742 MFLOP/s');
    expect(formatFlops(2500)).toBe('2.50 kFLOP/s');
    expect(formatBandwidth(Gbps(400))).toBe('50.0 GB/s');
    expect(formatPercent(0.465)).toBe('46.5%');
  });
  it('counts with a singular for one only', () => {
    expect([countOf(1, 'node'), countOf(0, 'node'), countOf(8, 'GPU')]).toEqual(['1 node', '0 nodes', '8 GPUs']);
  });
  it('groups a whole count by thousands, as every count in messages is; a fraction stays as it is', () => {
    expect([countOf(8192, 'node'), countOf(1_000_000, 'GPU'), countOf(2.5, 'day')]).toEqual(['8,192 nodes', '1,000,000 GPUs', '2.5 days']);
  });
});

describe('parsing', () => {
  it.each([
    ['64MB', 64e6], ['1 GiB', 2 ** 30], ['8', 8], ['2.5e9', 2.5e9], ['2PB', 2e15], ['1 PiB', 2 ** 50],
  ])('parseBytes(%s) = %d', (t, b) => expect(parseBytes(t)).toBe(b));
  it('rejects text that is not a size', () => {
    expect(parseBytes('big')).toBeUndefined();
    // An upper-case prefix with a lower-case b is bits (link speeds: "400Gb/s"), not a size; all lower case stays bytes.
    for (const bits of ['1Gb', '400Mb', '1Gib', '8Kb']) expect(parseBytes(bits)).toBeUndefined();
    expect(parseBytes('1gb')).toBe(1e9);
    expect(parseBytes('1GB')).toBe(1e9);
    expect(parseBytes('5 parsecs')).toBeUndefined();
  });
  it.each([
    ['300B', 300e9], ['2T', 2e12], ['15 trillion', 15e12], ['1.5e12', 1.5e12], ['6,400,000', 6.4e6], ['1,536', 1536], ['1,500B', 1.5e12],
  ])('parseCount(%s) = %d', (t, c) => expect(parseCount(t)).toBe(c));
  it.each(['1,5', '15,00', ',536', '1,5366'])('parseCount(%j) is no count: the commas do not group thousands', (t) => expect(parseCount(t)).toBeUndefined());
  it.each([['2.5', 2.5], [' -5 ', -5], ['1e-3', 0.001], ['.5', 0.5], ['7.', 7], ['1,024', 1024], ['-1,234.5', -1234.5]])('parseDecimal(%j) = %d', (t, n) => expect(parseDecimal(t)).toBe(n));
  it.each(['0x10', '0b101', '0o10', '', ' ', 'abc', '1,5', '1,2345', 'Infinity'])('parseDecimal(%j) is no number (Number() reads some of these)', (t) => {
    expect(parseDecimal(t)).toBeUndefined();
  });
});

describe('formatPercentChange', () => {
  it.each([[0.005, '+0.5%'], [-0.042, '−4.2%'], [0.0996, '+10%'], [0.31, '+31%'], [0, '+0.0%'], [3.66, '+366%'], [0.0003, '+<0.1%'], [-0.0004, '−<0.1%'], [0.0005, '+0.1%']])('%d reads %s (one decimal under 10%, decided on the rounded figure)', (r, text) => {
    expect(formatPercentChange(r)).toBe(text);
  });
});

describe('formatCountExact: a count as a reader writes it, read back exactly by parseCount', () => {
  it.each([[2e12, '2T'], [1.5e12, '1.5T'], [300e9, '300B'], [7e6, '7M'], [1536, '1.536k'], [999, '999'], [1234567, '1234567'], [1e15, '1000T']])('%d reads %s', (n, text) => {
    expect(formatCountExact(n)).toBe(text);
    expect(parseCount(text)).toBe(n);
  });
});

describe('formatGrouped', () => {
  it('groups whole numbers from a thousand up and keeps significant figures below', () => {
    expect(formatGrouped(5390.4)).toBe('5,390');
    expect(formatGrouped(1_234_567.8)).toBe('1,234,568');
    expect(formatGrouped(999.6)).toBe('1,000');
    expect(formatGrouped(337.2)).toBe('337');
    expect(formatGrouped(0.02404)).toBe('0.0240');
  });
  it('writes what six decimals cannot hold in powers of ten, never as zeros', () => {
    expect(formatGrouped(1e-9)).toBe('1.00e-9');
    expect(formatGrouped(2.346e-7)).toBe('2.35e-7');
    expect(formatGrouped(0.00001234)).toBe('0.0000123');
  });
  it('shows a whole number whole, as a request gave it: 20 requests/s, not 20.0', () => {
    expect(formatGrouped(20)).toBe('20');
    expect(formatGrouped(5)).toBe('5');
    expect(formatGrouped(1500)).toBe('1,500');
    expect(formatGrouped(12.5)).toBe('12.5');
  });
});

describe('whole numbers', () => {
  it('gcd and lcm of GPU and batch counts', () => {
    expect([gcd(1536, 16240), gcd(7, 5), gcd(8, 0)]).toEqual([16, 1, 8]);
    expect([lcm(4, 6), lcm(35, 64), lcm(1, 9)]).toEqual([12, 2240, 9]);
  });
});

describe('QA (mutation testing): formatSeconds at its two-minute boundary', () => {
  it('two minutes exactly is minutes, as the function says ("from two minutes, minutes")', () => {
    expect(formatSeconds(120)).toBe('2.00 min');
    // Just under, as shown: 119.4 s is "119 s"; 119.9 s shows as 120 and so is "2.00 min" (the unit is judged on the figure shown).
    expect(formatSeconds(119.4)).not.toMatch(/min/);
    expect(formatSeconds(119.9)).toBe('2.00 min');
  });
});
