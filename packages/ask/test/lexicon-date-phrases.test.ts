import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';
import { DAY, deadlineText, TODAY } from './support/dates.ts';

const QUESTION = (when: string): string => `how many h100 nodes to train llama 3 70b on 15T tokens ${when}`;

describe('dates said with "in", "during", "within", "til", "no later than" (QA: dropped unsaid, or only "2027" said not read)', () => {
  it.each([
    // The end of January 2027: 2 + 31 + 31 = 64, as "by end of january" is.
    ['in january', 64, '31 January 2027'],
    ['by end of january', 64, '31 January 2027'],
    // The end of December 2026: 2 + 31 = 33.
    ['in december', 33, '31 December 2026'],
    // The end of Q1 2027, 31 March: 2 + 31 + 31 + 28 + 31 = 123, as "by end of Q1 2027" is.
    ['in Q1 2027', 123, '31 March 2027'],
    ['during Q1 2027', 123, '31 March 2027'],
    ['within Q1 2027', 123, '31 March 2027'],
    ['by end of Q1 2027', 123, '31 March 2027'],
    // 15 January 2027: 2 + 31 + 15 = 48, as "by 2027-01-15" is.
    ['til 2027-01-15', 48, '15 January 2027'],
    ['till 2027-01-15', 48, '15 January 2027'],
    ['no later than 2027-01-15', 48, '15 January 2027'],
    ['not later than 15 january 2027', 48, '15 January 2027'],
  ])('"%s" is %d days from 28 November 2026, read as %s', (when, days, read) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBe(days * DAY);
    expect(deadlineText(q)).toContain(`"${when}" read as ${read}`);
    expect(deadlineText(q)).toContain(`${days} days from today (28 November 2026`);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"in january" says it was read as done by the end of the month', () => {
    expect(deadlineText(parse(QUESTION('in january'), { today: TODAY }))).toContain('(the last day of January: done at any time in it, read as by its end)');
  });

  it.each(['in early january', 'during the summer', 'by the last week of december'])('"%s" names no single day: said not understood, never dropped', (when) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    expect(deadlineText(q)).toMatch(new RegExp(`^a 30-day deadline \\("${when}" not understood: it names no single day`));
  });

  it('"in" before a year alone is no date: "as meta did in 2024" is never a past deadline', () => {
    const q = parse(QUESTION('as meta did in 2024'), { today: TODAY });
    expect(q.problems.join(' ')).not.toMatch(/is past/);
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
  });
});

describe('past days are refused, as past dates are (QA: dropped unsaid, 30 days planned)', () => {
  it.each(['by yesterday', 'by last friday', 'by last month', 'by last week', 'before last friday', 'by last march', 'by last q3'])('"%s" is past', (when) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toContain(`"${when}" is past: today is 28 November 2026`);
    expect(q.stated.deadlineSeconds).toBeUndefined();
  });

  it('"last year\'s" and "the last friday of" are no past deadline', () => {
    expect(parse(QUESTION("scaled by last year's budget"), { today: TODAY }).problems.join(' ')).not.toMatch(/is past/);
    expect(parse(QUESTION('by the last friday of the month'), { today: TODAY }).problems.join(' ')).not.toMatch(/is past/);
  });
});

describe('an ISO date with a time of day is its day (QA: "by 2027-01-15T00:00" read as "by 2027", and "00" not read)', () => {
  it.each(['by 2027-01-15T00:00', 'by 2027-01-15T18:30:00Z', 'by 2027-01-15 09:00', 'by 2027-01-15T09:00+01:00'])('"%s" is 48 days, the time said not read', (when) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    // 15 January 2027: 2 + 31 + 15 = 48.
    expect(q.stated.deadlineSeconds).toBe(48 * DAY);
    expect(deadlineText(q)).toMatch(new RegExp(`^"${when.replace(/[+]/g, '\\+')}" read as 15 January 2027 \\(the time of day \\S+ not read: the whole day taken, to its end\\), 48 days`));
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"before" a date with a time is the end of the day before: 47 days', () => {
    expect(parse(QUESTION('before 2027-01-15T00:00'), { today: TODAY }).stated.deadlineSeconds).toBe(47 * DAY);
  });
});

describe('a named day\'s name sits beside that day (QA: "(Christmas Day)" followed 24 December)', () => {
  it('"before christmas": before 25 December (Christmas Day), i.e. by the end of 24 December, 26 days', () => {
    const q = parse(QUESTION('before christmas'), { today: TODAY });
    // 2 + 24 = 26.
    expect(q.stated.deadlineSeconds).toBe(26 * DAY);
    expect(deadlineText(q)).toBe('"before christmas" read as before 25 December 2026 (Christmas Day), i.e. by the end of 24 December 2026, 26 days from today (28 November 2026; a deadline is the end of its day)');
  });

  it('"by christmas": 25 December 2026 (Christmas Day), 27 days', () => {
    expect(deadlineText(parse(QUESTION('by christmas'), { today: TODAY }))).toBe('"by christmas" read as 25 December 2026 (Christmas Day), 27 days from today (28 November 2026; a deadline is the end of its day)');
  });
});
