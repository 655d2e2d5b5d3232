import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { runsSearch } from '../src/answer/runs-search.ts';
import { todayOf } from '../src/lexicon/calendar.ts';
import { parse } from '../src/parse.ts';
import { DAY, deadlineText, TODAY } from './support/dates.ts';

const QUESTION = (when: string): string => `how many h100 nodes to train llama 3 70b on 15T tokens ${when}`;

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
    // A month or a quarter alone is its first day, done before it begins: the end of the day before. 33 to 31 December +
    // January's 31 + February's 28 = 92 to the end of 28 February; + 31 + 30 + 31 + 30 = 214 to the end of 30 June.
    // (Item 2 of the QA: these were 93 and 215, the deadline the end of the first day itself.)
    ['by march', 92, 'before 1 March 2027, i.e. by the end of 28 February 2027'],
    ['by Q3', 214, 'before 1 July 2027, i.e. by the end of 30 June 2027'],
    ['before Q3', 214, 'before 1 July 2027, i.e. by the end of 30 June 2027'],
    // Their last days: 1 March + 30; 1 July + 31 + 31 + 29.
    ['by end of march', 123, '31 March 2027'],
    ['by end of Q3', 306, '30 September 2027'],
    ['by tomorrow', 1, '29 November 2026'],
    // Saturday → the next Friday.
    ['by friday', 6, 'Friday 4 December 2026'],
    ['by next friday', 6, 'Friday 4 December 2026'],
    // A day said "before" or "ahead of" is done before it begins, as "before march" is: the end of the day before.
    ['ahead of friday', 5, 'before Friday 4 December 2026, i.e. by the end of Thursday 3 December 2026'],
    ['before 31 december', 32, 'before 31 December 2026, i.e. by the end of 30 December 2026'],
    ['before 2027-01-15', 47, 'before 15 January 2027, i.e. by the end of 14 January 2027'],
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
    // 15 March 2027 → 15 March 2028 is 366 days (29 February 2028 between): 1 March 2028 is 14 before, and a first day
    // is done before it begins: the end of 29 February 2028, 351 days (was 352, item 2).
    ['2027-03-15', 'by march', 351],
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
    // The end of 28 February 2027: 92 days (was 93, item 2).
    expect(q.stated).toMatchObject({ gpus: 64, deadlineSeconds: 92 * DAY });
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

