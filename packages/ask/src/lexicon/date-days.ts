import { dayOf, daysInMonth, lastOf, weekday, type Day } from './calendar.ts';
import {
  IS_DAY_NAME, MONTH_LABELS, monthIndex, ORDINAL_SUFFIX, ORDINAL_WORDS, ordinalOf, WEEKDAY_LABELS, weekdayIndex,
} from './date-words.ts';

/** The day a date's words name, read against today (the forms of date-forms.ts resolve to these), or why none is. */

/**
 * A date read: the day, and what the reading took that the words do not fix; or why it is no date. `label` names the day
 * itself ("Christmas Day"), said beside it; `note` says how the words were read, after the deadline's day.
 */
export type Resolved = { ok: true; n: number; note?: string; label?: string; weekday?: boolean; firstDay?: boolean } | { ok: false; why: string };

/**
 * The first occurrence after today of a day that recurs each year (`inYear` gives it in a year, undefined where that
 * year has none: 29 February). Eight years hold a leap year in the Gregorian calendar (1900 → 1904 is the widest gap).
 */
function nextAfter(today: Day, inYear: (year: number) => number | undefined): number | undefined {
  for (let year = today.year; year <= today.year + 8; year += 1) {
    const n = inYear(year);
    if (n !== undefined && n > today.n) return n;
  }
  return undefined;
}

/** A day in a given year, or its next occurrence after today when the question gives no year. */
export function yearly(today: Day, year: string | undefined, inYear: (year: number) => number | undefined, noDay: string): Resolved {
  const n = year === undefined ? nextAfter(today, inYear) : inYear(Number(year));
  return n === undefined ? { ok: false, why: noDay } : { ok: true, n };
}

/** A quarter (q1–q4) or a half (h1, h2) of a year: its first and last months. */
export function monthsOf(period: string): [number, number] {
  const k = Number(period.slice(1));
  return period.startsWith('q') ? [3 * k - 2, 3 * k] : [6 * k - 5, 6 * k];
}

/** The current (or, with "next", the following) week, month, quarter or year: its first and last days. */
export function periodOf(today: Day, unit: 'week' | 'month' | 'quarter' | 'year', next: boolean): { first: number; last: number } {
  if (unit === 'week') {
    const monday = today.n - weekday(today.n) + 1 + (next ? 7 : 0);
    return { first: monday, last: monday + 6 };
  }
  const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
  // Months counted from January of today's year, from 0: the period's first and last.
  const first = Math.floor((today.month - 1) / months) * months + (next ? months : 0);
  const last = first + months - 1;
  const yearOf = (k: number): number => today.year + Math.floor(k / 12);
  return { first: dayOf(yearOf(first), (first % 12) + 1, 1) ?? 0, last: lastOf(yearOf(last), (last % 12) + 1) };
}

const PERIODS: ReadonlySet<string> = new Set(['week', 'month', 'quarter', 'year']);
export const isPeriod = (unit: string | undefined): unit is 'week' | 'month' | 'quarter' | 'year' => unit !== undefined && PERIODS.has(unit);

export const FIRST_DAY_NOTE = (what: string, phrase: string): string => `the first day of ${what}, the conservative reading: done before it begins; say "by end of ${phrase}" for its last day`;

/**
 * Why a time of day as written ("25:99", "18:30:00Z", "09:00+01:00") is impossible, or undefined where it is a time: ISO
 * 8601 hours 00–23 (and 24:00, the end of a day, ISO 8601:2004 §4.2.3), minutes 00–59, seconds 00–60 (60 a leap
 * second); a UTC offset of at most 14 hours (UTC+14, Kiribati, is the widest in use) and 59 minutes. QA: "by
 * 2027-01-15T25:99" was read as 15 January with the time said not read, as a possible one is.
 */
