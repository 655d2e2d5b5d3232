import { days } from '@trainplan/units';
import { DAYS_PER_MONTH, DAYS_PER_YEAR, type Deadline, type Scanner } from './quantities.ts';

/**
 * Spans of time with a name of their own: "a fortnight", "half a month", "a couple of weeks", "a quarter", "over the
 * weekend". Each is read as its days, said back where the reading takes a length a calendar does not fix (a quarter).
 * "Asap" and other time words no pattern reads are found only to be said not understood (parse.ts): never a default
 * 30-day deadline taken unsaid.
 */

/** A year's 365 days over 4 quarters, rounded down: a quarter's length as a deadline. */
const DAYS_PER_QUARTER = 91;
/** Saturday and Sunday. */
const DAYS_PER_WEEKEND = 2;

const BEFORE = String.raw`\b(?:in|within|under|over|for|inside|than|about|around|roughly|during)\s+`;
/** "2 fortnights" (group count), "a fortnight", "the weekend" (one). */
const COUNT = String.raw`(?:(?<count>\d+(?:\.\d+)?)\s+|(?:an?|one|the)\s+)`;
const UNIT = String.raw`(?<unit>day|week|month|year)`;
/** Days of a unit as deadlines read them (deadline.ts). */
const UNIT_DAYS: Readonly<Record<string, number>> = { day: 1, week: 7, month: DAYS_PER_MONTH, year: DAYS_PER_YEAR };

interface Span {
  pattern: RegExp;
  /** Days of the span: `count` of it, `unit` the days of the unit it names ("half a month": 30). */
  days: (count: number, unit: number) => number;
  /** What the reading takes that a calendar does not fix, said back in the answer. */
  assumed?: (count: number, unit: string | undefined) => string | undefined;
}

const SPANS: readonly Span[] = [
  // "a fortnight", "within 2 fortnights": 14 days each.
  { pattern: new RegExp(String.raw`(?:${BEFORE})?${COUNT}fortnights?\b`), days: (n) => 14 * n },
  // "half a month" (15 days, a month read as 30: said), "half a week", "half a year".
  {
    pattern: new RegExp(String.raw`\bhalf\s+an?\s+${UNIT}\b`),
    days: (_n, unit) => unit / 2,
    assumed: (_n, unit) => (unit === 'month' ? `half a month taken as ${UNIT_DAYS.month! / 2} days (a month read as ${UNIT_DAYS.month})` : undefined),
  },
  // "a couple of weeks": two of them.
  { pattern: new RegExp(String.raw`\ba\s+couple\s+(?:of\s+)?${UNIT}s\b`), days: (_n, unit) => 2 * unit },
  // "in a quarter", "within 2 quarters": never "a quarter of the GPUs" (no preposition before it) nor "Q3" (a date).
  {
    pattern: new RegExp(String.raw`${BEFORE}${COUNT}quarters?\b(?!\s+of\b)`),
    days: (n) => DAYS_PER_QUARTER * n,
    assumed: (n) => `a quarter taken as ${DAYS_PER_QUARTER} days (${DAYS_PER_YEAR} over 4, rounded down)${n === 1 ? '' : `: ${n} quarters = ${DAYS_PER_QUARTER * n} days`}`,
  },
  // "over the weekend", "in a weekend": Saturday and Sunday.
  {
    pattern: new RegExp(String.raw`(?:${BEFORE}|\bthis\s+)${COUNT}?weekends?\b`),
    days: (n) => DAYS_PER_WEEKEND * n,
    assumed: () => `a weekend taken as ${DAYS_PER_WEEKEND} days`,
  },
];

/** A span of time the text names, taken out of it; undefined when it names none. */
export function takeNamedSpan(s: Scanner): Deadline | undefined {
  for (const span of SPANS) {
    const m = s.take(span.pattern);
    if (m === undefined) continue;
    const count = m.groups?.count === undefined ? 1 : Number(m.groups.count);
    const unit = m.groups?.unit;
    const assumed = span.assumed?.(count, unit);
    return { seconds: days(span.days(count, UNIT_DAYS[unit ?? ''] ?? 1)), ...(assumed !== undefined && { assumed }) };
  }
  return undefined;
}

/** Time words no deadline pattern reads: "asap", "as soon as possible", "in a few weeks", "overnight". */
const UNREAD_TIME = /\b(?:asap|a\.s\.a\.p\.?|as\s+soon\s+as\s+possible|quickly\s+as\s+possible|overnight|(?:in|within|over|for)\s+(?:a\s+)?(?:few|several|some|many)\s+(?:hours|days|weeks|months|years))\b/;

/** A time the question gives that no pattern read ("asap"), for the answer to say it was not understood. */
export const findUnreadTime = (text: string): string | undefined => UNREAD_TIME.exec(text)?.[0].trim();
