import { billion, type Seconds } from '@trainplan/units';
import type { InferenceEstimate } from './inference-estimate.ts';

/**
 * Serving a request rate: how many replicas it needs, how loaded they are, and how long a request waits
 * for a free slot. A replica running continuous batching at batch b is b slots (vLLM's max_num_seqs); a
 * sequence holds its slot for S, its L iterations (O; O + c − 1 with its prompt prefilled in c chunks, which
 * hold the slot too: InferenceEstimate's slotSeconds), so a replica finishes b/S requests a second. A load
 * balancer spreads Poisson arrivals of λ requests/s evenly over R replicas, each then an M/D/b queue: Poisson
 * arrivals, a fixed holding time, b slots.
 */

/**
 * Erlang's C formula: the probability that an arrival finds all c servers busy and waits, for an offered
 * load of a = λ·S erlangs (a < c). From Erlang B's recursion B(0) = 1, B(k) = a·B/(k + a·B), stable for
 * any c (Jagerman, "Some properties of the Erlang loss function", Bell System Technical Journal 1974), and
 * C = c·B / (c − a·(1 − B)) (Kleinrock, "Queueing Systems" vol. 1, 1975, §3.5).
 */
export function erlangC(servers: number, offeredErlangs: number): number {
  if (offeredErlangs >= servers) return 1;
  let b = 1;
  for (let k = 1; k <= servers; k++) b = (offeredErlangs * b) / (k + offeredErlangs * b);
  return (servers * b) / (servers - offeredErlangs * (1 - b));
}

/**
 * Mean wait for a slot in an M/D/c queue by the Allen–Cunneen approximation (Allen, "Probability,
 * Statistics and Queueing Theory", 1990, §6.3): M/M/c's wait C(c, a)·S/(c − a) times (Cₐ² + Cₛ²)/2, which
 * is 1/2 for Poisson arrivals (Cₐ² = 1) and a fixed holding time (Cₛ² = 0); exact for one slot (M/D/1's
 * Pollaczek–Khinchine wait). Infinite at or past the slots' capacity.
 */
export function admissionWaitSeconds(slots: number, arrivalsPerSecond: number, holdSeconds: Seconds): Seconds {
  const offered = arrivalsPerSecond * holdSeconds;
  if (offered >= slots) return Number.POSITIVE_INFINITY;
  return (0.5 * erlangC(slots, offered) * holdSeconds) / (slots - offered);
}

export interface ServingLoad {
  readonly requestsPerSecond: number;
  /** Replicas the rate needs: the fewest whose first token, waiting included, meets the bound (without one: under full load). */
  readonly replicas: number;
  /** GPUs of those replicas: replicas × TP × PP. */
  readonly gpus: number;
  /** The rate over what the replicas finish at this batch: ρ = λ·S / (R·b). */
  readonly utilization: number;
  /** Mean wait for a free slot before the prompt is admitted (admissionWaitSeconds). */
  readonly queueSeconds: Seconds;
  /** The time to first token with that wait: the point's prefillSeconds + queueSeconds. */
  readonly firstTokenSeconds: Seconds;
}

/** Past this many replicas a bound is taken as out of reach (its slack is below what any cluster serves at). */
const MAX_REPLICAS = billion(1);

/** What servingLoad needs of a serving point. */
export interface LoadedPoint {
  readonly batch: number;
  readonly gpus: number;
  /** S: how long a sequence holds its slot (InferenceEstimate's slotSeconds; O iterations for a prompt prefilled whole). */
  readonly holdSeconds: Seconds;
  /** Time to first token without a queue. */
  readonly firstTokenSeconds: Seconds;
}

/**
 * How long a sequence of an estimate holds its slot: its slotSeconds (continuous batching), else, as a static batch
 * has no slots to hold, O of its per-token steps as a prompt prefilled whole would.
 */
export const holdSeconds = (e: Pick<InferenceEstimate, 'slotSeconds' | 'decodeStepSeconds' | 'shape'>): Seconds =>
  e.slotSeconds ?? e.shape.outputTokens * e.decodeStepSeconds;

/**
 * The fewest replicas of a point that keep up with `requestsPerSecond` (ρ < 1): a replica finishes b/S
 * requests a second. No count below it serves the rate, whatever the bound, so it is servingLoad's lower bound; without a first-token bound it is servingLoad's count (any ρ < 1 waits a finite time).
 */
export function replicasKeepingUp(point: LoadedPoint, requestsPerSecond: number): number {
  return Math.floor(requestsPerSecond / (point.batch / point.holdSeconds)) + 1;
}

/**
 * The fewest replicas of a point that serve `requestsPerSecond`, with `maxFirstTokenSeconds` (when given)
 * bounding the first token including the wait for a slot, or undefined when no count does (the first token
 * alone is past the bound). The wait falls as replicas are added, so the count is found by doubling from
 * the fewest that keep up (ρ < 1), then bisection.
 */
export function servingLoad(point: LoadedPoint, requestsPerSecond: number, maxFirstTokenSeconds?: Seconds): ServingLoad | undefined {
  // Some wait always remains, so a first token already at the bound leaves no count that meets it.
  if (maxFirstTokenSeconds !== undefined && point.firstTokenSeconds >= maxFirstTokenSeconds) return undefined;
  const hold = point.holdSeconds;
  const perReplica = point.batch / hold;
  const wait = (replicas: number) => admissionWaitSeconds(point.batch, requestsPerSecond / replicas, hold);
  const meets = (replicas: number) => (maxFirstTokenSeconds === undefined ? Number.isFinite(wait(replicas)) : point.firstTokenSeconds + wait(replicas) <= maxFirstTokenSeconds);
  let low = replicasKeepingUp(point, requestsPerSecond);
  let high = low;
  while (!meets(high)) {
    if (high > MAX_REPLICAS) return undefined;
    low = high + 1;
    high *= 2;
  }
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (meets(mid)) high = mid; else low = mid + 1;
  }
  const queueSeconds = wait(high);
  return {
    requestsPerSecond, replicas: high, gpus: high * point.gpus, utilization: requestsPerSecond / (high * perReplica),
    queueSeconds, firstTokenSeconds: point.firstTokenSeconds + queueSeconds,
  };
}