describe('a first day is done before it begins: the deadline is the end of the day before (QA item 2)', () => {
  it.each([
    // 28 November (a Saturday) → the end of 30 November: 2 days, as "by end of month" is (QA: 3, the end of 1 December).
    ['by december', 2, 'before 1 December 2026, i.e. by the end of 30 November 2026'],
    ['by next month', 2, 'before 1 December 2026, i.e. by the end of 30 November 2026'],
    // Before 1 January 2027: the end of 31 December, 33 days, as "by 31 december" is (QA: 34).
    ['by q1', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    ['by next year', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    // 33 + January's 31 + February's 28 = 92 (QA: 93).
    ['before march', 92, 'before 1 March 2027, i.e. by the end of 28 February 2027'],
    ['by 2027-03', 92, 'before 1 March 2027, i.e. by the end of 28 February 2027'],
    // Next week begins Monday 30 November: the end of Sunday 29 November, 1 day (QA: 2).
    ['by next week', 1, 'before Monday 30 November 2026, i.e. by the end of Sunday 29 November 2026'],
  ])('"%s" is %d days, said as %s', (when, days, read) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBe(days * DAY);
    expect(deadlineText(q)).toContain(`"${when}" read as ${read} (`);
    expect(deadlineText(q)).toContain(`, ${days} day${days === 1 ? '' : 's'} from today (28 November 2026`);
  });

  it('the assumption line says the first day, the day the deadline ends, and the days', () => {
    expect(deadlineText(parse(QUESTION('before march'), { today: TODAY }))).toBe(
      '"before march" read as before 1 March 2027, i.e. by the end of 28 February 2027 (the first day of March, the conservative reading: done before it begins; say "by end of March" for its last day), 92 days from today (28 November 2026; a deadline is the end of its day)',
    );
  });

  it.each([
    // On 30 November, December begins tomorrow: done before it begins is the end of today, no whole day.
    ['2026-11-30', 'by december'],
    ['2026-11-30', 'by next month'],
    // On Sunday 29 November, next week begins tomorrow.
    ['2026-11-29', 'by next week'],
    // On 31 December 2026, before 2027 is the end of today.
    ['2026-12-31', 'by 2027'],
  ])('today %s: "%s" leaves no whole day and is refused, as a date today is', (today, when) => {
    const q = parse(QUESTION(when), { today });
    expect(q.problems.join(' ')).toMatch(new RegExp(`"${when}" is today .*no whole day`));
    expect(q.stated.deadlineSeconds).toBeUndefined();
  });

  it('a first day already past is refused as past', () => {
    // Before 1 December 2026 is the end of 30 November, past on 1 December.
    expect(parse(QUESTION('by december 2026'), { today: '2026-12-01' }).problems).toContain('"by december 2026" is past: today is 1 December 2026');
  });

  it('the answer plans the days of the first-day reading', () => {
    const a = ask('how many h100 nodes to train llama 3 8b on 1T tokens by december', { today: TODAY });
    expect(a.headline).toContain('deadline 2 days');
  });
});

describe('date phrases that were dropped unsaid, read where they name one day (QA item 1)', () => {
  it.each([
    // 28 November → 30 November is 2 days; + 25 = 27 to Christmas Day.
    ['by christmas', 27, '25 December 2026'],
    ['by xmas', 27, '25 December 2026'],
    ['by christmas eve', 26, '24 December 2026'],
    // New Year's Day: 33 to 31 December, + 1.
    ['by new year', 34, '1 January 2027'],
    ["by new year's day", 34, '1 January 2027'],
    ['by new year’s', 34, '1 January 2027'],
    // "the 15th": 15 November is past, so 15 December: 2 + 15 = 17.
    ['by the 15th', 17, '15 December 2026'],
    // "31st": November has 30 days, so 31 December: 33.
    ['by 31st', 33, '31 December 2026'],
    // "the 30th" is 30 November, after today: 2. "the 28th" is today, so 28 December: 2 + 28 = 30.
    ['by the 30th', 2, '30 November 2026'],
    ['by the 28th', 30, '28 December 2026'],
    ['by the 1st of next month', 3, '1 December 2026'],
    // mid-December: its 15th, 17 days.
    ['by mid-december', 17, '15 December 2026'],
    ['by the middle of january', 48, '15 January 2027'],
    // A quarter with its year written first, and a year alone: the first day, done before it begins: the end of 31 December, 33.
    ['by 2027Q1', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    ['by Q1 2027', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    ['by 2027', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    ['before 2027', 33, 'before 1 January 2027, i.e. by the end of 31 December 2026'],
    // The last day of Q1 2027, 31 March: 92 to the end of 28 February + 31 = 123, as "by end of march" is.
    ['by end of 2027Q1', 123, '31 March 2027'],
    // 33 to 31 December + 15 = 48.
    ['by 15-jan-2027', 48, '15 January 2027'],
    ['by 15-jan', 48, '15 January 2027'],
    ['deadline 15 january', 48, '15 January 2027'],
    ['deadline: 15 january', 48, '15 January 2027'],
    ['with a deadline of 15 january', 48, '15 January 2027'],
    ['due 15 january', 48, '15 January 2027'],
  ])('"%s" is %d days from 28 November 2026, read as %s', (when, days, read) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBe(days * DAY);
    const phrase = when.replace(/^with a /, '');
    expect(deadlineText(q)).toContain(`"${phrase}" read as ${read}`);
    expect(deadlineText(q)).toContain(`${days} day${days === 1 ? '' : 's'} from today (28 November 2026`);
    // None of the date's numbers is left to be said as a number no reading took.
    expect(q.notRead ?? []).toEqual([]);
  });

  it.each(['by early january', 'by late january', 'by end of the decade', 'by this summer', 'by easter', 'by thanksgiving', 'by mid-2027', 'by the weekend'])(
    '"%s" names no single day: found and said not understood, the assumed 30-day deadline naming it',
    (when) => {
      const q = parse(QUESTION(when), { today: TODAY });
      expect(q.problems).toEqual([]);
      expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
      expect(deadlineText(q)).toMatch(new RegExp(`^a 30-day deadline \\("${when}" not understood: it names no single day \\(.+\\); say a date, e\\.g\\. "by 15 January 2027", or a length, e\\.g\\. "in 20 days"\\)$`));
      expect(q.notRead ?? []).toEqual([]);
    },
  );

  it.each([
    'by christmas', 'by new year', 'by the 15th', 'by 31st', 'by mid-december', 'by 2027q1', 'by 2027', 'before 2027', 'by 15-jan-2027', 'deadline 15 january',
    'by early january', 'by late january', 'by end of the decade', 'by this summer', 'by easter', 'by thanksgiving',
  ])('without today, "%s" is found and said to need today\'s date', (when) => {
    const q = parse(QUESTION(when));
    expect(q.parameters.deadlineSeconds).toBe(30 * DAY);
    expect(deadlineText(q)).toBe(`a 30-day deadline ("${when}" not understood: a date needs today's, which I do not know; give a length, e.g. "in 20 days")`);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('a day of the month that the next month lacks is no date', () => {
    // On 15 January 2027, the 30th of next month: February 2027 has 28 days.
    expect(parse(QUESTION('by the 30th of next month'), { today: '2027-01-15' }).problems).toContain('"by the 30th of next month" is no date: February 2027 has 28 days');
  });

  it.each(['stop by the 3rd epoch', 'by the 2nd checkpoint', 'at most 200ms by the 99th percentile'])('an ordinal of something else is no day of the month: "%s"', (words) => {
    const q = parse(`how long to train llama 3 8b on 1T tokens on 64 h100, ${words}`, { today: TODAY });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.problems).toEqual([]);
  });

  it.each(['by 2048 gpus', 'scaled by 2048 h100'])('a count is never a year: "%s"', (words) => {
    const q = parse(`how many nodes for llama 3 70b ${words}`, { today: TODAY });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(q.problems).toEqual([]);
  });
});

describe('a length and a date both given (QA item 4)', () => {
  it.each([{}, { today: TODAY }])('the length is planned and the date said as a second deadline (%o)', (options) => {
    const q = parse(QUESTION('in 30 days by 31 december'), options);
    expect(q.stated.deadlineSeconds).toBe(30 * DAY);
    expect(q.notRead).toEqual([{ phrase: '"by 31 december"', why: 'a second deadline; "30 days" is planned, say one' }]);
  });
});
