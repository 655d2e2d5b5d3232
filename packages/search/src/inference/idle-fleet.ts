import { formatGrouped, formatLoad, formatPercent, formatSeconds, type Seconds } from '@trainplan/units';
import type { InferenceEstimate } from './inference-estimate.ts';
import { admissionWaitSeconds, holdSeconds, replicasKeepingUp, type LoadedPoint } from './serving-load.ts';

/**
 * A fleet the first-token bound holds idle: at a request rate, the bound is met only by replicas kept under LOAD_FLOOR busy,
 * because the prompt's own prefill leaves too little of it for the wait for a slot (QA: 405B at 50 requests/s of 8K prompts
 * within 2 s took 21,426,400 H100s 0% loaded, the prefill alone 1.99 s of the 2 s, where ~1,350 replicas carry the rate).
 */

/**
 * The load under which the first-token bound, not the rate, sizes a fleet: half of what its replicas finish. Under it more
 * than half of the GPUs bought only shorten the wait for a slot. On the one-slot replica a prefill close to the bound forces
 * (batch 1, an M/D/1 queue), Pollaczek–Khinchine's mean wait ρ·S/(2(1 − ρ)) is S/2 at ρ = ½, so under half load is a wait
 * budget (bound − prefill) under half the time S a request holds its slot. Serving practice loads replicas well past it:
 * Knative's autoscaler targets 70% of a replica's concurrency by default (config-autoscaler's
 * container-concurrency-target-percentage). The CLI's light-load note draws the same line (its slots mostly empty).
 */
export const LOAD_FLOOR = 0.5;

/**
 * The most replicas of a point that each stay at least `utilization` busy at `requestsPerSecond` (a replica finishes b/S
 * requests a second), never fewer than keep up (replicasKeepingUp): a rate under one replica's share is served by one.
 */
export function replicasAtUtilization(point: LoadedPoint, requestsPerSecond: number, utilization: number): number {
  return Math.max(replicasKeepingUp(point, requestsPerSecond), Math.floor(requestsPerSecond / (utilization * (point.batch / point.holdSeconds))));
}

/** A point as the queue sees it: its batch's slots, each held S, and its first token without a wait. */
export const loadedPoint = (e: InferenceEstimate): LoadedPoint => ({
  batch: e.shape.batch, gpus: e.shape.tensor * e.shape.pipeline, holdSeconds: holdSeconds(e), firstTokenSeconds: e.prefillSeconds,
});

/** A point served at LOAD_FLOOR: the most replicas that keep each that busy, and the first token with their wait for a slot. */
export interface AtLoadFloor {
  readonly point: InferenceEstimate;
  readonly replicas: number;
  readonly gpus: number;
  readonly firstTokenSeconds: Seconds;
}

/**
 * `e` on the most replicas that keep each at least LOAD_FLOOR busy at `requestsPerSecond` (replicasAtUtilization), and no more
 * than `gpus` hold (fewer replicas are only busier); undefined where the replicas `gpus` hold cannot keep up with the rate.
 */
export function atLoadFloor(e: InferenceEstimate, requestsPerSecond: number, gpus = Number.POSITIVE_INFINITY): AtLoadFloor | undefined {
  const p = loadedPoint(e);
  const replicas = Math.min(replicasAtUtilization(p, requestsPerSecond, LOAD_FLOOR), Math.floor(gpus / p.gpus));
  if (replicas < replicasKeepingUp(p, requestsPerSecond)) return undefined;
  return { point: e, replicas, gpus: replicas * p.gpus, firstTokenSeconds: p.firstTokenSeconds + admissionWaitSeconds(p.batch, requestsPerSecond / replicas, p.holdSeconds) };
}

/** Whether a point's load (servingLoad) keeps more replicas than the most that stay LOAD_FLOOR busy: its bound, not its rate, sizes it. */
export function heldIdle(e: InferenceEstimate): boolean {
  return e.load !== undefined && e.load.replicas > replicasAtUtilization(loadedPoint(e), e.load.requestsPerSecond, LOAD_FLOOR);
}

