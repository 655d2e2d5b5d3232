import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/** Seconds in a minute, an hour, a day: the deadlines below counted by hand in them. */
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('a deadline in minutes is a deadline (QA: "in 30 minutes" left unread, a default 30 days planned)', () => {
  it.each([
    ['in 30 minutes', 30 * MINUTE],
    ['in 90 minutes', 90 * MINUTE],
    ['in 20 min', 20 * MINUTE],
    ['within 45 mins', 45 * MINUTE],
    ['in ninety minutes', 90 * MINUTE],
  ])('"%s" is %d seconds, nothing assumed or left unread', (span, seconds) => {
    const q = parse(`how many nodes to train llama3-70b on 2T tokens ${span}`);
    expect(q.stated.deadlineSeconds).toBe(seconds);
    expect(q.defaults.some((d) => d.field === 'deadlineSeconds')).toBe(false);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"20 mo" is still 20 months, and "2m tokens" two million tokens, never minutes', () => {
    expect(parse('how many nodes to train llama3-8b on 1T tokens in 20 mo').stated.deadlineSeconds).toBe(20 * 30 * DAY);
    expect(parse('how many nodes to train llama3-8b on 2m tokens in 1 day').stated).toMatchObject({ tokens: 2e6, deadlineSeconds: DAY });
  });

  it('the answer plans the 30 minutes: no size meets them, and the closest is said, never a confident 30-day plan', () => {
    const a = ask('how many nodes to train llama3-70b on 2T tokens in 30 minutes', { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toMatch(/meets the deadline/);
    expect(a.assumptions.join(' ')).not.toMatch(/30-day deadline/);
    expect(a.notes.join(' ')).not.toMatch(/Not read/);
  });
});

describe('a span written in parts is their sum (QA: "in 2 weeks 3 days" planned 14 days, "3 days" unread)', () => {
  it.each([
    // 2 × 7 + 3 = 17 days.
    ['in 2 weeks 3 days', 17 * DAY, '"2 weeks 3 days" read as one span, its parts summed: 17 days'],
    ['in 2 weeks and 3 days', 17 * DAY, '"2 weeks and 3 days" read as one span, its parts summed: 17 days'],
    ['in 2 weeks, 3 days', 17 * DAY, '"2 weeks, 3 days" read as one span, its parts summed: 17 days'],
    // 24 + 12 = 36 hours = 1.5 days.
    ['in 1 day and 12 hours', 36 * HOUR, '"1 day and 12 hours" read as one span, its parts summed: 1.5 days'],
    // 60 + 30 = 90 minutes = 1.5 hours.
    ['in 1 hour 30 min', 90 * MINUTE, '"1 hour 30 min" read as one span, its parts summed: 1.5 hours'],
    // 30 + 14 = 44 days, the month's length said.
    ['in 1 month 2 weeks', 44 * DAY, '"1 month 2 weeks" read as one span, its parts summed: 44 days (a month taken as 30 days)'],
  ])('"%s" is %d seconds', (span, seconds, reading) => {
    const q = parse(`how many nodes to train llama3-70b on 2T tokens ${span}`);
    expect(q.stated.deadlineSeconds).toBe(seconds);
    expect(q.defaults.find((d) => d.field === 'deadlineSeconds')?.text).toBe(reading);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('parts in rising units are no span: "3 days 2 weeks" plans 3 days and says "2 weeks" not read', () => {
    const q = parse('how many nodes to train llama3-70b on 2T tokens in 3 days 2 weeks');
    expect(q.stated.deadlineSeconds).toBe(3 * DAY);
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"2 weeks"']);
  });

  it('the answer meets the 17 days: its headline says the deadline and days within it', () => {
    const a = ask('how many nodes to train llama3-70b on 2T tokens in 2 weeks 3 days', { publicUrl: null });
    expect(a.ok).toBe(true);
    const [, days] = /train 2\.00T tokens in ([\d.]+) days \(deadline 17 days\)$/.exec(a.headline) ?? [];
    expect(Number(days)).toBeLessThanOrEqual(17);
    expect(a.assumptions).toContain('"2 weeks 3 days" read as one span, its parts summed: 17 days');
  });
});
