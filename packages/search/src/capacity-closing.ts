import type { SearchBase } from './candidate.ts';
import { fewestOn, searchFastestSizes } from './capacity.ts';
import { MAX_NODES, SCAN_WINDOW } from './capacity-limits.ts';
import type { CapacityOptions, Sizer } from './capacity-sizer.ts';
import { nodesText } from './capacity-text.ts';
import type { CapacityGoal, CapacityPoint } from './capacity-types.ts';

/**
 * How far under the fastest time found the closing deadline is set: 0.1%, the budget's deadline bisection's tolerance
 * (BUDGET_DEADLINE_TOLERANCE), so that a size faster than the answer by more than that is one the closing search asks for.
 */
export const CLOSING_DEADLINE_SHARE = 1e-3;

/**
 * Closing searches run at most: each that finds a size faster than the fastest known moves the deadline under that one
 * and runs again, so the bound keeps the cost to a few deadline searches. After the fastest sizes' search
 * (searchFastestSizes) one sufficed in every budget measured (Llama 3 70B on H100 at 2T tokens with 5M at 2 a GPU-hour,
 * 600k and 770k GPU-hours, and at 15T with 6.4M; GPT-3 175B at 300B with 320k; Llama 3 8B at 15T with 1.5M): that search
 * found 8,100 nodes in 18.2 hours under 8,192 in 19.0 for the first, and the deadline under each answer none faster.
 */
export const MAX_CLOSING_SEARCHES = 3;

/**
 * The deadline search as --days runs it (fewestOn with its window below MAX_NODES and its replica families, not the
 * budget's and the curve's cheap probes that leave both out), at a deadline just under the fastest size `fastest()`
 * names (the caller weighs every size searched so far in it), within `goal`'s budget (none: any size), after the fastest
 * sizes' search that deadline search starts from (searchFastestSizes). Without it a size the deadline search finds is
 * faster than every one the caller searched, and the caller's answer is beaten by a node count the tool itself finds
 * in deadline mode (QA: Llama 3 70B on H100,
 * 2T tokens, 5M at 2 a GPU-hour: the budget's fastest, 8,192 nodes in 19.0 hours for 2.49M, where --days 0.7875 answers
 * 7,884 nodes in 18.7 hours for 2.36M, and --nodes 8100 18.2 hours for 2.36M; the powers of two and the probes
 * never reach the replicas of TP 4 · PP 27 · CP 8, 108 nodes each, that those sizes hold). Repeated under each faster
 * size found, up to MAX_CLOSING_SEARCHES; every size the searches run is in `s` for the caller to weigh. Returns
 * the searches run, and whether the last one found nothing faster (true: no deadline search under the fastest meets
 * it, to CLOSING_DEADLINE_SHARE).
 */
export function closeUnderFastest(
  s: Sizer, fit: { first: CapacityPoint; smallest: CapacityPoint }, base: SearchBase, tokens: number, goal: Omit<CapacityGoal, 'deadlineSeconds'>,
  options: CapacityOptions, fastest: () => CapacityPoint,
): { readonly searches: number; readonly settled: boolean } {
  // The fastest sizes the deadline search would look among first (its window below MAX_NODES and the families): weighed
  // before the deadline is set, so that the deadline is under them and a search that finds nothing faster settles it.
  searchFastestSizes(s, base, tokens, options, goal.pricePerGpuHour);
  // Each deadline search finds those sizes searched (fewestOn's fastestSearched): the fastest of every size in `s`.
  const fastestSearched = (): CapacityPoint => s.points().reduce((a, p) => (p.seconds < a.seconds ? p : a));
  for (let searches = 1; searches <= MAX_CLOSING_SEARCHES; searches++) {
    const before = fastest();
    const deadlineSeconds = before.seconds * (1 - CLOSING_DEADLINE_SHARE);
    const found = fewestOn(s, fit, base, tokens, { ...goal, deadlineSeconds }, options, { fastestSearched });
    if (!found.ok) return { searches, settled: true };
  }
  return { searches: MAX_CLOSING_SEARCHES, settled: false };
}

/**
 * What the closing searches did, in words, for a note on how the sizes were searched: "the search a deadline (days) with the
 * budget runs, …, at 0.1% under the fastest found (2 times, the last finding none faster)". A deadline is named by its
 * request field, which the CLI says as its flag (QA: the API's and the bot's notes said "--days").
 */
export function closingText(closing: { readonly searches: number; readonly settled: boolean }, withBudget: boolean): string {
  const times = closing.searches === 1 ? 'once' : `${closing.searches} times`;
  const outcome = closing.settled
    ? (closing.searches === 1 ? 'finding none faster' : 'each but the last finding a faster size')
    : 'each finding a faster size, so a faster one may remain';
  return `the search a deadline (days)${withBudget ? ' with the budget' : ''} runs (its ${SCAN_WINDOW} sizes below ${nodesText(MAX_NODES)} `
    + `and the replica families of the fastest sizes' shapes included) at ${CLOSING_DEADLINE_SHARE * 100}% under the fastest found, `
    + `${times}, ${outcome}`;
}
