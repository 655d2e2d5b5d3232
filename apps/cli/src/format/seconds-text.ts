import { formatGrouped, formatSeconds, toDays } from '@trainplan/units';

/** From here (in days) a duration is a whole number of days, grouped: three figures would print every digit ungrouped. */
const GROUPED_DAYS = 1000;

/**
 * A duration as units' formatSeconds writes it ("20.0 s", "3.48 min", "123 days"), but from a thousand days whole and grouped
 * by thousands ("1,108,059 days"), as the time to train and every other count in the reports is (QA: a step of
 * "1108059 days").
 */
export function secondsText(s: number): string {
  // Judged on the whole days, so 999.7 days, which three figures round to "1000", is "1,000 days" too.
  const days = Math.round(toDays(s));
  return Math.abs(days) >= GROUPED_DAYS ? `${formatGrouped(days)} days` : formatSeconds(s);
}
