import { days, hours, minutes } from '@trainplan/units';
import { DECIMAL, LONE_NUMBER_WORD, NUMBER_WORDS } from './numbers.ts';
import type { Scanner } from './scanner.ts';

const NUMBER = String.raw`(${DECIMAL})`;

/** A month is taken as 30 days (as "3 months" = 90 days); answers say so when a question counts months. */
export const DAYS_PER_MONTH = 30;
/** A year is taken as 365 days; answers say so when a question counts years. */
export const DAYS_PER_YEAR = 365;
const DURATION_UNITS: Record<string, number> = {
  minute: minutes(1), hour: hours(1), day: days(1), week: days(7), month: days(DAYS_PER_MONTH), year: days(DAYS_PER_YEAR),
};

const HALF = String.raw`\s+and\s+a\s+half`;

/** Not a duration: "3D parallel(ism)", "2-way", nor "w/o" (without) read as weeks. */
const NOT_A_DURATION = String.raw`(?![\s-]*(?:parallel\w*|way)\b)(?!\/)`;

export interface Deadline {
  seconds: number;
  /** What the reading assumed, said back in the answer (a month's length). */
  assumed?: string;
}

const unitKey = (unit: string): string => (/^min/.test(unit) ? 'minute'
  : unit.startsWith('h') ? 'hour' : unit.startsWith('d') ? 'day' : unit.startsWith('w') ? 'week' : unit.startsWith('y') ? 'year' : 'month');
/** The days a month or a year is taken as, said back in the answer. */
const CALENDAR_DAYS: Record<string, number> = { month: DAYS_PER_MONTH, year: DAYS_PER_YEAR };
const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A span's units in digits: "30 minutes", "20 min", "36 hours", "14d", "3 months". Minutes before months, so "20 min" is
 * never 20 months; no bare "m", which counts millions ("2m tokens"), nor "ms", a serving latency (serving.ts reads those first).
 */
const DIGIT_UNITS = String.raw`(minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|wks?|months?|mo|years?|yrs?|y)`;

/**
 * A further part of a span written in parts, right after the first: "2 weeks 3 days", "1 day and 12 hours", "2 weeks, 3
 * days", "1 hour 30 minutes". Group 1 the number, group 2 its unit.
 */
const SPAN_PART = new RegExp(String.raw`^\s*(?:,\s*|\s+and\s+|\s*\+\s*)?${NUMBER}\s*${DIGIT_UNITS}\b${NOT_A_DURATION}`);

/**
 * "2 weeks 3 days" is one span of 17 days, its parts summed, as a person counts it (QA: 14 days planned, "3 days" left
 * unread). Only parts in falling units ("2 weeks 3 days", "1 day 12 hours"): "3 days 2 weeks" is no way to write a span,
 * and its second part is left for the unread numbers to say. `m` is the first part's match, already blanked.
 */
function spanParts(s: Scanner, m: RegExpExecArray, first: { count: number; key: string }): { seconds: number; written: string; keys: string[] } {
  let seconds = first.count * (DURATION_UNITS[first.key] ?? days(1));
  let end = m.index + m[0].length;
  let last = DURATION_UNITS[first.key] ?? days(1);
  const keys = [first.key];
  for (let part = SPAN_PART.exec(s.text.slice(end)); part !== null; part = SPAN_PART.exec(s.text.slice(end))) {
    const key = unitKey(part[2] ?? '');
    const unit = DURATION_UNITS[key] ?? days(1);
    if (unit >= last) break;
    seconds += Number(part[1]) * unit;
    s.blank({ index: end, length: part[0].length });
    end += part[0].length;
    last = unit;
    keys.push(key);
  }
  return { seconds, written: m.input.slice(m.index, end).replace(/\s+/g, ' ').trim(), keys };
}

/**
 * "in 30 days", "within 2 weeks", "3 months", "36 hours", "90 minutes", "14d", "1 year"; in words: "in a week", "two weeks",
 * "in a month", "a month and a half", "two and a half weeks", "in a year"; in parts: "2 weeks 3 days" (spanParts).
 * "3D parallel" is not a 3-day deadline. A month is taken as DAYS_PER_MONTH days and a year as DAYS_PER_YEAR, and said so.
 * Minutes are a deadline like any span (QA: "in 30 minutes" was left unread and a default 30 days planned with a confident
 * headline); the answer then says no size meets it, with the closest.
 */
export function takeDeadline(s: Scanner): Deadline | undefined {
  // Never a number inside a word: "p4d" (an AWS instance) is no 4-day deadline, "a3" no 3 years. No bare "w": "700W" is
  // power (unmodelled-settings.ts), never 700 weeks.
  const digits = s.take(new RegExp(String.raw`(?<![A-Za-z\d.])${NUMBER}\s*${DIGIT_UNITS}\b${NOT_A_DURATION}`));
  // "a week" only after a preposition ("in a week", "within a month"), so "1B tokens a day" is no deadline.
  // "and a half" on either side of the unit: "a month and a half", "two and a half weeks".
  const words = digits ?? s.take(new RegExp(String.raw`(?:\b(?:in|within|under|over|for|inside|than|about|around|roughly)\s+(?:an?|one)|\b(${LONE_NUMBER_WORD}))(${HALF})?\s+(minutes?|hours?|days?|weeks?|months?|years?)\b(${HALF})?`));
  const m = digits ?? words;
  if (!m) return undefined;
  const count = digits ? Number(m[1]) : (m[1] === undefined ? 1 : NUMBER_WORDS[m[1]] ?? 1) + (m[2] ?? m[4] ? 0.5 : 0);
  const key = unitKey((digits ? m[2] : m[3]) ?? '');
  const parts = digits ? spanParts(s, m, { count, key }) : undefined;
  if (parts !== undefined && parts.keys.length > 1) {
    // Said back with the sum, and a month's or a year's length where a part counts them.
    const calendar = parts.keys.flatMap((k) => (CALENDAR_DAYS[k] === undefined ? [] : [`a ${k} taken as ${CALENDAR_DAYS[k]} days`]));
    const total = parts.seconds >= days(1) ? plural(Number((parts.seconds / days(1)).toFixed(2)), 'day') : plural(Number((parts.seconds / hours(1)).toFixed(2)), 'hour');
    return { seconds: parts.seconds, assumed: `"${parts.written}" read as one span, its parts summed: ${total}${calendar.length === 0 ? '' : ` (${calendar.join(', ')})`}` };
  }
  const seconds = count * (DURATION_UNITS[key] ?? days(1));
  const perUnit = CALENDAR_DAYS[key];
  if (perUnit === undefined) return { seconds };
  const inDays = count === 1 ? '' : ` (${plural(count, key)} = ${plural(Number((count * perUnit).toFixed(1)), 'day')})`;
  return { seconds, assumed: `a ${key} taken as ${perUnit} days${inDays}` };
}

/* Deadlines given as a date ("by 31 december", "by end of month"): dates.ts, read against the caller's today. */
