import { describe, expect, it } from 'vitest';
import type { EstimateOk, NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { askedTimeUnit, daysAsAsked } from '../src/answer/time-as-asked.ts';
import { formatDays } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('a time asked in weeks, months or hours is said in that unit too', () => {
  it.each([
    ['how many weeks to train llama 3 70b on 2T tokens on 512 h100', 'week'],
    ['How many months to train gpt3 175b on 128 nodes?', 'month'],
    ['how many hours to train llama3 8b on 64 h100', 'hour'],
    ['how long to train llama 3 70b on 512 h100 in weeks?', 'week'],
    ['how many days to train llama 3 70b on 512 h100', undefined],
    // A deadline in weeks is no unit asked for.
    ['how long to train llama 3 70b in 2 weeks', undefined],
  ])('"%s" asks in %s', (question, unit) => {
    expect(askedTimeUnit(question)).toBe(unit);
  });

  it.each([
    [48.72, 'week', '48.7 days (7.0 weeks)'],
    [48.72, 'month', '48.7 days (1.6 months of 30 days)'],
    [48.72, 'hour', '48.7 days (1,169 hours)'],
    [2791, 'month', '2,791 days (93.0 months of 30 days)'],
    [2791, 'week', '2,791 days (399 weeks)'],
  ] as const)('%d days in %ss is "%s"', (days, unit, text) => {
    expect(daysAsAsked(days, unit)).toBe(text);
  });

  it.each([
    ['how many weeks to train llama 3 70b on 2T tokens on 512 h100', 7, 'weeks'],
    ['how many months to train llama 3 70b on 2T tokens on 512 h100', 30, 'months of 30 days'],
  ])('"%s" (the best plan on the cluster named) heads with the days and the same time in its unit', (question, daysPerUnit, unit) => {
    const a = ask(question, { publicUrl: null });
    const days = (a.data as NodesOk).days;
    // The days as every answer counts them (formatDays: "50 days", not "50.0 days"), then the unit asked.
    expect(a.headline).toContain(`${formatDays(days)} (${(days / daysPerUnit).toFixed(1)} ${unit})`);
  });

  it('a stated layout ("with tp 8 pp 8") says its time in the unit asked as well', () => {
    const a = ask('how many weeks to train gpt3 175b on 300B tokens on 128 a100 nodes with tp 8 pp 8', { publicUrl: null });
    const days = (a.data as EstimateOk).timeToTrain?.days ?? Number.NaN;
    expect(a.headline).toContain(`(${(days / 7).toFixed(1)} weeks)`);
  });

  it('a question in days is said in days alone, as before', () => {
    expect(ask('how many days to train llama 3 70b on 2T tokens on 512 h100', { publicUrl: null }).headline).not.toMatch(/weeks|months/);
  });
});
