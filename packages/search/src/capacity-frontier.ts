import type { SearchBase } from './candidate.ts';
import { MAX_NODES, noFitText, sizer, smallestFit, type CapacityOptions, type CapacityPoint } from './capacity-sizer.ts';

/** A cluster size on the time–cost curve: its best plan, and whether another size beats it on both. */
export interface FrontierPoint extends CapacityPoint {
  /** No other size searched trains as fast or faster for as few GPU-hours or fewer (one of them strictly). */
  readonly pareto: boolean;
}

export type FrontierAnswer =
  | {
    readonly ok: true;
    /** Every size searched that runs a plan, fewest nodes first. */
    readonly points: readonly FrontierPoint[];
    /** The fewest GPU-hours (so the lowest cost at any one price per GPU-hour); the fewer nodes on a tie. */
    readonly cheapest: FrontierPoint;
    /** The shortest time to train; the fewer GPU-hours on a tie. */
    readonly fastest: FrontierPoint;
    readonly searches: number;
  }
  | { readonly ok: false; readonly reason: 'does-not-fit'; readonly message: string; readonly searches: number };

/**
 * How many doublings past the fastest size found the curve is followed: a size slower than a smaller
 * one costs more GPU-hours too (more GPUs for longer), so once the time to train stops falling, larger
 * sizes are dominated; one more doubling makes sure the fall did not just pause at an awkward count.
 */
export const FRONTIER_PATIENCE = 2;

/**
 * The time–cost trade-off of training `tokens` over cluster sizes, for "what is the cheapest way to
 * train it, and what does going faster cost?": the smallest cluster that fits, then powers of two up
 * to MAX_NODES while the time to train keeps falling, each with its best plan (the achieved
 * throughput, not a fixed TFLOP/s). GPU-hours are lowest where the plan's MFU is highest, usually
 * near the smallest sizes that fit, and grow as scaling efficiency falls with the node count (a fixed
 * global batch leaves fewer micro-batches per pipeline, Narayanan et al. 2021, §3.3); the Pareto
 * points are the sizes worth choosing between.
 */
export function costTimeFrontier(base: SearchBase, tokens: number, options: CapacityOptions = {}, price?: number): FrontierAnswer {
  const s = sizer(base, tokens, options, price);
  const fit = smallestFit(s);
  if (!fit) {
    return { ok: false, reason: 'does-not-fit', message: noFitText(base), searches: s.searches() };
  }
  let fastestSeconds = fit.smallest.seconds;
  let sinceFaster = 0;
  for (let n = 2 ** Math.ceil(Math.log2(fit.smallest.nodes + 1)); n <= MAX_NODES && sinceFaster < FRONTIER_PATIENCE; n *= 2) {
    const point = s.at(n);
    if (point && point.seconds < fastestSeconds) {
      fastestSeconds = point.seconds;
      sinceFaster = 0;
    } else sinceFaster += 1;
  }
  // Every size that runs is on the curve, the smallest-fit bisection's between the smallest and the first power of two included.
  const searched = s.points().sort((a, b) => a.nodes - b.nodes);
  const points = searched.map((p): FrontierPoint => ({ ...p, pareto: !searched.some((q) => dominates(q, p)) }));
  const cheapest = points.reduce((a, b) => (b.gpuHours < a.gpuHours ? b : a));
  const fastest = points.reduce((a, b) => (b.seconds < a.seconds || (b.seconds === a.seconds && b.gpuHours < a.gpuHours) ? b : a));
  return { ok: true, points, cheapest, fastest, searches: s.searches() };
}

/** `q` trains as fast or faster for as few GPU-hours or fewer, and strictly better on one. */
function dominates(q: CapacityPoint, p: CapacityPoint): boolean {
  return q.seconds <= p.seconds && q.gpuHours <= p.gpuHours && (q.seconds < p.seconds || q.gpuHours < p.gpuHours);
}