export function impossibleTime(time: string): string | undefined {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:z|([+-])(\d{2})(?::?(\d{2}))?)?$/i.exec(time);
  if (m === null) return 'not a time';
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const fraction = Number(m[4] ?? 0);
  if (h === 24 && (min > 0 || sec > 0 || fraction > 0)) return 'past 24:00, the end of a day';
  if (h > 24) return `a day has 24 hours, not ${h}`;
  if (min > 59) return `an hour has minutes 00–59, not ${m[2]}`;
  if (sec > 60) return `a minute has seconds 00–60 (60 a leap second), not ${m[3]}`;
  if (m[6] !== undefined && (Number(m[6]) > 14 || Number(m[7] ?? 0) > 59)) return `no UTC offset is ${m[5]}${m[6]}${m[7] === undefined ? '' : `:${m[7]}`}`;
  return undefined;
}

/** The last day of a month ("march") or of a quarter or a half ("q3", "h2"), in the year given or else its next after today. */
export function lastDayOf(today: Day, unit: string, year: string | undefined): Resolved {
  const quarter = /^[qh]\d$/.test(unit);
  const month = quarter ? monthsOf(unit)[1] : monthIndex(unit);
  const r = yearly(today, year, (y) => lastOf(y, month), 'no such day');
  return r.ok ? { ...r, note: `the last day of ${quarter ? unit.toUpperCase() : MONTH_LABELS[month - 1]}` } : r;
}

/** "in january" read as "by the end of january", said so. */
export function withinNote(r: Resolved): Resolved {
  return r.ok ? { ...r, note: `${r.note ?? ''}: done at any time in it, read as by its end` } : r;
}

/**
 * The last day of the latest week, weekend, month, quarter, year, weekday or named month ("last friday", "last march") before
 * today's own: always before today, however the words are meant (the week before, or the latest one gone).
 */
export function lastBefore(today: Day, unit: string): number {
  if (unit === 'weekend') return periodOf(today, 'week', false).first - 1;
  if (isPeriod(unit)) return periodOf(today, unit, false).first - 1;
  if (IS_DAY_NAME.test(unit)) return today.n - (((weekday(today.n) - weekdayIndex(unit) + 7) % 7) || 7);
  const month = /^[qh]\d$/.test(unit) ? monthsOf(unit)[1] : monthIndex(unit);
  return lastOf(today.year, month) < today.n ? lastOf(today.year, month) : lastOf(today.year - 1, month);
}

/**
 * A day counted within a month: "the last friday of december", "the first monday of january 2027", "the last day of
 * january", "the first of january" (its 1st), "the 2nd tuesday of next month". A named month without a year is its
 * next occurrence after today holding that day; "this month", "next month" and "the month" are today's month or the
 * next, whatever the day (past, refused as a past date is). The nth weekday is the first on or after the 1st, then 7
 * days on each (ISO 8601 weekdays, calendar.ts); the last is the last on or before the month's last day.
 */
