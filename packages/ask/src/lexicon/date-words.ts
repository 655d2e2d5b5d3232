import type { Day } from './calendar.ts';
import { HW_TOKEN } from './scanner.ts';

/** The words dates are written in (dates.ts): the phrases before a date, names of months and days, ordinals, and their labels. */

/** The words before a date that make it a deadline ("by", "before", "until", "due", "ahead of", "deadline (is|of)"). */
export const PREFIX = String.raw`\b(?:by|before|until|till?|due|ahead\s+of|not?\s+later\s+than|deadline(?:\s+(?:is|of|on))?\s*:?)\s+(?:the\s+)?`;
/**
 * The words before a period done at any time within it: "in january", "during Q1 2027", "within the summer". Read only
 * before a named period (a month, a quarter, a half; a year written with its quarter), never "in 2027" alone ("as Meta
 * did in 2024" is no deadline).
 */
export const WITHIN = String.raw`\b(?:in|during|within)\s+(?:the\s+)?`;
/** "by" or "in": a part of a period, a season or a moveable feast after either is found, to be said not read. */
export const ANY_PREFIX = String.raw`(?:${PREFIX}|${WITHIN})`;
export const MONTH_NAMES = String.raw`jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`;
export const DAY_NAMES = String.raw`mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?`;
export const MONTH = String.raw`(${MONTH_NAMES})\b\.?`;
/** Never a count: "by march 64 H100" is March, then 64 GPUs. */
export const NOT_A_COUNT = String.raw`(?![\s-]*(?:x\s*)?(?:${HW_TOKEN}\b|gpus?\b|nodes?\b|servers?\b|machines?\b|boxes\b|hosts?\b|dgx|tokens?\b|hours?\b|days?\b|weeks?\b|[kmbt]\b))`;
export const DAY_OF_MONTH = String.raw`(\d{1,2})(?:st|nd|rd|th)?\b(?!\.\d)${NOT_A_COUNT}`;
/** Ordinals of things other than days: "the 3rd epoch", "the 99th percentile", "the 2nd run". */
export const NOT_AN_ORDINAL_OF = String.raw`(?![\s-]*(?:epochs?|steps?|iterations?|iters?|stages?|layers?|checkpoints?|runs?|attempts?|tries|trys?|percentiles?|pct|places?|times?|generations?|gen|versions?|rounds?|batch(?:es)?|microbatch(?:es)?|micro[\s-]*batch(?:es)?|tokens?|rank|gpu|node|try|pass(?:es)?|phases?|jobs?|experiments?)\b)`;
export const YEAR = String.raw`(?:,?\s+(\d{4})\b${NOT_A_COUNT})?`;
export const PERIOD = String.raw`(?:(this|next)\s+)?(week|month|quarter|year|${MONTH_NAMES}|q[1-4]|h[12])\b`;

export const MONTH_LABELS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const WEEKDAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Ordinals a day is counted with within a month: "last", "final", 1st–31st, and the words first–tenth. */
export const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
export const ORDINALS = String.raw`last|final|${ORDINAL_WORDS.join('|')}|(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)`;
/** 1 for "first" or "1st", …; 0 for "last" and "final". */
export const ordinalOf = (word: string): number => (/^(?:last|final)$/.test(word) ? 0 : ORDINAL_WORDS.indexOf(word) + 1 || Number.parseInt(word, 10));

/** "31 December 2026". */
export const dayText = (d: Day): string => `${d.date} ${MONTH_LABELS[d.month - 1]} ${d.year}`;
export const monthIndex = (name: string): number => ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(name.slice(0, 3)) + 1;
export const weekdayIndex = (name: string): number => ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(name.slice(0, 3)) + 1;

/** ISO 8601's time of day after a date ("T00:00", " 18:30:00Z", "T09:00+01:00"): group, the time as written. */
export const TIME_OF_DAY = String.raw`(?:[t\s](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?))?`;

export const SEASONS = String.raw`spring|summer|autumn|fall|winter`;
/** Days named for a feast or a season whose date moves from year to year, or differs between countries. */
export const MOVEABLE_DAYS = String.raw`easter|thanksgiving|(?:lunar|chinese)\s+new\s+year|diwali|eid|ramadan|hanukk?ah|passover|black\s+friday|cyber\s+monday|labou?r\s+day|memorial\s+day|(?:christmas\s+|xmas\s+|the\s+)?holidays|(?:spring|summer|winter|christmas)\s+(?:break|vacation|holidays?)`;
/** "new year's", "new years", "new year s" (a typographic apostrophe normalised to a space). */
export const NEW_YEAR = String.raw`new\s*years?(?:'s|\s+s)?`;

export const ORDINAL_SUFFIX = (n: number): string => (n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'));
export const IS_DAY_NAME = new RegExp(String.raw`^(?:${DAY_NAMES})$`);
