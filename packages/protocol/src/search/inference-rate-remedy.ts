/**
 * A rate the GPUs given cannot carry within the bounds, where loosening the bounds to what the closest plan needs does not
 * serve it either (checked by asking again): with a rate the first-token bound counts the wait for a slot, which the closest
 * plan's time to first token leaves out (QA: Llama 3.1 405B, 8K prompts at 50 requests/s on 64 H100s within 2 s was told
 * "--max-ttft-s 2.03", which fails too; at 100 s its closest plan needs 960 GPUs). It names what it has checked by asking
 * again: the GPUs that serve within the bounds as they are, the first-token bound within which the GPUs given carry the rate,
 * and the most requests a second they serve within the bounds.
 */
import { countOf, formatGrouped } from '@trainplan/units';
import { ceilFigures, floorFigures } from './ceil-figures.ts';
import { slot, type Slots } from './inference-remedy-terms.ts';
import { field, type Retry } from './inference-retry.ts';
import { LOOSEST_BOUND_SECONDS } from './loosest-bound.ts';
import type { FewestGpus } from './fewest-gpus.ts';
import type { InferencePointJson } from './inference-json.ts';
import { appliedFirstTokenBound, firstTokenBound, gpusField, replicasText } from './inference-remedy-words.ts';

/** Halvings of the rate asked tried before the GPUs given are said to serve none within the bounds (2^-20: a millionth of it). */
const MAX_HALVINGS = 20;
/** Bisection steps between a rate (or a bound) served and one not: 2^-10 of the gap, past the three figures it is written to. */
const BISECTION_STEPS = 10;

/**
 * The most requests a second the request's GPUs serve within its bounds, to three figures rounded down and checked by asking
 * again, or undefined where none down to a millionth of the rate asked is served. Whether a rate is served falls as the rate
 * grows (a rate needs as many replicas or more than a lower one: servingLoad), so halving then bisection finds the edge.
 */
export function mostRateServed(request: Record<string, unknown>, retry: Retry): number | undefined {
  const asked = field(request, 'requestsPerSecond');
  if (asked === undefined) return undefined;
  const serves = (rate: number): boolean => retry({ set: { requestsPerSecond: rate } })?.best !== undefined;
  let [low, high] = [asked / 2, asked];
  for (let i = 1; !serves(low); i++) {
    if (i >= MAX_HALVINGS) return undefined;
    [low, high] = [low / 2, low];
  }
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const mid = (low + high) / 2;
    if (serves(mid)) low = mid; else high = mid;
  }
  const written = floorFigures(low);
  // Served by bisection but not at its three figures (the rule above bent): the rate found, unrounded.
  return serves(written) ? written : low;
}

/**
 * The first-token bound within which the GPUs given (or, without `gpus`, those the plan takes) carry the rate, to three figures
 * rounded up and checked by asking again, or undefined where even the loosest a request may give does not (another bound, or
 * memory, rules it out). A looser bound is never harder to meet, so bisection between the bound applied (the request's, or the
 * default) and the loosest finds it (review: 0.5 requests/s of 405B's 8K prompts within 0.3 s on 4,096 H100s was told "more
 * GPUs", where 16 carry it within 2.5 s).
 */
export function loosestBoundNeeded(request: Record<string, unknown>, retry: Retry): number | undefined {
  const serves = (bound: number): boolean => retry({ set: { maxPrefillSeconds: bound } })?.best !== undefined;
  if (!serves(LOOSEST_BOUND_SECONDS)) return undefined;
  let [low, high] = [appliedFirstTokenBound(request) ?? 0, LOOSEST_BOUND_SECONDS];
  for (let i = 0; i < BISECTION_STEPS * 2; i++) {
    const mid = (low + high) / 2;
    if (serves(mid)) high = mid; else low = mid;
  }
  const written = ceilFigures(high);
  return serves(written) ? written : high;
}

/** Loosened bounds (loosenedFields) as servedLoosening checked them: `searched`, where the first-token bound is loosestBoundNeeded's. */
export interface ServedLoosening {
  readonly fields: Record<string, number>;
  /** 'found': the first-token bound in `fields` was searched for; 'none': no bound a request may give serves the rate (left out). */
  readonly searched?: 'found' | 'none';
}

