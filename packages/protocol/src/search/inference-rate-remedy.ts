/**
 * A rate the GPUs given cannot carry within the bounds, where loosening the bounds to what the closest plan needs does not
 * serve it either (checked by asking again): with a rate the first-token bound counts the wait for a slot, which the closest
 * plan's time to first token leaves out (QA: Llama 3.1 405B, 8K prompts at 50 requests/s on 64 H100s within 2 s was told
 * "--max-ttft-s 2.03", which fails too; at 100 s its closest plan needs 960 GPUs). It names the fewest GPUs that serve within
 * the bounds as they are, where a count tried does, and the most requests a second the GPUs given serve within them.
 */
import { formatGrouped } from '@trainplan/units';
import { floorFigures } from './ceil-figures.ts';
import { slot, type Slots } from './inference-remedy-terms.ts';
import { field, type Retry } from './inference-retry.ts';
import type { FewestGpus } from './fewest-gpus.ts';
import type { InferencePointJson } from './inference-json.ts';
import { gpusField, grouped, replicasText } from './inference-remedy-words.ts';

/** Halvings of the rate asked tried before the GPUs given are said to serve none within the bounds (2^-20: a millionth of it). */
const MAX_HALVINGS = 20;
/** Bisection steps between a rate served and one not: 2^-10 of the gap, past the three figures the rate is written to. */
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
  return serves(written) ? written : undefined;
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
 * The remedy's words for a rate too high for the GPUs given: "to get a plan, give gpus N, the fewest that serve within the bounds
 * as they are: …; the 64 GPUs given serve at most 0.0123 requests/s within them (requestsPerSecond 0.0123); or try …", the count
 * from `counts` (fewestGpus) or else plannedCount, or "more GPUs (gpus)" where neither serves.
 */
export function rateRemedy(request: Record<string, unknown>, counts: FewestGpus | undefined, faster: string, t: Slots, retry: Retry): string {
  const gpus = field(request, 'gpus')!;
  const serves = counts?.serves;
  const planned = serves === undefined ? plannedCount(retry) : undefined;
  const more = serves !== undefined
    ? `${gpusField(t, serves.gpus)}, the fewest that serve within the bounds as they are: ${replicasText(serves.best)} ${(serves.best.replicas ?? 1) > 1 ? 'meet' : 'meets'} them`
    : planned === undefined ? `more GPUs (${slot(t, { field: 'gpus' })})`
      : `${gpusField(t, planned.gpus)}, which serve within the bounds as they are: ${replicasText(planned.best)} ${(planned.best.replicas ?? 1) > 1 ? 'meet' : 'meets'} them`;
  const most = mostRateServed(request, retry);
  const given = `the ${grouped(gpus)} GPUs given serve`;
  const served = most === undefined ? `${given} no rate within them`
    : `${given} at most ${formatGrouped(most)} requests/s within them (${slot(t, { field: 'requestsPerSecond', value: most })})`;
  return `to get a plan, give ${more}; ${served}; or try ${faster}`;
}
