/**
 * UTC calendar days for dated deadlines (dates.ts): day numbers since 1970-01-01 and back, month lengths, weekdays, and
 * today's day from what the caller passes. Pure arithmetic: the package reads no clock and constructs no Date.
 */

/** Today's UTC calendar day as an ISO 8601 date ('2026-11-28'), or a Date whose UTC calendar day it is. */
export type Today = string | Date;

/** A UTC calendar day: its year, month (1–12), day of the month, and its number of days since 1970-01-01. */
export interface Day {
  year: number;
  month: number;
  date: number;
  n: number;
}

// Calendar arithmetic without Date (a pure package reads no clock, and constructs no Date): Howard Hinnant's
// days_from_civil and civil_from_days, "chrono-Compatible Low-Level Date Algorithms"
// (http://howardhinnant.github.io/date_algorithms.html), proleptic Gregorian, in eras of 400 years (146,097 days);
// 719,468 days from 0000-03-01 to 1970-01-01.
const DAYS_PER_ERA = 146_097;
const EPOCH_SHIFT = 719_468;

/** The day numbered `n` days since 1970-01-01 (civil_from_days). */
export function dayNumbered(n: number): Day {
  const z = n + EPOCH_SHIFT;
  const era = Math.floor(z / DAYS_PER_ERA);
  const doe = z - era * DAYS_PER_ERA;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / (DAYS_PER_ERA - 1))) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, date: doy - Math.floor((153 * mp + 2) / 5) + 1, n };
}
/** Days since 1970-01-01 of a calendar day (days_from_civil); undefined when the month has no such day (31 April, 29 February 2027). */
export function dayOf(year: number, month: number, date: number): number | undefined {
  if (!Number.isInteger(year) || month < 1 || month > 12 || date < 1 || date > daysInMonth(year, month)) return undefined;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + date - 1;
  return era * DAYS_PER_ERA + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - EPOCH_SHIFT;
}
/** Gregorian leap years: every fourth, less centuries not divisible by 400. */
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const daysInMonth = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1] ?? 0);
export const lastOf = (year: number, month: number): number => dayOf(year, month, daysInMonth(year, month)) ?? 0;
/** ISO 8601 weekday, Monday 1 … Sunday 7: 1970-01-01 was a Thursday (4). */
export const weekday = (n: number): number => ((((n + 3) % 7) + 7) % 7) + 1;

/** Today as a calendar day: an ISO date ('2026-11-28') or a Date's UTC day. A malformed one is a caller's error. */
export function todayOf(today: Today): Day {
  if (today instanceof Date) {
    if (Number.isNaN(today.getTime())) throw new RangeError('today is an invalid Date');
    return dayNumbered(dayOf(today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()) ?? 0);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  const n = m === null ? undefined : dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  if (n === undefined) throw new RangeError(`today must be an ISO calendar date such as 2026-11-28, got '${today}'`);
  return dayNumbered(n);
}
