import { days } from '@trainplan/units';
import { HW_TOKEN, type Deadline, type Scanner } from './quantities.ts';
import { dayNumbered, dayOf, daysInMonth, lastOf, todayOf, weekday, type Day, type Today } from './calendar.ts';

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


/** The words before a date that make it a deadline ("by", "before", "until", "due", "ahead of", "deadline (is|of)"). */
const PREFIX = String.raw`\b(?:by|before|until|till?|due|ahead\s+of|not?\s+later\s+than|deadline(?:\s+(?:is|of|on))?\s*:?)\s+(?:the\s+)?`;
/**
 * The words before a period done at any time within it: "in january", "during Q1 2027", "within the summer". Read only
 * before a named period (a month, a quarter, a half; a year written with its quarter), never "in 2027" alone ("as Meta
 * did in 2024" is no deadline).
 */
const WITHIN = String.raw`\b(?:in|during|within)\s+(?:the\s+)?`;
/** "by" or "in": a part of a period, a season or a moveable feast after either is found, to be said not read. */
const ANY_PREFIX = String.raw`(?:${PREFIX}|${WITHIN})`;
const MONTH_NAMES = String.raw`jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`;
const DAY_NAMES = String.raw`mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?`;
const MONTH = String.raw`(${MONTH_NAMES})\b\.?`;
/** Never a count: "by march 64 H100" is March, then 64 GPUs. */
const NOT_A_COUNT = String.raw`(?![\s-]*(?:x\s*)?(?:${HW_TOKEN}\b|gpus?\b|nodes?\b|servers?\b|machines?\b|boxes\b|hosts?\b|dgx|tokens?\b|hours?\b|days?\b|weeks?\b|[kmbt]\b))`;
const DAY_OF_MONTH = String.raw`(\d{1,2})(?:st|nd|rd|th)?\b(?!\.\d)${NOT_A_COUNT}`;
/** Ordinals of things other than days: "the 3rd epoch", "the 99th percentile", "the 2nd run". */
const NOT_AN_ORDINAL_OF = String.raw`(?![\s-]*(?:epochs?|steps?|iterations?|iters?|stages?|layers?|checkpoints?|runs?|attempts?|tries|trys?|percentiles?|pct|places?|times?|generations?|gen|versions?|rounds?|batch(?:es)?|microbatch(?:es)?|micro[\s-]*batch(?:es)?|tokens?|rank|gpu|node|try|pass(?:es)?|phases?|jobs?|experiments?)\b)`;
const YEAR = String.raw`(?:,?\s+(\d{4})\b${NOT_A_COUNT})?`;
const PERIOD = String.raw`(?:(this|next)\s+)?(week|month|quarter|year|${MONTH_NAMES}|q[1-4]|h[12])\b`;

const MONTH_LABELS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Ordinals a day is counted with within a month: "last", "final", 1st–31st, and the words first–tenth. */
const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ORDINALS = String.raw`last|final|${ORDINAL_WORDS.join('|')}|(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)`;
/** 1 for "first" or "1st", …; 0 for "last" and "final". */
const ordinalOf = (word: string): number => (/^(?:last|final)$/.test(word) ? 0 : ORDINAL_WORDS.indexOf(word) + 1 || Number.parseInt(word, 10));

/** "31 December 2026". */
const dayText = (d: Day): string => `${d.date} ${MONTH_LABELS[d.month - 1]} ${d.year}`;
const monthIndex = (name: string): number => ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(name.slice(0, 3)) + 1;
const weekdayIndex = (name: string): number => ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(name.slice(0, 3)) + 1;

/**
 * A date read: the day, and what the reading took that the words do not fix; or why it is no date. `label` names the day
 * itself ("Christmas Day"), said beside it; `note` says how the words were read, after the deadline's day.
 */
type Resolved = { ok: true; n: number; note?: string; label?: string; weekday?: boolean; firstDay?: boolean } | { ok: false; why: string };

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
function yearly(today: Day, year: string | undefined, inYear: (year: number) => number | undefined, noDay: string): Resolved {
  const n = year === undefined ? nextAfter(today, inYear) : inYear(Number(year));
  return n === undefined ? { ok: false, why: noDay } : { ok: true, n };
}

