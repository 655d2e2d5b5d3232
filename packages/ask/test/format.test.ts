import { days, formatDuration, hours, minutes, parseCount } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { formatDays, moneyText, nodesGpus, statedMoney } from '../src/format.ts';

describe('money as chat writes it', () => {
  it.each([
    [2e6, '$', '$2M'], [500e3, '€', '€500k'], [1.5e6, undefined, '1.5M'], [2.25e6, '$', '$2.25M'], [10e3, '$', '$10k'], [480, undefined, '480'],
    // As stated, every digit: "$1.005M" (as parse reads it) is never rounded to "$1M", which is another budget.
    [parseCount('1.005m')!, '$', '$1.005M'],
  ] as const)('a money budget of %d in %s reads %s', (amount, currency, text) => {
    expect(statedMoney(amount, currency)).toBe(text);
  });

  it.each([
    [1_143_346, '$', '$1.14M'], [952_000, '€', '€952k'], [1_200_000, '$', '$1.20M'], [480, undefined, '480'],
  ] as const)('what a plan spends, %d in %s, reads %s (three figures)', (amount, currency, text) => {
    expect(moneyText(amount, currency)).toBe(text);
  });
});

describe('clusters and days as chat counts them', () => {
  it.each([
    [1, 1, '1 node (1 GPU)'], [1, 8, '1 node (8 GPUs)'], [8, 64, '8 nodes (64 GPUs)'],
  ])('%d nodes of %d GPUs in all: %s', (nodes, gpus, text) => {
    expect(nodesGpus({ nodes, gpus })).toBe(text);
  });

  it.each([
    [1, '1 day'], [1.04, '1 day'], [8.24, '8.2 days'], [30, '30 days'], [372.4, '372.4 days'],
    // To one decimal as the CLI rounds (QA: toFixed wrote 23.95 as "23.9 days" where the CLI said "24.0 days").
    [23.95, '24 days'], [150.46, '150.5 days'], [3140.06, '3,140.1 days (8.6 years)'],
    [729, '729 days'], [730, '730 days (2.0 years)'], [2791, '2,791 days (7.6 years)'],
    // Under a day in hours, then minutes: 26 minutes read "0 days" (QA finding).
    [0.4, '9.6 hours'], [26 / 1440, '26 minutes'], [0.96, '23.0 hours'],
  ])('%d days: %s (two years and more also in Julian years of 365.25 days)', (days, text) => {
    expect(formatDays(days)).toBe(text);
  });
});

/** The unit a duration is said in, singular: "23.3 hours" → "hour", "1 day" → "day", "23.7 s" → "s". */
const unitOf = (text: string): string => text.replace(/ \(.*\)$/, '').split(' ').at(-1)!.replace(/(?<=\w\w)s$/, '');

describe('a time to train in the unit the CLI and the widget say it in (units\' formatDuration)', () => {
  // From 1 s to 10 years. Below a day the bot writes formatDuration's very words; from a day, its figure less a ".0".
  // QA: 0.97 days read "1 day" here where the CLI, for the same plan, said "23.3 hours".
  it.each([
    [1, '1.00 s'], [59, '59.0 s'], [minutes(1.5), '2 minutes'], [minutes(30), '30 minutes'], [minutes(59), '59 minutes'],
    [hours(1), '1.0 hours'], [hours(12), '12.0 hours'], [days(0.97), '23.3 hours'],
    // A span that rounds up to the next unit is said in it, as formatDuration says it (QA: 0.999 days read "24.0 hours").
    [59.99, '1 minute'], [minutes(59.9), '1.0 hours'], [days(0.999), '1 day'],
    [days(1), '1 day'], [days(45), '45 days'], [days(3652.5), '3,652.5 days (10.0 years)'],
  ])('%d s: %s', (seconds, text) => {
    const said = formatDays(seconds / days(1));
    expect(said).toBe(text);
    expect(unitOf(said)).toBe(unitOf(formatDuration(seconds)));
    if (unitOf(formatDuration(seconds)) !== 'day') expect(said).toBe(formatDuration(seconds));
    // In days, the very number the CLI writes: "24 days" beside "24.0 days", never "23.9".
    else expect(Number(said.split(' ')[0]!.replaceAll(',', ''))).toBe(Number(formatDuration(seconds).split(' ')[0]!.replaceAll(',', '')));
  });
});
