import { dayOf, lastOf, type Day } from './calendar.ts';
import {
  calendarDate, dayOfMonth, dayWithinMonth, FIRST_DAY_NOTE, impossibleTime, isPeriod, lastBefore, lastDayOf, monthsOf, nextWeekday,
  periodOf, quarterStart, withinNote, yearly, type Resolved,
} from './date-days.ts';
import {
  ANY_PREFIX, DAY_NAMES, DAY_OF_MONTH, MONTH, MONTH_LABELS, MONTH_NAMES, monthIndex, MOVEABLE_DAYS, NEW_YEAR, NOT_A_COUNT,
  NOT_AN_ORDINAL_OF, ORDINALS, PERIOD, PREFIX, SEASONS, TIME_OF_DAY, WITHIN, YEAR,
} from './date-words.ts';

/** A way a date is written: its pattern, and how a match resolves to a day against today. */
export interface DateForm {
  pattern: RegExp;
  /** Undefined for a form found but not read (slash dates, "early january"): `unread` says why. */
  resolve?: (m: RegExpExecArray, today: Day) => Resolved;
  unread?: string;
}

/** Phrases that name no single day: found, to be said not read ("early january" was dropped unsaid, the default 30 days planned). */
const NO_SINGLE_DAY = (why: string): string => `it names no single day (${why}); say a date, e.g. "by 15 January 2027"`;

/** The forms read, most specific first (at one place the first that matches is taken). */
export const FORMS: readonly DateForm[] = [
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