/**
 * The bounds loosened to what the closest plan needs, for a rate on the GPUs the plan takes (no `gpus`; rateRemedy has them
 * given), checked by asking again: the first-token bound counts the wait for a slot, which the closest plan's time to first
 * token leaves out, so its own may serve no plan (QA: Llama 3 70B, 1M-token prompts at 10^6 requests/s on H100s: the closest
 * plan's first token takes 348 s without a wait, and at 400 s no plan serves the rate either). Where they serve none, the
 * first-token bound within which the rate is served (loosestBoundNeeded, the other bounds loosened) takes its place.
 */
export function servedLoosening(fields: Record<string, number>, request: Record<string, unknown>, retry: Retry): ServedLoosening {
  if (field(request, 'requestsPerSecond') === undefined || retry({ set: fields })?.best !== undefined) return { fields };
  const { maxPrefillSeconds: _closest, ...others } = fields;
  const bound = loosestBoundNeeded(request, ({ set, drop }) => retry({ set: { ...others, ...set }, ...(drop !== undefined && { drop }) }));
  return bound === undefined ? { fields: others, searched: 'none' } : { fields: { ...others, maxPrefillSeconds: bound }, searched: 'found' };
}

/**
 * Where no count fewestGpus tries serves (it tries a few hundred up from the fewest that hold the model), the count the request
 * without `gpus` plans (its best plan's load), checked by asking again with it; undefined where that plan is an idle fleet
 * (its own remedy then says what serves at a real load) or the count does not serve.
 */
function plannedCount(retry: Retry): { gpus: number; best: InferencePointJson } | undefined {
  const any = retry({ drop: ['gpus'] });
  const gpus = any?.idleFleet === undefined ? any?.best?.load?.gpus : undefined;
  const best = gpus === undefined ? undefined : retry({ set: { gpus } })?.best;
  return gpus === undefined || best === undefined ? undefined : { gpus, best };
}

/**
 * The remedy's words for a rate too high for the GPUs given, each change checked: "to get a plan, give gpus 960, the fewest that
 * serve within the bounds as they are: …; or give maxPrefillSeconds 6.5, within which the 64 GPUs given carry the rate; or lower
 * the rate: the 64 GPUs given serve at most 3.42 requests/s within the bounds (requestsPerSecond 3.42); or try …". The count
 * from `counts` (fewestGpus) or else plannedCount; each part left out where nothing was found (review: an unchecked "more GPUs"
 * was offered where none serve).
 */
export function rateRemedy(request: Record<string, unknown>, counts: FewestGpus | undefined, faster: string, t: Slots, retry: Retry): string {
  const gpus = field(request, 'gpus')!;
  const given = countOf(gpus, 'GPU');
  // "the 64 GPUs given serve", "the 1 GPU given serves" (review: "the 1 GPUs given serve").
  const verb = (plural: string, singular: string): string => (gpus === 1 ? singular : plural);
  const more = counts?.serves ?? plannedCount(retry);
  const fewest = counts?.serves !== undefined;
  const bound = loosestBoundNeeded(request, retry);
  const most = mostRateServed(request, retry);
  const meet = (p: InferencePointJson): string => `${replicasText(p)} ${(p.replicas ?? 1) > 1 ? 'meet' : 'meets'} them`;
  const changes = [
    ...(more === undefined ? [] : [`give ${gpusField(t, more.gpus)}, ${fewest ? 'the fewest that serve' : 'which serve'} within the bounds as they are: ${meet(more.best)}`]),
    ...(bound === undefined ? [] : [`give ${firstTokenBound(t, bound)}, within which the ${given} given ${verb('carry', 'carries')} the rate`]),
    ...(most === undefined ? [] : [`lower the rate: the ${given} given ${verb('serve', 'serves')} at most ${formatGrouped(most)} requests/s within the bounds (${slot(t, { field: 'requestsPerSecond', value: most })})`]),
  ];
  const none = changes.length === 0 ? `the ${given} given ${verb('serve', 'serves')} no rate within the bounds, nor this rate within any first-token bound; ` : '';
  return `to get a plan, ${none}${changes.map((c) => `${c}; or `).join('')}try ${faster}`;
}
