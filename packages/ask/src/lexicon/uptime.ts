import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * The share of wall-clock time a run spends training, as a question states it: "at 90% uptime", "90% availability",
 * "uptime of 0.9", "with 10% downtime", "assuming 10% of the time is lost to failures". The nodes request's `uptime`
 * (packages/protocol search/nodes.ts), a fraction in (0, 1]: days and GPU-hours are the planner's ideal ones over it.
 * Meta reports "higher than 90% effective training time" for Llama 3 405B (Dubey et al. 2024, arXiv:2407.21783, §3.3.4).
 */

/** What a question said of its uptime: the fraction read and the words it was read from, or why it was refused. */
type UptimeReading = { ok: true; uptime: number; written: string } | { ok: false; problem: string };

const LEAD = String.raw`(?:\b(?:at|with|assuming|given)\s+)?(?:an?\s+)?`;
const SHARE = String.raw`(?:uptime|availability|effective\s+training\s+time)`;
const LOST = String.raw`(?:node\s+)?(?:failures?|downtime|interruptions?|restarts?)`;

/** Phrases of time spent training, group 1 its percentage. */
const UP_PERCENT = new RegExp(String.raw`${LEAD}(${DECIMAL})\s*%\s*${SHARE}\b`);
/** "uptime of 90%", "uptime 0.9", "availability = 95%": group 1 the number, group 2 its "%" where written. */
const UP_AFTER = new RegExp(String.raw`\b${SHARE}\s*(?:of|=|:|at|is)?\s*(${DECIMAL})\s*(%)?(?![\w.])`);
/** Phrases of time lost, group 1 its percentage: "10% downtime", "10% of the time lost to failures", "downtime of 10%". */
const DOWN = new RegExp(String.raw`${LEAD}(${DECIMAL})\s*%\s*(?:downtime\b|(?:of\s+(?:the\s+)?(?:time|gpu[\s-]*hours)\s+)?(?:is\s+|being\s+)?lost\s+(?:to|from|in)\s+${LOST}\b)`
  + String.raw`|\bdowntime\s*(?:of|=|:|is)?\s*(${DECIMAL})\s*%`);

/**
 * The uptime a question states, taken out of the text; undefined where it states none. Read before the settings no plan
 * models (unmodelled-settings.ts), which say a failure or a goodput not read. Out of (0, 1] ("0% uptime", "100% downtime",
 * "uptime 90" with no "%") is refused with what to write, never clamped.
 */
export function takeUptime(s: Scanner): UptimeReading | undefined {
  const up = s.take(UP_PERCENT);
  const after = up === undefined ? s.take(UP_AFTER) : undefined;
  const down = up === undefined && after === undefined ? s.take(DOWN) : undefined;
  const m = up ?? after ?? down;
  if (m === undefined) return undefined;
  const written = m[0].trim();
  const number = Number(m[1] ?? m[2]);
  // A bare number after "uptime" is a fraction ("uptime 0.9"); one above 1 was most likely a percentage without its sign.
  if (after !== undefined && after[2] === undefined && number > 1) {
    return { ok: false, problem: `"${written}": an uptime is a share of the time, at most 1; for ${number}% write "${number}% uptime" (or ${number / 100})` };
  }
  const uptime = down !== undefined ? 1 - number / 100 : up !== undefined || after?.[2] !== undefined ? number / 100 : number;
  if (!(uptime > 0 && uptime <= 1)) {
    return { ok: false, problem: `"${written}" is out of range: the share of time spent training is above 0% and at most 100% (Meta reports over 90% for Llama 3 405B)` };
  }
  return { ok: true, uptime, written };
}
