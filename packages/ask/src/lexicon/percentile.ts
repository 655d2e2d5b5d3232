import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';
import { BOUND_JOIN, FIRST_TOKEN_NAME, PER_TOKEN_NAME, TIME_UNIT } from './serving.ts';

/**
 * Percentiles on a serving question's latency bounds ("p99 ttft 500ms", "ttft p99 under 500 ms", "median ITL
 * 30 ms", "95th percentile time per output token"). The protocol plans mean latencies, so the bound is read as
 * before (serving.ts) and the percentile is kept to be said: taken as a bound on the mean. Blanked first, so the
 * bound reads as if no percentile were written. A mean ("mean ttft", "average itl") is the model's own: nothing to say.
 */

interface LatencyPercentiles {
  /** The percentile written on the time to first token, as said back: "p99", "median". */
  firstToken?: string;
  /** …on the time per output token. */
  perToken?: string;
}

/** "p99", "p99.9", "median", "99th percentile", "99th-percentile"; "mean", "average" and "avg" too, so they are blanked alike. */
const PERCENTILE = String.raw`(p\d{1,2}(?:\.\d+)?|median|mean|average|avg|\d{1,2}(?:\.\d+)?(?:th|st|nd|rd)?[\s-]*percentile)`;

/** "p99", "median"; a mean as written is none (undefined). */
function labelOf(written: string): string | undefined {
  if (/^(?:mean|average|avg)$/.test(written)) return undefined;
  if (written === 'median' || written === 'p50') return written;
  const n = /^p?(\d+(?:\.\d+)?)/.exec(written)?.[1];
  return n === undefined ? undefined : `p${n}`;
}

/** Blanks a percentile written before or after a latency's name ("p99 ttft", "ttft p99", "ttft at p99"); its label, or undefined. */
function takeNear(s: Scanner, name: string): string | undefined {
  const before = new RegExp(String.raw`\b${PERCENTILE}[\s-]+(?:of\s+(?:the\s+)?)?${name}\b`).exec(s.text);
  if (before !== null && before[1] !== undefined) {
    s.blank({ index: before.index, length: before[1].length });
    return labelOf(before[1]);
  }
  const after = new RegExp(String.raw`\b${name}[\s-]+(?:at\s+(?:the\s+)?)?${PERCENTILE}\b`).exec(s.text);
  if (after !== null && after[1] !== undefined) {
    s.blank({ index: after.index + after[0].length - after[1].length, length: after[1].length });
    return labelOf(after[1]);
  }
  return undefined;
}

/** Reads (and blanks) the percentiles on the first-token and per-token bounds; read before the bounds (takeServing). */
export function takeLatencyPercentiles(s: Scanner): LatencyPercentiles {
  const firstToken = takeNear(s, FIRST_TOKEN_NAME);
  const perToken = takeNear(s, PER_TOKEN_NAME);
  return { ...(firstToken !== undefined && { firstToken }), ...(perToken !== undefined && { perToken }) };
}

/**
 * A bound on a latency that names neither the first token nor each next one ("p50 latency under 1s", "end-to-end
 * latency of 10 s"), left once the named bounds are read: the protocol bounds the two apart, so it is said back
 * rather than guessed. Its words as written, percentile included; undefined when there is none.
 */
export function findUnnamedLatencyBound(s: Scanner): string | undefined {
  const m = new RegExp(String.raw`\b(?:${PERCENTILE}[\s-]+)?(?:(?:end[\s-]*to[\s-]*end|e2e|request|response|total)[\s-]+)?latenc(?:y|ies)${BOUND_JOIN}(${DECIMAL})\s*${TIME_UNIT}\b`).exec(s.text);
  // A bound of no latency named at all ("serve llama3-70b under 50 ms", "with p95 under 50 ms"): said back the same way,
  // never dropped unsaid (the default bounds were taken as if none were given).
  const bare = m ?? new RegExp(String.raw`(?:\b${PERCENTILE}[\s-]+)?(?:\b(?:under|below|within|less than|at most|no more than)|<=?|≤)\s*(${DECIMAL})\s*${TIME_UNIT}\b`).exec(s.text);
  return bare === null ? undefined : bare[0];
}

/** What is said of a bound on a latency left unnamed ("p50 latency under 1s"): not read, and why. */
export const unnamedLatencyReading = (written: string): string =>
  `"${written.trim()}" not read as a bound: the plan bounds the time to first token ("ttft under 1 s") and the time per output token ("50 ms per token") apart, so say which`;

/** What is said of a percentile bound: "the p99 time to first token (≤ 500 ms) is taken as a bound on the mean: …". */
export function percentileReading(label: string, latency: string, seconds: string): string {
  const median = label === 'median' || label === 'p50';
  const tail = median
    ? 'latencies skew long, so the median sits below the mean and a mean within the bound keeps it within; the tail runs longer'
    : `a mean within the bound can leave the ${label} above it, as tails run longer`;
  return `the ${label} ${latency} (≤ ${seconds}) taken as a bound on its mean, the latency the model gives: ${tail}`;
}
