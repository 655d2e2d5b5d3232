import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { runsSearch } from '../src/answer/runs-search.ts';
import { todayOf } from '../src/lexicon/dates.ts';
import { parse } from '../src/parse.ts';

const DAY = 24 * 60 * 60;
/** A Saturday. Every expected count below is counted by hand on the calendar from it (November has 30 days, February 2027 28). */
const TODAY = '2026-11-28';
const QUESTION = (when: string): string => `how many h100 nodes to train llama 3 70b on 15T tokens ${when}`;
const deadlineText = (q: ReturnType<typeof parse>): string | undefined => q.defaults.find((d) => d.field === 'deadlineSeconds')?.text;

describe('a deadline given as a date, read against the caller\'s today', () => {
  it.each([
    // 28 Nov → 30 Nov is 2 days, then December's 31: 33.
    ['by 31 december', 33, '31 December 2026'],
    ['by 31 December 2026', 33, '31 December 2026'],
    // 33 to the last day of 2026, then 15 more.
    ['by 15 january', 48, '15 January 2027'],
    ['by the 15th of january', 48, '15 January 2027'],
    ['by january 15', 48, '15 January 2027'],
    ['by jan 15th', 48, '15 January 2027'],
    ['by 15 jan 2027', 48, '15 January 2027'],
    ['by january 15, 2027', 48, '15 January 2027'],
    ['by 2027-01-15', 48, '15 January 2027'],
    ['until 2027-01-15', 48, '15 January 2027'],
    // The last day of the current month, quarter (Q4) and year; of the week (a Sunday, ISO 8601 weeks).
    ['by end of month', 2, '30 November 2026'],
    ['by the end of the month', 2, '30 November 2026'],
    ['by eom', 2, '30 November 2026'],
    ['by end of quarter', 33, '31 December 2026'],
    ['by eoq', 33, '31 December 2026'],
    ['by end of the year', 33, '31 December 2026'],
    ['by eoy', 33, '31 December 2026'],
    ['by end of the week', 1, 'Sunday 29 November 2026'],
    // A month or a quarter alone is its first day: 33 + January's 31 + February's 28 + 1 = 93 to 1 March; + 31 + 30 + 31 + 30 to 1 July.
    ['by march', 93, '1 March 2027'],
    ['by Q3', 215, '1 July 2027'],
    ['before Q3', 215, '1 July 2027'],
    // Their last days: 1 March + 30; 1 July + 31 + 31 + 29.
    ['by end of march', 123, '31 March 2027'],
    ['by end of Q3', 306, '30 September 2027'],
    ['by tomorrow', 1, '29 November 2026'],
    // Saturday → the next Friday.
    ['by friday', 6, 'Friday 4 December 2026'],
    ['by next friday', 6, 'Friday 4 December 2026'],
    ['ahead of friday', 6, 'Friday 4 December 2026'],
  ])('"%s" is %d days from 28 November 2026, read as %s and said so', (when, days, read) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBe(days * DAY);
    expect(deadlineText(q)).toContain(`"${when}" read as ${read}`);
    expect(deadlineText(q)).toContain(`${days} day${days === 1 ? '' : 's'} from today (28 November 2026`);
    // Nothing of the date is left to be said not read ("31", "2027").
    expect(q.notRead ?? []).toEqual([]);
  });

  it('a month or a quarter alone is said to be read as its first day, the conservative reading', () => {
    expect(deadlineText(parse(QUESTION('by march'), { today: TODAY }))).toMatch(/first day of March, the conservative reading.*"by end of March"/);
    expect(deadlineText(parse(QUESTION('before q3'), { today: TODAY }))).toMatch(/first day of Q3, the conservative reading.*"by end of Q3"/);
  });

  it('the assumption line reads as specified, with the end-of-day convention', () => {
    expect(deadlineText(parse(QUESTION('by 31 december'), { today: TODAY })))
      .toBe('"by 31 december" read as 31 December 2026, 33 days from today (28 November 2026; a deadline is the end of its day)');
  });

  it.each([
    // A year-less date is its next occurrence after today: 31 December on 31 December is a year on (2027 has 365 days).
    ['2026-12-31', 'by 31 december', 365],
    // 15 March 2027 → 15 March 2028 is 366 days (29 February 2028 between): 1 March 2028 is 14 before.
    ['2027-03-15', 'by march', 352],
    // 2028 is a leap year: 28 February → 1 March is 2 days.
    ['2028-02-28', 'by 1 march', 2],
    // 29 February with no year: the next one, 29 February 2028 (93 days to 1 March 2027, 365 more to 1 March 2028, one back).
    ['2026-11-28', 'by 29 february', 458],
    // The week's last day on a Monday: Sunday, 6 days on.
    ['2026-11-30', 'by end of week', 6],
    // The month's last day from its first: 30 November.
    ['2026-11-01', 'by eom', 29],
  ])('today %s: "%s" is %d days', (today, when, days) => {
    expect(parse(QUESTION(when), { today }).stated.deadlineSeconds).toBe(days * DAY);
  });

  it('a Date is read as its UTC calendar day', () => {
    const lateOn28th = new Date(Date.UTC(2026, 10, 28, 23, 59));
    expect(parse(QUESTION('by 31 december'), { today: lateOn28th }).stated.deadlineSeconds).toBe(33 * DAY);
  });

  it('a date more than ten years ahead is planned as asked', () => {
    // 1 January 2040 is 13 years and a month on: more than 13 × 365 days.
    const q = parse(QUESTION('by 2040-01-01'), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBeGreaterThan(13 * 365 * DAY);
  });

  it('a past date is refused, saying today', () => {
    const q = parse(QUESTION('by 1 january 2020'), { today: TODAY });
    expect(q.problems).toContain('"by 1 january 2020" is past: today is 28 November 2026');
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(runsSearch(q)).toBe(false);
    expect(ask(QUESTION('by 2026-11-27'), { today: TODAY }).kind).toBe('refusal');
  });

  it.each(['by today', 'by tonight', 'by 28 november 2026', 'by end of month'])('"%s" on the deadline\'s own day is refused: no whole day is left', (when) => {
    const today = when === 'by end of month' ? '2026-11-30' : TODAY;
    const q = parse(QUESTION(when), { today });
    expect(q.problems.join(' ')).toMatch(new RegExp(`"${when}" is today`));
    expect(q.stated.deadlineSeconds).toBeUndefined();
  });

  it.each([['by 31 april', 'April has 30 days'], ['by 29 feb 2027', 'February 2027 has 28 days']])('"%s" is no date: %s', (when, why) => {
    expect(parse(QUESTION(when), { today: TODAY }).problems).toContain(`"${when}" is no date: ${why}`);
  });

  it('a numeric date with slashes is refused as ambiguous, asking for a month name or an ISO date', () => {
    const q = parse(QUESTION('by 1/2/2027'), { today: TODAY });
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    const text = deadlineText(q) ?? '';
    expect(text).toContain('"by 1/2/2027" not understood');
    expect(text).toMatch(/month first in the US and day first in Europe.*month's name.*ISO date/);
  });

  it('a length is read as before, today or not', () => {
    for (const options of [{}, { today: TODAY }]) {
      const q = parse(QUESTION('in 20 days'), options);
      expect(q.stated.deadlineSeconds).toBe(20 * DAY);
      expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/read as|not understood/);
    }
  });

  it('"by march 64 h100": the month is the date, the 64 the GPUs', () => {
    const q = parse('how many nodes for llama 3 70b by march 64 h100', { today: TODAY });
    expect(q.stated).toMatchObject({ gpus: 64, deadlineSeconds: 93 * DAY });
  });

  it('a malformed today is the caller\'s error', () => {
    expect(() => parse('how many nodes for 70b', { today: '28/11/2026' })).toThrow(RangeError);
    expect(() => parse('how many nodes for 70b', { today: '2026-02-30' })).toThrow(RangeError);
  });
});

