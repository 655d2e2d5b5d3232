import { countOf, toDays } from '@trainplan/units';
import { compactCount, formatDays } from '../format.ts';
import type { AskParameters } from '../question.ts';

/**
 * A time to train held to the deadline the question states on its cluster: ", within the 30 days asked", or
 * ", not within the 30 days asked: 1.23T of the 2.00T tokens in that time" (the plan's rate over the deadline's days).
 * Empty when the question gives no deadline (`stated`: the facts it gives, never a default).
 */
export function deadlineVerdict(stated: AskParameters, days: number, tokens: number): string {
  if (stated.deadlineSeconds === undefined || !(days > 0)) return '';
  const deadline = toDays(stated.deadlineSeconds);
  const asked = `the ${formatDays(deadline)} asked`;
  // "2 days … within the 2 days asked" for 1.96 days: the figure that shows it within said beside (daysWithinDeadline).
  if (days <= deadline) {
    const within = daysWithinDeadline(days, deadline);
    return `, within ${asked}${within === formatDays(days) ? '' : ` (${within})`}`;
  }
  return `, not within ${asked}: ${compactCount((tokens * deadline) / days)} of the ${compactCount(tokens)} tokens in that time`;
}

/**
 * A time that meets a deadline, with digits enough to show it within: "1.96 days" against 2 days, where formatDays' one
 * decimal said "2 days (deadline 2 days)" and read as a tie, or late (QA). As formatDays where the rounding shows it already.
 */
export function daysWithinDeadline(days: number, deadlineDays: number): string {
  const shown = formatDays(days);
  // Only a figure shown in days takes more digits: under a day formatDays says hours or minutes, and from 0.9995 days, which
  // rounds to 24.0 hours, "1 day" (review: 0.998 days against a day's deadline read "1 day" as a tie).
  if (!(days <= deadlineDays) || !/\bdays?\b/.test(shown) || shown !== formatDays(deadlineDays)) return shown;
  for (let digits = 2; digits <= 6; digits += 1) {
    const figure = Number(days.toFixed(digits));
    if (figure < deadlineDays) return countOf(figure, 'day');
  }
  return shown;
}
