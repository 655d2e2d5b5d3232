import type { Seconds } from '@trainplan/units';
import type { InferenceAnswer, InferenceEstimate } from './inference-estimate.ts';
import { admissionWaitSeconds, holdSeconds, replicasKeepingUp, servingLoad, type LoadedPoint } from './serving-load.ts';

/**
 * The largest integer in [lo, hi] at which `holds` is true, given that it holds at lo: hi when it holds
 * there, else a bisection that keeps holds(lo) and not holds(hi). On a predicate true up to some n and false
 * past it, that n. The serving figures are not quite monotone in the batch (an all-reduce of an odd number
 * of tokens' activations costs a little more than of the next even one, in @trainplan/collectives; with PP
 * p the micro-batch is ⌈b/p⌉, so such a wiggle spans p batches), so past the boundary n found, `probes`
 * more integers n + 1 + stride·j (j = 1 … probes) are tried too, and the bisection resumes from one that
 * holds. The answer is always an n where it holds and, below hi, not at n + 1: a wiggle the probes miss can
 * cost the best batch but never yields one that misses.
 */
export function lastHolding(lo: number, hi: number, holds: (n: number) => boolean, probes = 0, stride = 1): number {
  const bisect = (from: number): number => {
    if (holds(hi)) return hi;
    let [yes, no] = [from, hi];
    while (no - yes > 1) {
      const mid = Math.floor((yes + no) / 2);
      if (holds(mid)) yes = mid; else no = mid;
    }
    return yes;
  };
  let found = bisect(lo);
  for (let j = 1; j <= probes; j++) {
    const n = found + 1 + stride * j;
    if (n > hi) break;
    if (holds(n)) [found, j] = [bisect(n), 0];
  }
  return found;
}

/** The smallest integer in [lo, hi] at which `holds` is true, given that it holds at hi (the mirror of lastHolding). */
function firstHolding(lo: number, hi: number, holds: (n: number) => boolean): number {
  if (holds(lo)) return lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (holds(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

/** The integer in [lo, hi] where `f` is least, by ternary search: exact on a unimodal f (falling, then rising). */
function leastAt(lo: number, hi: number, f: (n: number) => number): number {
  while (hi - lo > 2) {
    const third = Math.floor((hi - lo) / 3);
    if (f(lo + third) <= f(hi - third)) hi = hi - third; else lo = lo + third;
  }
  let best = lo;
  for (let n = lo + 1; n <= hi; n++) if (f(n) < f(best)) best = n;
  return best;
}

export interface BoundBatchSearch {
  /** The shape's largest batch that fits (its estimates are asked for at 1 … maxBatch only). */
  readonly maxBatch: number;
  /** The shape's estimate at a batch; the caller memoises it (the batches asked for here are also its points). */
  readonly at: (batch: number) => InferenceAnswer;
  readonly maxDecodeSecondsPerToken?: Seconds;
  readonly maxPrefillSeconds?: Seconds;
  readonly requestsPerSecond?: number;
}

/**
 * The batches of one TP × PP shape at which the bounds bind, which planInference tries beside the powers
 * of two. A serving engine takes any whole batch (vLLM's max_num_seqs, TensorRT-LLM's max_batch_size), and a
 * larger batch decodes each token no faster and its first token no sooner (the estimate's step and prefill
 * grow with it) while serving more tokens/s per GPU, so the best batch under a latency bound is the largest
 * that meets it, found by bisection over 1 … maxBatch (lastHolding: about log₂ maxBatch estimates).
 *
 * With a request rate the plan is the one needing the fewest GPUs. The replicas that keep up with the rate
 * (ρ < 1) only fall as the batch grows (each finishes b/S requests a second, which grows with b), so without a
 * first-token bound, or when that bound adds no replica to them at the largest batch meeting the latency
 * bounds, that batch needs the fewest. When the first-token bound does add replicas there (the prompt's own
 * prefill close to the bound, leaving little for the wait for a slot), a smaller batch may need fewer: the
 * fewest replicas R that some batch serves the rate with is found by bisection over R (more replicas never
 * wait longer), each R tried on the batches it keeps up with, where the first token (the prefill rising with
 * the batch, the wait falling as there are more slots, each less loaded) is least by ternary search, and then
 * the largest batch past that least within the bound by bisection. Every batch returned is estimated again
 * by the caller as a point, so one that a wiggle in the figures made a worse choice is never a wrong one.
 */
export function boundBatches(search: BoundBatchSearch): number[] {
  const { maxBatch, at, maxDecodeSecondsPerToken: decodeBound, maxPrefillSeconds: firstTokenBound, requestsPerSecond: rate } = search;
  if (maxBatch < 1 || (decodeBound === undefined && firstTokenBound === undefined)) return [];
  const fitting = (batch: number): InferenceEstimate | undefined => {
    const e = at(batch);
    return e.ok ? e : undefined;
  };
  // With a rate the first-token bound is the load's (servingLoad), which needs the prefill alone under it.
  const meetsLatency = (batch: number) => {
    const e = fitting(batch);
    if (e === undefined) return false;
    if (decodeBound !== undefined && e.decodeStepSeconds > decodeBound) return false;
    if (firstTokenBound === undefined) return true;
    return rate === undefined ? e.prefillSeconds <= firstTokenBound : e.prefillSeconds < firstTokenBound;
  };
  if (!meetsLatency(1)) return [];
  // Past a boundary, the next two micro-batch sizes are tried (an odd and an even one; lastHolding).
  const stride = at(1).shape.pipeline;
  const largest = lastHolding(1, maxBatch, meetsLatency, 2, stride);
  if (rate === undefined || firstTokenBound === undefined) return [largest];

  const loaded = (batch: number): LoadedPoint => {
    const e = fitting(batch)!;
    return { batch, gpus: 1, holdSeconds: holdSeconds(e), firstTokenSeconds: e.prefillSeconds };
  };
  const load = servingLoad(loaded(largest), rate, firstTokenBound);
  const fewest = replicasKeepingUp(loaded(largest), rate);
  if (load === undefined || load.replicas <= fewest) return [largest];
  // The largest batch that serves the rate on `replicas` within the first-token bound, if the search finds one.
  const servedBy = (replicas: number): number | undefined => {
    const keepsUp = (batch: number) => replicasKeepingUp(loaded(batch), rate) <= replicas;
    if (!keepsUp(largest)) return undefined;
    const firstToken = (batch: number) => {
      const p = loaded(batch);
      return p.firstTokenSeconds + admissionWaitSeconds(batch, rate / replicas, p.holdSeconds);
    };
    const least = leastAt(firstHolding(1, largest, keepsUp), largest, firstToken);
    return firstToken(least) <= firstTokenBound ? lastHolding(least, largest, (batch) => firstToken(batch) <= firstTokenBound, 2, stride) : undefined;
  };
  let [infeasible, feasible] = [fewest - 1, load.replicas];
  let found: number | undefined;
  while (feasible - infeasible > 1) {
    const replicas = Math.floor((infeasible + feasible) / 2);
    const batch = servedBy(replicas);
    if (batch === undefined) infeasible = replicas; else [feasible, found] = [replicas, batch];
  }
  return found === undefined ? [largest] : [largest, found];
}