describe('calendar days (computed without Date: a pure package constructs none)', () => {
  it('agree with Date.UTC on every day from 1900 to 2200, leap days and centuries included', () => {
    const MS_PER_DAY = DAY * 1000;
    const wrong: string[] = [];
    for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2200, 0, 1); t += MS_PER_DAY) {
      const iso = new Date(t).toISOString().slice(0, 10);
      const day = todayOf(iso);
      const back = `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.date).padStart(2, '0')}`;
      if (day.n !== t / MS_PER_DAY || back !== iso) wrong.push(iso);
    }
    expect(wrong).toEqual([]);
  });
});

describe('without today, a date is said not understood (the package keeps no clock)', () => {
  it.each(['by 31 december', 'by 15 jan 2027', 'by the 15th of january', 'by jan 15th', 'by end of month', 'by 2025-06-30'])('"%s": the default deadline, and why', (when) => {
    const q = parse(`how many nodes for llama 3 70b ${when} on h100`);
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    expect(deadlineText(q)).toBe(`a 30-day deadline ("${when}" not understood: a date needs today's, which I do not know; give a length, e.g. "in 20 days")`);
    // The date's numbers are not said again as numbers no reading took.
    expect(q.notRead ?? []).toEqual([]);
  });
});

describe('ask passes today to parse', () => {
  it('the answer plans to the date and says how it was read', () => {
    const a = ask('how many h100 nodes to train llama 3 8b on 1T tokens by 31 december', { today: TODAY });
    expect(a.kind).toBe('answer');
    expect(a.headline).toContain('deadline 33 days');
    expect(a.assumptions).toContain('"by 31 december" read as 31 December 2026, 33 days from today (28 November 2026; a deadline is the end of its day)');
  });
});
