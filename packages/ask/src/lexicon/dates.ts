import { days } from '@trainplan/units';
import { dayNumbered, todayOf, weekday, type Today } from './calendar.ts';
import { FORMS, type DateForm } from './date-forms.ts';
import { dayText, WEEKDAY_LABELS } from './date-words.ts';
import type { Deadline } from './deadline.ts';
import type { Scanner } from './scanner.ts';

/**
 * Deadlines given as a date: "by 31 December", "before Q3", "by end of month", "by next Friday", "by 2027-01-15". A date
 * has no length without today's date, and the package keeps no clock: the caller passes today (parse's `today`, a UTC
 * calendar day), and without it the date is only found, to be said not understood (parse.ts).
 *
 * The conventions, each said back in the answer:
 * - a deadline is the end of its day, counted from the end of today: 28 November → 31 December is 33 days (the difference
 *   of the two calendar days), tomorrow 1 day, today 0 (refused, as a past date is);
 * - a date without a year is its next occurrence after today ("by 31 december" on 31 December is a year on);
 * - a month, a quarter or a year alone ("by march", "before Q3", "by 2027") is read as its first day, the conservative
 *   reading: done before it begins, so the deadline is the end of the day before (28 November → "by december" is the
 *   end of 30 November, 2 days, as "by end of month" is); "end of march", "end of Q3" its last day;
 * - "end of (the) week/month/quarter/year", "eow/eom/eoq/eoy": the last day of the current one, a week running Monday to
 *   Sunday (ISO 8601); "next week/month/…" the first day of the next one, read as a first day is;
 * - a weekday ("by friday", "by next friday") is its next occurrence after today;
 * - a day of the month alone ("by the 15th", "by 31st") is that day of this month if it is after today, else of the
 *   next month that has it; "mid-<month>" its 15th; Christmas 25 December, New Year's Day 1 January;
 * - "no later than", "til", "till" and "until" read as "by" does;
 * - a month or a quarter said with "in", "during" or "within" ("in january", "during Q1 2027") is its last day, as "by end
 *   of january" is: done at any time in it;
 * - a date with a time of day ("2027-01-15T00:00") is its day: a deadline is a whole day, the end of it (the time said
 *   not read in the answer's note);
 * - "yesterday", "last friday", "last month" are past, refused as a past date is;
 * - numeric dates with slashes (1/2/2027) are refused: 2 January in the US, 1 February in Europe; phrases that name no
 *   single day ("early january", "this summer", "by easter") are found and said not read, never dropped unsaid.
 */

const AMBIGUOUS = 'a numeric date reads month first in the US and day first in Europe, so 1/2 is 2 January or 1 February; write the month\'s name, e.g. "by 15 January 2027", or an ISO date, e.g. "by 2027-01-15"';

/** A date deadline found in the text: the phrase ("by 31 december", as normalised) and the form that reads it. */
interface DatePhrase {
  phrase: string;
  form: DateForm;
  match: RegExpExecArray;
}

/** The first date deadline the text gives ("by end of month", "before Q3"), earliest in the text; undefined when none. */
function findDate(text: string): DatePhrase | undefined {
  let found: DatePhrase | undefined;
  for (const form of FORMS) {
    const m = form.pattern.exec(text);
    if (m !== null && (found === undefined || m.index < found.match.index)) found = { phrase: m[0].trim(), form, match: m };
  }
  return found;
}

/** A date deadline taken out of the text (blanked, so its digits are read as nothing else); undefined when none. */
export function takeDate(s: Scanner): DatePhrase | undefined {
  const found = findDate(s.text);
  if (found !== undefined) s.blank({ index: found.match.index, length: found.match[0].length });
  return found;
}

/** A date read against today: the deadline with its reading said, a date refused (past, today, none such), or one not read. */
type DateDeadline = { ok: true; deadline: Deadline } | { ok: false; problem: string } | { ok: false; unread: string };

const plural = (n: number, unit: string): string => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;

/**
 * The days from today to a date found (whole calendar days, the deadline the end of its day), with the reading said:
 * '"by 31 december" read as 31 December 2026, 33 days from today (28 November 2026; a deadline is the end of its day)'.
 * `typed` is the phrase as the question typed it.
 */
export function readDate(found: DatePhrase, today: Today, typed: string): DateDeadline {
  if (found.form.resolve === undefined) return { ok: false, unread: found.form.unread ?? AMBIGUOUS };
  const day = todayOf(today);
  const r = found.form.resolve(found.match, day);
  if (!r.ok) return { ok: false, problem: `"${typed}" is no date: ${r.why}` };
  const target = dayNumbered(r.n);
  const named = (n: number): string => (r.weekday === true ? `${WEEKDAY_LABELS[weekday(n) - 1]} ` : '');
  // A first day is done before it begins: the deadline is the end of the day before it (QA: "by december" on 28 November
  // ran to the end of 1 December, 3 days, while saying "done before it begins"; "by end of month" is 2).
  // So is a day said "before" ("before 31 december", "ahead of friday"): done before it begins, as "before march" is;
  // "by", "until", "due" and "deadline" take the day itself.
  const exclusive = r.firstDay === true || /^(?:before|ahead\s+of)\b/.test(found.phrase);
  const end = exclusive ? r.n - 1 : r.n;
  // A day's name sits beside the day it names ("before 25 December 2026 (Christmas Day), i.e. by the end of 24 December").
  const label = r.label === undefined ? '' : ` (${r.label})`;
  const before = exclusive ? `before ${named(r.n)}${dayText(target)}${label}, i.e. by the end of ` : '';
  if (end < day.n) return { ok: false, problem: `"${typed}" is past: today is ${dayText(day)}` };
  if (end === day.n) {
    const read = exclusive ? ` (read as ${before}today)` : '';
    return { ok: false, problem: `"${typed}" is today (${dayText(day)})${read}: a deadline is the end of its day, which leaves no whole day to train; give a later date or a length, e.g. "in 20 days"` };
  }
  const span = end - day.n;
  const assumed = `"${typed}" read as ${before}${named(end)}${dayText(dayNumbered(end))}${exclusive ? '' : label}${r.note === undefined ? '' : ` (${r.note})`}, ${plural(span, 'day')} from today (${dayText(day)}; a deadline is the end of its day)`;
  return { ok: true, deadline: { seconds: days(span), assumed } };
}
