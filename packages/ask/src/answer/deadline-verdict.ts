import { toDays } from '@trainplan/units';
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
  if (days <= deadline) return `, within ${asked}`;
  return `, not within ${asked}: ${compactCount((tokens * deadline) / days)} of the ${compactCount(tokens)} tokens in that time`;
}