export function dayWithinMonth(today: Day, ordinal: string, unit: string | undefined, period: string | undefined, monthName: string | undefined, year: string | undefined): Resolved {
  const k = ordinalOf(ordinal);
  const dayName = unit === undefined || unit === 'day' ? undefined : unit;
  const inMonth = (y: number, month: number): number | undefined => {
    const first = dayOf(y, month, 1);
    if (first === undefined) return undefined;
    const last = lastOf(y, month);
    if (dayName === undefined) return k === 0 ? last : dayOf(y, month, k);
    const target = weekdayIndex(dayName);
    const n = k === 0 ? last - ((weekday(last) - target + 7) % 7) : first + ((target - weekday(first) + 7) % 7) + 7 * (k - 1);
    return n <= last ? n : undefined;
  };
  const what = `${k === 0 ? 'last' : ORDINAL_WORDS[k - 1] ?? `${k}${ORDINAL_SUFFIX(k)}`} ${dayName === undefined ? (k === 0 ? 'day' : '') : WEEKDAY_LABELS[weekdayIndex(dayName) - 1]}`.trim();
  if (period !== undefined) {
    // "the first of next month" is "the 1st of next month", read as a day of the month alone is (dayOfMonth).
    if (dayName === undefined && k > 0) return dayOfMonth(today, k, period === 'next');
    const monthAfter = (ahead: number): [number, number] => {
      const months = today.month - 1 + ahead;
      return [today.year + Math.floor(months / 12), (months % 12) + 1];
    };
    // "of the month" is this month's if it is still to come, else next month's, as "the 15th" alone is; "of this month" is
    // this month's even when past (refused, as a past date is).
    const thisOne = monthAfter(period === 'next' ? 1 : 0);
    const thisN = inMonth(...thisOne);
    const [[y, month], n] = period === 'the' && (thisN === undefined || thisN <= today.n) ? [monthAfter(1), inMonth(...monthAfter(1))] : [thisOne, thisN];
    const name = `${MONTH_LABELS[month - 1]} ${y}`;
    return n === undefined ? { ok: false, why: `${name} has no ${what}` } : { ok: true, n, weekday: dayName !== undefined, note: `the ${what} of ${name}` };
  }
  const month = monthIndex(monthName ?? '');
  const name = MONTH_LABELS[month - 1] ?? '';
  const r = yearly(today, year, (y) => inMonth(y, month), `${name}${year === undefined ? '' : ` ${year}`} has no ${what}`);
  return r.ok ? { ...r, weekday: dayName !== undefined, note: `the ${what} of ${name}` } : r;
}

/** A day and a month, in the year given or else their next occurrence after today. */
export function calendarDate(today: Day, date: number, month: number, year: string | undefined): Resolved {
  const name = MONTH_LABELS[month - 1] ?? '';
  // 2000 was a leap year: the most days the month ever has.
  const most = daysInMonth(2000, month);
  const why = date > most || date < 1 ? `${name} has ${most} days` : `February ${year ?? ''} has 28 days`;
  return yearly(today, year, (y) => dayOf(y, month, date), why);
}

/** The first day of a quarter (q1–q4) or a half (h1, h2), in the year given or else its next occurrence after today. */
export function quarterStart(today: Day, period: string, year: string | undefined): Resolved {
  const first = monthsOf(period)[0];
  const r = yearly(today, year, (y) => dayOf(y, first, 1), 'no such day');
  const name = `${period.toUpperCase()}${year === undefined ? '' : ` ${year}`}`;
  return r.ok ? { ...r, firstDay: true, note: FIRST_DAY_NOTE(name, name) } : r;
}

/**
 * A day of the month alone ("the 15th", "31st"): that day of this month if it is after today, else of the next month that
 * has it (on 28 November, "31st" is 31 December: November has 30 days); "of next month" that day of the next month.
 */
export function dayOfMonth(today: Day, date: number, nextMonth: boolean): Resolved {
  const nth = `${date}${ORDINAL_SUFFIX(date)}`;
  // Twelve months on, every day 1–31 has come round (January, March, May … have 31 days).
  for (let k = nextMonth ? 1 : 0; k <= (nextMonth ? 1 : 12); k += 1) {
    const months = today.month - 1 + k;
    const [year, month] = [today.year + Math.floor(months / 12), (months % 12) + 1];
    const n = dayOf(year, month, date);
    if (n !== undefined && n > today.n) return { ok: true, n, note: nextMonth ? `the ${nth} of next month` : `the next ${nth} of a month after today` };
    if (nextMonth) return { ok: false, why: `${MONTH_LABELS[month - 1]} ${year} has ${daysInMonth(year, month)} days` };
  }
  return { ok: false, why: 'no such day' };
}

/** A weekday's next occurrence after today (1 to 7 days on). */
export function nextWeekday(today: Day, name: string): Resolved {
  const ahead = ((weekdayIndex(name) - weekday(today.n) + 7) % 7) || 7;
  return { ok: true, n: today.n + ahead, weekday: true, note: `the next ${WEEKDAY_LABELS[weekdayIndex(name) - 1]} after today` };
}
