import { daysText, type NodesResponseJson } from '@trainplan/protocol';
import { formatShare } from '@trainplan/units';
import type { FlagValues } from '../flags.ts';
import { number } from '../search-flags.ts';

/**
 * `trainplan nodes --uptime F`: the share of wall-clock time spent training (the nodes request's `uptime`). Days and
 * GPU-hours are the planner's ideal ones over it, so that a deadline or a budget sizes the cluster on the wall clock:
 * restarts after failures and checkpoint stalls are the rest. Meta reports "higher than 90% effective training time" for
 * Llama 3 405B over a 54-day snapshot with 466 job interruptions (Dubey et al. 2024, §3.3.4); published GPU-hour totals
 * run 8–47% above trainplan's ideal ones (QA), which no answer said was at 100% uptime.
 */

/** Meta's Llama 3 405B figure (Dubey et al. 2024, §3.3.4): the value the help and the 100% line suggest. */
export const LLAMA3_UPTIME = 0.9;

/** --uptime: "0.9", or a percentage ("90%"); what does not parse goes on as given, for uptimeProblem to name. */
export function uptimeFlag(v: FlagValues): number | string | undefined {
  const raw = v.uptime;
  if (typeof raw !== 'string') return undefined;
  const percent = /^\s*(.+?)\s*%\s*$/.exec(raw);
  const n = number({ uptime: percent ? percent[1]! : raw }, 'uptime');
  return typeof n === 'number' ? (percent ? n / 100 : n) : raw;
}

/**
 * Why --uptime is refused: outside (0, 1], or no number. A whole number up to 100 was most likely meant as a percentage
 * ("--uptime 90"): the fraction it would be is said.
 */
export function uptimeProblem(v: FlagValues): string | undefined {
  const u = uptimeFlag(v);
  if (u === undefined || (typeof u === 'number' && u > 0 && u <= 1)) return undefined;
  const meant = typeof u === 'number' && Number.isInteger(u) && u > 1 && u <= 100 ? `; for ${u}% give ${u / 100} (or ${u}%)` : '';
  return `--uptime is the share of wall-clock time spent training, above 0 and at most 1 (${LLAMA3_UPTIME} is 90%, `
    + `Meta's figure for Llama 3), got '${String(v.uptime)}'${meant}`;
}

/**
 * The line under a nodes answer's time to train that says what uptime its days and GPU-hours assume: at 100%, that no
 * restarts or failures are counted, and how to count them; below, the days training and the days lost beside them.
 * Undefined where the answer names no time (a refusal, or nothing runs).
 */
export function uptimeLine(a: NodesResponseJson): string | undefined {
  const days = a.ok ? a.days : a.closest?.days;
  if (days === undefined) return undefined;
  const u = a.uptime ?? 1;
  if (u === 1) return `  at 100% uptime: no restarts or failures counted (--uptime ${LLAMA3_UPTIME} for Meta's Llama 3 figure)`;
  return `  at ${formatShare(u)} uptime: ${daysText(days * u)} of training, ${daysText(days * (1 - u))} lost to restarts, failures and checkpoint stalls`;
}
