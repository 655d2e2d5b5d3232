import { days, formatSeconds } from '@trainplan/units';

/** Below this many days a run reads better as its time ("2.40 h") than as "0.0 days". */
const SHORTEST_DAYS = 0.1;

/**
 * Days to train, to one decimal and grouped by thousands ("29.9 days", "8,764.4 days"); under a tenth
 * of a day (a run of a few steps), the time itself rather than "0.0 days". Every report writes days so.
 */
export function daysText(d: number): string {
  if (d < SHORTEST_DAYS) return formatSeconds(days(d));
  return `${d.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} days`;
}