/** A quarter (q1–q4) or a half (h1, h2) of a year: its first and last months. */
function monthsOf(period: string): [number, number] {
  const k = Number(period.slice(1));
  return period.startsWith('q') ? [3 * k - 2, 3 * k] : [6 * k - 5, 6 * k];
}

/** The current (or, with "next", the following) week, month, quarter or year: its first and last days. */
function periodOf(today: Day, unit: 'week' | 'month' | 'quarter' | 'year', next: boolean): { first: number; last: number } {
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
const isPeriod = (unit: string | undefined): unit is 'week' | 'month' | 'quarter' | 'year' => unit !== undefined && PERIODS.has(unit);

const FIRST_DAY_NOTE = (what: string, phrase: string): string => `the first day of ${what}, the conservative reading: done before it begins; say "by end of ${phrase}" for its last day`;

interface DateForm {
  pattern: RegExp;
  /** Undefined for a form found but not read (slash dates, "early january"): `unread` says why. */
  resolve?: (m: RegExpExecArray, today: Day) => Resolved;
  unread?: string;
}

/** ISO 8601's time of day after a date ("T00:00", " 18:30:00Z", "T09:00+01:00"): group, the time as written. */
const TIME_OF_DAY = String.raw`(?:[t\s](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?))?`;

/**
 * Why a time of day as written ("25:99", "18:30:00Z", "09:00+01:00") is impossible, or undefined where it is a time: ISO
 * 8601 hours 00–23 (and 24:00, the end of a day, ISO 8601:2004 §4.2.3), minutes 00–59, seconds 00–60 (60 a leap
 * second); a UTC offset of at most 14 hours (UTC+14, Kiribati, is the widest in use) and 59 minutes. QA: "by
 * 2027-01-15T25:99" was read as 15 January with the time said not read, as a possible one is.
 */
function impossibleTime(time: string): string | undefined {
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

const AMBIGUOUS = 'a numeric date reads month first in the US and day first in Europe, so 1/2 is 2 January or 1 February; write the month\'s name, e.g. "by 15 January 2027", or an ISO date, e.g. "by 2027-01-15"';
/** Phrases that name no single day: found, to be said not read ("early january" was dropped unsaid, the default 30 days planned). */
const NO_SINGLE_DAY = (why: string): string => `it names no single day (${why}); say a date, e.g. "by 15 January 2027"`;
const SEASONS = String.raw`spring|summer|autumn|fall|winter`;
/** Days named for a feast or a season whose date moves from year to year, or differs between countries. */
const MOVEABLE_DAYS = String.raw`easter|thanksgiving|(?:lunar|chinese)\s+new\s+year|diwali|eid|ramadan|hanukk?ah|passover|black\s+friday|cyber\s+monday|labou?r\s+day|memorial\s+day|(?:christmas\s+|xmas\s+|the\s+)?holidays|(?:spring|summer|winter|christmas)\s+(?:break|vacation|holidays?)`;
/** "new year's", "new years", "new year s" (a typographic apostrophe normalised to a space). */
const NEW_YEAR = String.raw`new\s*years?(?:'s|\s+s)?`;

/** The forms read, most specific first (at one place the first that matches is taken). */
const FORMS: readonly DateForm[] = [
  // "1/2/2027", "12/31": refused, never guessed.
  { pattern: new RegExp(String.raw`${PREFIX}\d{1,2}/\d{1,2}(?:/\d{2,4})?`) },
  // "2027-01-15"; "2027-03" is the month's first day, as "by march 2027" is. "2027-01-15T00:00", "2027-01-15 18:30Z": the
  // day, its time of day said not read (QA: the 'T' stopped the date, read as "by 2027" and 'Not read: "00"').
  {
    pattern: new RegExp(String.raw`${PREFIX}(\d{4})-(\d{2})(?:-(\d{2})${TIME_OF_DAY})?(?![\w.:+-])`),
    resolve: (m) => {
      const [year, month, date] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
      const n = dayOf(year, month, date);
      if (n === undefined) return { ok: false, why: `${m[1]}-${m[2]}${m[3] === undefined ? '' : `-${m[3]}`} is no calendar date` };
      if (m[4] !== undefined) {
        const bad = impossibleTime(m[4]);
        if (bad !== undefined) return { ok: false, why: `${m[4].toUpperCase()} is no time of day (${bad})` };
        return { ok: true, n, note: `the time of day ${m[4].toUpperCase()} not read: the whole day taken, to its end` };
      }
      return { ok: true, n, ...(m[3] === undefined && { firstDay: true, note: FIRST_DAY_NOTE(`${MONTH_LABELS[month - 1]} ${year}`, `${MONTH_LABELS[month - 1]} ${year}`) }) };
    },
  },
  // "end of month", "the end of the quarter", "end of next month", "end of march", "end of q3 2027", "end of 2027", "eom".
  {
    pattern: new RegExp(String.raw`${PREFIX}(?:end\s+of\s+(?:the\s+)?(?:${PERIOD}${YEAR}|(\d{4})\b${NOT_A_COUNT})|eo([wmqy])\b)`),
    resolve: (m, today) => {
      const abbreviated = { w: 'week', m: 'month', q: 'quarter', y: 'year' }[m[5] ?? ''];
      const unit = abbreviated ?? m[2];
      if (unit === undefined) return { ok: true, n: lastOf(Number(m[4]), 12), note: 'the last day of the year' };
      if (isPeriod(unit)) {
        return { ok: true, n: periodOf(today, unit, m[1] === 'next').last, weekday: unit === 'week', note: `the last day of ${m[1] === 'next' ? 'next' : 'the'} ${unit}${unit === 'week' ? ': weeks run Monday to Sunday, ISO 8601' : ''}` };
      }
      return lastDayOf(today, unit, m[3]);
    },
  },
  // "in january", "during Q1 2027", "within H2": done at any time in it, its last day, as "end of january" is (QA: "in
  // january" was dropped unsaid and the default 30 days planned; "in Q1 2027" said only "2027" not read).
  {
    pattern: new RegExp(String.raw`${WITHIN}(${MONTH_NAMES}|q[1-4]|h[12])\b\.?${YEAR}`),
    resolve: (m, today) => withinNote(lastDayOf(today, m[1] ?? '', m[2])),
  },
  {
    pattern: new RegExp(String.raw`${WITHIN}(20\d{2})[\s-]*(q[1-4]|h[12])\b`),
    resolve: (m, today) => withinNote(lastDayOf(today, m[2] ?? 'q1', m[1])),
  },
  // "end of 2027Q1", "end of 2027-h2": the year written first.
  {
    pattern: new RegExp(String.raw`${PREFIX}end\s+of\s+(?:the\s+)?(20\d{2})[\s-]*(q[1-4]|h[12])\b`),
    resolve: (m) => {
      const period = m[2] ?? 'q1';
      return { ok: true, n: lastOf(Number(m[1]), monthsOf(period)[1]), note: `the last day of ${period.toUpperCase()} ${m[1] ?? ''}` };
    },
  },
  // "31 december", "the 15th of january", "15 jan 2027", "1st march".
  {
    pattern: new RegExp(String.raw`${PREFIX}${DAY_OF_MONTH}(?:\s+of)?\s+${MONTH}${YEAR}`),
    resolve: (m, today) => calendarDate(today, Number(m[1]), monthIndex(m[2] ?? ''), m[3]),
  },
  // "january 15", "jan 15th", "january 15, 2027", "march the 3rd".
  {
    pattern: new RegExp(String.raw`${PREFIX}${MONTH}\s+(?:the\s+)?${DAY_OF_MONTH}${YEAR}`),
    resolve: (m, today) => calendarDate(today, Number(m[2]), monthIndex(m[1] ?? ''), m[3]),
  },
  // "15-jan-2027", "15-jan", "jan-15-2027": a day and a month's name joined by dashes (no order ambiguity, the month named).
  {
    pattern: new RegExp(String.raw`${PREFIX}(\d{1,2})(?:st|nd|rd|th)?-(${MONTH_NAMES})\.?(?:-(\d{4}))?(?![\w-])`),
    resolve: (m, today) => calendarDate(today, Number(m[1]), monthIndex(m[2] ?? ''), m[3]),
  },
  {
    pattern: new RegExp(String.raw`${PREFIX}(${MONTH_NAMES})-(\d{1,2})(?:st|nd|rd|th)?(?:-(\d{4}))?(?![\w-])`),
    resolve: (m, today) => calendarDate(today, Number(m[2]), monthIndex(m[1] ?? ''), m[3]),
  },
  // "the last friday of december", "the first monday of january 2027", "the last day of january", "the first of january",
  // "the 2nd tuesday of next month": a day counted within a month (QA: dropped unsaid, the default 30 days planned).
  {
    pattern: new RegExp(String.raw`${PREFIX}(${ORDINALS})(?:\s+(${DAY_NAMES}|day))?\s+of\s+(?:(?:(this|next|the)\s+month\b)|${MONTH}${YEAR})`),
    resolve: (m, today) => dayWithinMonth(today, m[1] ?? '', m[2], m[3], m[4], m[5]),
  },
  // "the 15th", "31st", "the 1st of next month": a day of the month alone, its next occurrence after today. Only 1–31, and
  // never an ordinal of something else ("by the 3rd epoch", "by the 99th percentile").
  {
    pattern: new RegExp(String.raw`${PREFIX}(3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b(?:\s+of\s+(?:(this|next)|the)\s+month\b)?(?!\s+of\b)${NOT_A_COUNT}${NOT_AN_ORDINAL_OF}`),
    resolve: (m, today) => dayOfMonth(today, Number(m[1]), m[2] === 'next'),
  },
  // "mid-december", "mid december 2027", "the middle of january": the month's 15th.
  {
    pattern: new RegExp(String.raw`${ANY_PREFIX}(?:middle\s+of\s+|mid[\s-]*)${MONTH}${YEAR}`),
    resolve: (m, today) => {
      const month = monthIndex(m[1] ?? '');
      const r = calendarDate(today, 15, month, m[2]);
      return r.ok ? { ...r, note: `mid-${MONTH_LABELS[month - 1]} read as its 15th` } : r;
    },
  },
  // Days named for a feast on a fixed date of the Gregorian calendar: Christmas Eve, Christmas, New Year's Eve and Day, Halloween.
  ...([
    [String.raw`(?:christmas|xmas)\s+eve`, 12, 24, 'Christmas Eve'],
    [String.raw`(?:christmas|xmas)(?:\s+day)?`, 12, 25, 'Christmas Day'],
    [String.raw`${NEW_YEAR}\s+eve`, 12, 31, "New Year's Eve"],
    [String.raw`${NEW_YEAR}(?:\s+day)?`, 1, 1, "New Year's Day"],
    [String.raw`hallowe'?en`, 10, 31, 'Halloween'],
  ] as const).map(([words, month, date, name]): DateForm => ({
    // "next christmas", "this christmas": the next one after today, as "christmas" alone is (said). Never "christmas
    // break" (a holiday whose days differ between employers: MOVEABLE_DAYS below, QA: read as Christmas Day).
    pattern: new RegExp(String.raw`${PREFIX}(?:(next|this)\s+)?(?:${words})(?![\w-])(?!\s+(?:break|vacation|holidays?)\b)${YEAR}`),
    resolve: (m, today) => {
      const r = calendarDate(today, date, month, m[2]);
      const which = m[1] === undefined ? {} : { note: `"${m[1]}" read as the next ${name} after today` };
      return r.ok ? { ...r, label: name, ...which } : r;
    },
  })),
  // Phrases that name no single day: found, and said not read (never the default 30 days taken unsaid).
  {
    pattern: new RegExp(String.raw`${ANY_PREFIX}(?:early|late|mid|start\s+of|beginning\s+of|(?:first|last|final)\s+(?:week|weekend|fortnight|days|month|quarter)\s+of)[\s-]+(?:(?:this|next|the)\s+)?(?:${MONTH_NAMES}|week|month|quarter|year|decade|q[1-4]|h[12]|20\d{2}|${SEASONS})(?![\w-])${YEAR}`),
    unread: NO_SINGLE_DAY('a part of a period, whose days are a matter of opinion'),
  },
  {
    pattern: new RegExp(String.raw`${ANY_PREFIX}(?:end\s+of\s+(?:the\s+|this\s+)?)?(?:(?:this|next|the)\s+)?(?:decade|century)(?![\w-])`),
    unread: NO_SINGLE_DAY('whether a decade ends with a year ending in 9 or in 0 is a matter of convention'),
  },
  {
    pattern: new RegExp(String.raw`${ANY_PREFIX}(?:end\s+of\s+(?:the\s+|this\s+)?)?(?:(?:this|next|the)\s+)?(?:${SEASONS})(?![\w-])${YEAR}`),
    unread: NO_SINGLE_DAY('a season\'s days depend on the hemisphere, and on whether it is counted by the weather or by the sky'),
  },
  {
    pattern: new RegExp(String.raw`${ANY_PREFIX}(?:${MOVEABLE_DAYS})(?![\w-])${YEAR}`),
    unread: NO_SINGLE_DAY('its date moves from year to year, or differs between countries'),
  },
  // "in the new year", "early in the new year": any time after New Year's Day, with no end said (never "in the new
  // year's first week", read above as a part of a period, nor "by the new year", New Year's Day).
  {
    pattern: new RegExp(String.raw`${WITHIN}new\s+year(?![\w'-])(?!\s+s\b|\s+(?:eve|day)\b)`),
    unread: NO_SINGLE_DAY('any time after New Year\'s Day, with no end said'),
  },
  {
    pattern: new RegExp(String.raw`${PREFIX}(?:(?:this|next)\s+)?weekend(?![\w-])`),
    unread: NO_SINGLE_DAY('whether the weekend\'s start or its end is meant'),
  },
  // "q3", "before q3 2027", "by h2": the first day of the quarter (half).
  { pattern: new RegExp(String.raw`${PREFIX}(q[1-4]|h[12])\b${YEAR}`), resolve: (m, today) => quarterStart(today, m[1] ?? 'q1', m[2]) },
  // "2027Q1", "2027-q1", "2027 H2": the same, the year written first.
  { pattern: new RegExp(String.raw`${PREFIX}(20\d{2})[\s-]*(q[1-4]|h[12])\b`), resolve: (m, today) => quarterStart(today, m[2] ?? 'q1', m[1]) },
  // "by 2027", "before 2027": the year's first day, as a month alone is its first day. Only a year of this century
  // (never "by 1024"), and never a count ("by 2048 GPUs").
  {
    pattern: new RegExp(String.raw`${PREFIX}(20\d{2})\b(?![.,]\d)${NOT_A_COUNT}`),
    resolve: (m) => ({ ok: true, n: dayOf(Number(m[1]), 1, 1) ?? 0, firstDay: true, note: FIRST_DAY_NOTE(m[1] ?? '', m[1] ?? '') }),
  },
  // "march", "by march 2027": the month's first day.
  {
    pattern: new RegExp(String.raw`${PREFIX}${MONTH}${YEAR}`),
    resolve: (m, today) => {
      const month = monthIndex(m[1] ?? '');
      const r = yearly(today, m[2], (y) => dayOf(y, month, 1), 'no such day');
      const name = MONTH_LABELS[month - 1] ?? '';
      return r.ok ? { ...r, firstDay: true, note: FIRST_DAY_NOTE(name, name) } : r;
    },
  },
  // "next week", "next month", "this quarter", "next friday", "this friday".
  {
    pattern: new RegExp(String.raw`${PREFIX}(next|this)\s+(week|month|quarter|year|${DAY_NAMES})\b`),
    resolve: (m, today) => {
      const unit = m[2] ?? '';
      if (isPeriod(unit)) {
        if (m[1] === 'this') return { ok: true, n: periodOf(today, unit, false).last, weekday: unit === 'week', note: `the last day of this ${unit}` };
        return { ok: true, n: periodOf(today, unit, true).first, weekday: unit === 'week', firstDay: true, note: `the first day of next ${unit}${unit === 'week' ? ': weeks run Monday to Sunday, ISO 8601;' : ','} the conservative reading, done before it begins; say "by end of next ${unit}" for its last day` };
      }
      return nextWeekday(today, unit);
    },
  },
  // "friday", "tue".
  { pattern: new RegExp(String.raw`${PREFIX}(${DAY_NAMES})\b`), resolve: (m, today) => nextWeekday(today, m[1] ?? '') },
  { pattern: new RegExp(String.raw`${PREFIX}tomorrow\b`), resolve: (_m, today) => ({ ok: true, n: today.n + 1 }) },
  { pattern: new RegExp(String.raw`${PREFIX}(?:tonight|today)\b`), resolve: (_m, today) => ({ ok: true, n: today.n }) },
  // "by yesterday", "by last friday", "by last month": past, refused as a past date is (QA: dropped unsaid, the default 30
  // days planned). Never "the last week of december", "the last friday of the month" (a day to come), "last year's".
  { pattern: new RegExp(String.raw`${PREFIX}(?:yesterday|last\s+night)\b`), resolve: (_m, today) => ({ ok: true, n: today.n - 1 }) },
  {
    pattern: new RegExp(String.raw`${PREFIX}(?:last|previous)\s+(week(?:end)?|month|quarter|year|${DAY_NAMES}|${MONTH_NAMES}|q[1-4]|h[12])\b(?![\w'-]|\s+s\b|\s+of\b)`),
    resolve: (m, today) => ({ ok: true, n: lastBefore(today, m[1] ?? '') }),
  },
];

/** The last day of a month ("march") or of a quarter or a half ("q3", "h2"), in the year given or else its next after today. */
function lastDayOf(today: Day, unit: string, year: string | undefined): Resolved {
  const quarter = /^[qh]\d$/.test(unit);
  const month = quarter ? monthsOf(unit)[1] : monthIndex(unit);
  const r = yearly(today, year, (y) => lastOf(y, month), 'no such day');
  return r.ok ? { ...r, note: `the last day of ${quarter ? unit.toUpperCase() : MONTH_LABELS[month - 1]}` } : r;
}

/** "in january" read as "by the end of january", said so. */
function withinNote(r: Resolved): Resolved {
  return r.ok ? { ...r, note: `${r.note ?? ''}: done at any time in it, read as by its end` } : r;
}

const IS_DAY_NAME = new RegExp(String.raw`^(?:${DAY_NAMES})$`);

/**
 * The last day of the latest week, weekend, month, quarter, year, weekday or named month ("last friday", "last march") before
 * today's own: always before today, however the words are meant (the week before, or the latest one gone).
 */
function lastBefore(today: Day, unit: string): number {
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
function dayWithinMonth(today: Day, ordinal: string, unit: string | undefined, period: string | undefined, monthName: string | undefined, year: string | undefined): Resolved {
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
function calendarDate(today: Day, date: number, month: number, year: string | undefined): Resolved {
  const name = MONTH_LABELS[month - 1] ?? '';
  // 2000 was a leap year: the most days the month ever has.
  const most = daysInMonth(2000, month);
  const why = date > most || date < 1 ? `${name} has ${most} days` : `February ${year ?? ''} has 28 days`;
  return yearly(today, year, (y) => dayOf(y, month, date), why);
}

/** The first day of a quarter (q1–q4) or a half (h1, h2), in the year given or else its next occurrence after today. */
function quarterStart(today: Day, period: string, year: string | undefined): Resolved {
  const first = monthsOf(period)[0];
  const r = yearly(today, year, (y) => dayOf(y, first, 1), 'no such day');
  const name = `${period.toUpperCase()}${year === undefined ? '' : ` ${year}`}`;
  return r.ok ? { ...r, firstDay: true, note: FIRST_DAY_NOTE(name, name) } : r;
}

/**
 * A day of the month alone ("the 15th", "31st"): that day of this month if it is after today, else of the next month that
 * has it (on 28 November, "31st" is 31 December: November has 30 days); "of next month" that day of the next month.
 */
function dayOfMonth(today: Day, date: number, nextMonth: boolean): Resolved {
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
const ORDINAL_SUFFIX = (n: number): string => (n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'));

/** A weekday's next occurrence after today (1 to 7 days on). */
function nextWeekday(today: Day, name: string): Resolved {
  const ahead = ((weekdayIndex(name) - weekday(today.n) + 7) % 7) || 7;
  return { ok: true, n: today.n + ahead, weekday: true, note: `the next ${WEEKDAY_LABELS[weekdayIndex(name) - 1]} after today` };
}

/** A date deadline found in the text: the phrase ("by 31 december", as normalised) and the form that reads it. */
export interface DatePhrase {
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

/** A deadline the question gives as a date, which has no length without today's date (packages keep no clock). */
export const findDateDeadline = (text: string): string | undefined => findDate(text)?.phrase;

/** A date deadline taken out of the text (blanked, so its digits are read as nothing else); undefined when none. */
export function takeDate(s: Scanner): DatePhrase | undefined {
  const found = findDate(s.text);
  if (found !== undefined) s.blank({ index: found.match.index, length: found.match[0].length });
  return found;
}

/** A date read against today: the deadline with its reading said, a date refused (past, today, none such), or one not read. */
export type DateDeadline = { ok: true; deadline: Deadline } | { ok: false; problem: string } | { ok: false; unread: string };

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