export interface IdleFleet {
  /** The first-token bound the replicas were sized for (the wait for a slot included). */
  readonly maxFirstTokenSeconds: Seconds;
  /** The best plan, its replicas under LOAD_FLOOR busy (its load's utilization). */
  readonly point: InferenceEstimate;
  /** What the bound leaves for the wait for a slot once the plan's prompt is prefilled: the bound less its prefillSeconds. */
  readonly waitBudgetSeconds: Seconds;
  /** S: how long a request holds its slot (holdSeconds), against which that wait is queued. */
  readonly holdSeconds: Seconds;
  readonly loadFloor: number;
  /**
   * The point tried whose first token is soonest with its replicas at least LOAD_FLOOR busy (atLoadFloor), that first token
   * past the bound: the tightest bound the rate is served within at that load by the points tried.
   */
  readonly atLoadFloor: AtLoadFloor;
}

/** What idleFleet needs of the search: the rate, the first-token bound, the decode bound and the GPUs given. */
export interface IdleFleetSearch {
  readonly requestsPerSecond?: number;
  readonly maxPrefillSeconds?: Seconds;
  readonly maxDecodeSecondsPerToken?: Seconds;
  readonly gpus?: number;
}

/**
 * Where the best plan at a rate is an idle fleet: no point tried serves the rate within the first-token bound with its replicas
 * at least LOAD_FLOOR busy (each on the most replicas that keep it so and the GPUs given hold, whose wait is the least at that
 * load), of the points within the decode bound. A point that did would need no replicas past that count, so then the best, the
 * fewest GPUs, is sized by the rate or cheaper than one that is; and when none does, the best, which meets the bound, is on more
 * replicas than keep it that busy (heldIdle): on no more, its wait there would be no shorter. Undefined without a rate, a
 * first-token bound or a best plan.
 */
export function idleFleet(points: readonly InferenceEstimate[], best: InferenceEstimate | undefined, search: IdleFleetSearch): IdleFleet | undefined {
  const { requestsPerSecond: rate, maxPrefillSeconds: bound, maxDecodeSecondsPerToken: decodeBound, gpus } = search;
  if (rate === undefined || bound === undefined || best?.load === undefined) return undefined;
  const served = points
    .filter((e) => decodeBound === undefined || e.decodeStepSeconds <= decodeBound)
    .flatMap((e) => atLoadFloor(e, rate, gpus) ?? []);
  const soonest = served.reduce<AtLoadFloor | undefined>((a, f) => (a === undefined || f.firstTokenSeconds < a.firstTokenSeconds ? f : a), undefined);
  if (soonest === undefined || soonest.firstTokenSeconds <= bound) return undefined;
  return {
    maxFirstTokenSeconds: bound, point: best, waitBudgetSeconds: bound - best.prefillSeconds, holdSeconds: holdSeconds(best),
    loadFloor: LOAD_FLOOR, atLoadFloor: soonest,
  };
}

/**
 * Why a fleet is idle, in words: "the first-token bound binds: the prefill alone takes 1.99 s of its 2.00 s (TP 8 · PP 2 ·
 * batch 1), leaving 13.6 ms to wait for a slot, which a request holds for 27.0 s, so the plans tried meet it at 50
 * requests/s only with their replicas under 50% loaded: the best keeps 1,339,150 replicas (21,426,400 GPUs) 0% loaded".
 */
export function idleFleetText(idle: IdleFleet): string {
  const { point: p, maxFirstTokenSeconds: bound } = idle;
  const load = p.load!;
  return `the first-token bound binds: the prefill alone takes ${formatSeconds(p.prefillSeconds)} of its ${formatSeconds(bound)} `
    + `(TP ${p.shape.tensor} · PP ${p.shape.pipeline} · batch ${formatGrouped(p.shape.batch)}), leaving ${formatSeconds(idle.waitBudgetSeconds)} `
    + `to wait for a slot, which a request holds for ${formatSeconds(idle.holdSeconds)}, so the plans tried meet it at `
    + `${formatGrouped(load.requestsPerSecond)} requests/s only with their replicas under ${formatPercent(idle.loadFloor, 0)} loaded: `
    + `the best keeps ${formatGrouped(load.replicas)} replicas (${formatGrouped(load.gpus)} GPUs) ${formatLoad(load.utilization)} loaded`;
}
