import { parse } from '../../src/parse.ts';

/** Seconds in a day: a deadline's days as the parser holds them. */
export const DAY = 24 * 60 * 60;
/**
 * The caller's today the dated-deadline tests read against: a Saturday. Each test counts its days by hand from it
 * (November has 30 days, 2 left after the 28th; December 31; January 31; February 2027 28; March 31).
 */
export const TODAY = '2026-11-28';
/** The deadline's reading, as the answer's assumptions say it. */
export const deadlineText = (q: ReturnType<typeof parse>): string | undefined => q.defaults.find((d) => d.field === 'deadlineSeconds')?.text;
