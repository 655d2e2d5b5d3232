import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';
import { DAY, deadlineText, TODAY } from './support/dates.ts';

const QUESTION = (when: string): string => `how many H100 nodes to train llama3-8b on 1T tokens ${when}`;

// Checked against the platform's own calendar (Date.UTC, getUTCDay: Sunday 0 … Saturday 6), never the package's arithmetic.
const MS_PER_DAY = 86_400_000;
const utc = (year: number, month: number, date: number): number => Date.UTC(year, month - 1, date);
const daysFromToday = (year: number, month: number, date: number): number => (utc(year, month, date) - utc(2026, 11, 28)) / MS_PER_DAY;
const weekdayOf = (year: number, month: number, date: number): number => new Date(utc(year, month, date)).getUTCDay();

describe('a day counted within a month (QA: dropped unsaid, the default 30 days planned)', () => {
  it('the calendar facts the cases below rest on', () => {
    // 25 December 2026 is a Friday and the last of December (25 + 7 = 32 > 31); 4 January 2027 the first Monday (1–3 are Fri–Sun).
    expect(weekdayOf(2026, 12, 25)).toBe(5);
    expect(25 + 7).toBeGreaterThan(31);
    expect(weekdayOf(2027, 1, 4)).toBe(1);
    expect([1, 2, 3].map((d) => weekdayOf(2027, 1, d))).not.toContain(1);
  });

  it.each([
    ['by the last friday of december', [2026, 12, 25], '25 December 2026'],
    ['by last friday of december', [2026, 12, 25], '25 December 2026'],
    ['by the last day of january', [2027, 1, 31], '31 January 2027'],
    ['by the first of january', [2027, 1, 1], '1 January 2027'],
    ['by the first monday of january', [2027, 1, 4], '4 January 2027'],
  ] as const)('"%s" is read as %j', (when, [y, m, d], read) => {
    const q = parse(QUESTION(when), { today: TODAY });
    expect(q.problems).toEqual([]);
    expect(q.stated.deadlineSeconds).toBe(daysFromToday(y, m, d) * DAY);
    expect(deadlineText(q)).toContain(`"${when}" read as`);
    expect(deadlineText(q)).toContain(read);
    expect(deadlineText(q)).toContain(`${daysFromToday(y, m, d)} days from today`);
  });

  it('the day counts are those of the brief: 27, 64, 34 and 37 days', () => {
    expect([daysFromToday(2026, 12, 25), daysFromToday(2027, 1, 31), daysFromToday(2027, 1, 1), daysFromToday(2027, 1, 4)]).toEqual([27, 64, 34, 37]);
  });

  it('a weekday the month lacks is no date', () => {
    // January 2027 opens on a Friday: its Mondays are the 4th, 11th, 18th and 25th, no fifth.
    expect(weekdayOf(2027, 1, 25)).toBe(1);
    expect(parse(QUESTION('by the fifth monday of january 2027'), { today: TODAY }).problems).toContain('"by the fifth monday of january 2027" is no date: January 2027 has no fifth Monday');
  });
});

describe('"next christmas" and "in the new year"', () => {
  it('"next christmas" is the next Christmas after today, as "christmas" is, and says so', () => {
    const q = parse(QUESTION('by next christmas'), { today: TODAY });
    expect(q.stated.deadlineSeconds).toBe(daysFromToday(2026, 12, 25) * DAY);
    expect(deadlineText(q)).toContain('"next" read as the next Christmas Day after today');
  });

  it('"in the new year" names no end: said not understood, naming the phrase, never dropped', () => {
    const q = parse(QUESTION('in the new year'), { today: TODAY });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(deadlineText(q)).toMatch(/^a 30-day deadline \("in the new year" not understood: it names no single day/);
  });

  it('"christmas break" is no Christmas Day: said not understood', () => {
    const q = parse(QUESTION('by christmas break'), { today: TODAY });
    expect(q.stated.deadlineSeconds).toBeUndefined();
    expect(deadlineText(q)).toMatch(/^a 30-day deadline \("by christmas break" not understood/);
  });
});
