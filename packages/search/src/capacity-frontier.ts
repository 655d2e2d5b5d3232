import type { Candidate, SearchBase } from './candidate.ts';
import { fewestOn } from './capacity.ts';
import { closeUnderFastest } from './capacity-closing.ts';
import { replicaFamily, scanReplicaFamilies, shapeKey } from './capacity-replicas.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { noFitAnswer, sizer, smallestFit, type CapacityOptions, type NoFit, type Sizer } from './capacity-sizer.ts';
import type { CapacityPoint } from './capacity-types.ts';
import { maxNodesText } from './capacity-text.ts';

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
    /** Where the fastest is at the search's edge (maxNodesText): that no larger size was searched. */
    readonly note?: string;
  }
  | NoFit;

/**
 * How many doublings past the fastest size found the curve is followed: a size slower than a smaller
 * one costs more GPU-hours too (more GPUs for longer), so once the time to train stops falling, larger
 * sizes are dominated; one more doubling makes sure the fall did not just pause at an awkward count.
 */
export const FRONTIER_PATIENCE = 2;

/**
 * Sizes tried between each two neighbouring powers of two on the curve: 2^k × (8 + i) / 8 for i = 1 … 7
 * (every size below 16 nodes), the sizes of at most four significant bits: each keeps all but three of
 * the factors of two of the power below it, so its GPUs still split a power-of-two batch and head count.
 * A size between two powers can beat the power below it on both time and GPU-hours (Llama 3 70B on H100,
 * 512 sequences, 2T tokens: 18 nodes take 160 days and 553k GPU-hours, 16 nodes 193 days and 592k, 4 nodes
 * 764 days and 587k; 7 nodes 541k).
 */
export const FRONTIER_OCTAVE_STEPS = 8;

/**
 * The most sizes searched one by one on each side of the cheapest size the powers of two and the octave
 * steps found, up to the sizes tried beside it: its neighbours' factors differ, and so do their splits.
 */
export const FRONTIER_SCAN_WINDOW = 16;

/**
 * The deadlines of the curve's Pareto sizes search at most this many times the sizes the curve searched (refineCurve):
 * Llama 3 70B on H100, 2T tokens at each size's own batch, 88 sizes then 193 more, the curve exact (as a brute-force
 * scan of every size finds it) up to 234 nodes.
 */
export const FRONTIER_REFINE_SHARE = 2;

/**
 * The time–cost trade-off of training `tokens` over cluster sizes, for "what is the cheapest way to
 * train it, and what does going faster cost?": the smallest cluster that fits, then powers of two up
 * to MAX_NODES while the time to train keeps falling, the octave steps between them
 * (FRONTIER_OCTAVE_STEPS), and every size beside the cheapest of those (FRONTIER_SCAN_WINDOW), each with
 * its best plan (the achieved throughput, not a fixed TFLOP/s), then the Pareto sizes' times as deadlines,
 * fewest nodes first, each searched as --days searches it (refineCurve), which finds the sizes between the
 * steps that beat them, the multiples of the Pareto sizes' replicas that beat one (replicaRefine), and the deadline search
 * under the fastest found (closeUnderFastest), so that --days finds no size faster than the curve's fastest. GPU-hours are lowest where the plan's MFU is highest, usually near the smallest sizes that fit, and grow as scaling efficiency falls with
 * the node count (a fixed global batch leaves fewer micro-batches per pipeline, Narayanan et al. 2021,
 * §3.3); the Pareto points, over every size searched, are the sizes worth choosing between.
 */
export function costTimeFrontier(base: SearchBase, tokens: number, options: CapacityOptions = {}, price?: number): FrontierAnswer {
  const s = sizer(base, tokens, options, price);
  const fit = smallestFit(s);
  if (!fit) {
    return noFitAnswer(base, s);
  }
  searchCurve(s, fit);
  refineCurve(s, fit, base, tokens, options, FRONTIER_REFINE_SHARE * s.searches());
  replicaRefine(s, base, tokens, options, price, FRONTIER_REPLICA_SHARE * s.searches());
  // The fast end: the sizes past the fastest found that add replicas to the fastest sizes' shapes, as a budget that
  // affords them finds them (fastestWithinBudget's scanReplicaFamilies, with no budget): the curve's fastest is then the
  // fastest a budget answers (QA: Llama 3 70B on H100, 2T tokens: 7,990 nodes in 12.0 hours named the fastest, where
  // 770k GPU-hours buy 8,190 nodes in 11.7 hours).
  scanReplicaFamilies(s, base, tokens, {}, options, price, (p) => p !== undefined, new Set());
  // And the search --days runs, under the fastest found (closeUnderFastest): the curve's "fastest" is then one no deadline
  // search beats (QA: Llama 3 70B on H100, 2T tokens: 8,192 nodes in 19.0 hours starred the fastest, where --days 0.7875
  // answers 7,884 nodes in 18.7 hours and 8,100 nodes take 18.2).
  closeUnderFastest(s, fit, base, tokens, price === undefined ? {} : { pricePerGpuHour: price }, options, () => s.points().reduce(faster));
  // Every size that runs is on the curve: the smallest-fit bisection's between the smallest and the first power of two,
  // and every size the deadlines' searches ran, included.
  const searched = s.points().sort((a, b) => a.nodes - b.nodes);
  const points = searched.map((p): FrontierPoint => ({ ...p, pareto: !searched.some((q) => dominates(q, p)) }));
  const cheapest = points.reduce(cheaper);
  const fastest = points.reduce(faster);
  const edge = maxNodesText(fastest.nodes);
  return { ok: true, points, cheapest, fastest, searches: s.searches(), ...(edge !== undefined && { note: edge }) };
}

/**
 * Searches the sizes of the time–cost curve (costTimeFrontier's), after smallestFit: powers of two while the time to
 * train keeps falling (FRONTIER_PATIENCE), the octave steps between them (FRONTIER_OCTAVE_STEPS), and every size
 * beside the cheapest of those (FRONTIER_SCAN_WINDOW). Returns the cheapest size searched: the one the curve names,
 * so that a budget (fastestWithinBudget) is reachable exactly when the curve's cheapest size stays within it.
 */
export function searchCurve(s: Sizer, fit: { readonly smallest: CapacityPoint }): CapacityPoint {
  let fastestSeconds = fit.smallest.seconds;
  let sinceFaster = 0;
  let largest = fit.smallest.nodes;
  for (let n = 2 ** Math.ceil(Math.log2(fit.smallest.nodes + 1)); n <= MAX_NODES && sinceFaster < FRONTIER_PATIENCE; n *= 2) {
    largest = n;
    const point = s.at(n);
    if (point && point.seconds < fastestSeconds) {
      fastestSeconds = point.seconds;
      sinceFaster = 0;
    } else sinceFaster += 1;
  }
  for (let power = 1; power < largest; power *= 2) {
    const step = Math.max(1, power / FRONTIER_OCTAVE_STEPS);
    for (let n = power + step; n < 2 * power && n < largest; n += step) if (n > fit.smallest.nodes) s.at(n);
  }
  scanBesideCheapest(s);
  return s.points().reduce(cheaper);
}

/** The shorter time to train; the fewer GPU-hours on a tie. */
const faster = <P extends CapacityPoint>(a: P, b: P): P => (b.seconds < a.seconds || (b.seconds === a.seconds && b.gpuHours < a.gpuHours) ? b : a);

/** The fewer GPU-hours; the fewer nodes on a tie. */
const cheaper = <P extends CapacityPoint>(a: P, b: P): P => (b.gpuHours < a.gpuHours || (b.gpuHours === a.gpuHours && b.nodes < a.nodes) ? b : a);

/**
 * Searches every size between the cheapest size found so far and the sizes that run beside it, at most
 * FRONTIER_SCAN_WINDOW on each side.
 */
function scanBesideCheapest(s: Sizer): void {
  const points = s.points();
  const cheapest = points.reduce(cheaper);
  const below = Math.max(0, ...points.filter((p) => p.nodes < cheapest.nodes).map((p) => p.nodes));
  const above = Math.min(MAX_NODES + 1, ...points.filter((p) => p.nodes > cheapest.nodes).map((p) => p.nodes));
  for (let n = Math.max(below + 1, cheapest.nodes - FRONTIER_SCAN_WINDOW); n <= Math.min(above - 1, cheapest.nodes + FRONTIER_SCAN_WINDOW); n++) s.at(n);
}

/** `q` trains as fast or faster for as few GPU-hours or fewer, and strictly better on one. */
function dominates(q: Pick<CapacityPoint, 'seconds' | 'gpuHours'>, p: Pick<CapacityPoint, 'seconds' | 'gpuHours'>): boolean {
  return q.seconds <= p.seconds && q.gpuHours <= p.gpuHours && (q.seconds < p.seconds || q.gpuHours < p.gpuHours);
}

/**
 * The replica scans of the Pareto sizes search at most this share of the sizes the curve and its deadlines searched
 * (replicaRefine): Llama 3 70B on H100, 2T tokens at each size's own batch, 247 sizes, then 6 more
 * (243 and 252 nodes unstar 256, 7,690 and 7,990 unstar 8,192). Members that would only join the curve between its sizes
 * are not searched: past a few hundred nodes nearly every multiple would (each a little faster for a few more GPU-hours).
 */
export const FRONTIER_REPLICA_SHARE = 0.5;

/**
 * The multiples of the Pareto sizes' model-parallel replicas (replicaFamily): past a few hundred nodes the deadlines'
 * budget is spent, and the octave steps' sizes (powers of two and their eighths) seldom hold whole replicas of the best
 * shapes, so a starred size can be beaten on both by a multiple of a smaller starred size's replica (Llama 3 70B on H100,
 * 2T tokens at each size's batch: 256 nodes, 13.9 days and 680,998 GPU-hours, by 252 nodes of TP 2 · PP 9 · CP 4, 13.6
 * days and 658,878: 28 replicas of 9 nodes). Each
 * shape's family is estimated once (one estimate a member); the members whose estimate beats a Pareto size on both are
 * searched in full, fewest nodes first, until none is left or `budget` sizes were searched. Returns the sizes searched.
 */
function replicaRefine(s: Sizer, base: SearchBase, tokens: number, options: CapacityOptions, price: number | undefined, budget: number): number {
  const families = new Map<string, { nodes: number; seconds: number; gpuHours: number }[]>();
  const stop = s.searches() + budget;
  const start = s.searches();
  for (;;) {
    const points = s.points();
    const pareto = points.filter((p) => !points.some((q) => dominates(q, p)));
    for (const shape of pareto.flatMap((p) => neighbourShapes(p.plan.candidate))) {
      const key = shapeKey(shape);
      if (!families.has(key)) families.set(key, replicaFamily(base, tokens, shape, {}, options, price));
    }
    const searched = new Set(points.map((p) => p.nodes));
    const unsearched = [...families.values()].flat().filter((m) => !searched.has(m.nodes) && s.noPlan(m.nodes) === undefined);
    // First the members that would unstar a starred size; then one that fills the widest gap in time between two starred
    // sizes (replicaGapFiller), so that the curve has no jump the families could fill.
    const next = unsearched.filter((m) => pareto.some((p) => dominates(m, p))).sort((a, b) => a.nodes - b.nodes)[0]
      ?? replicaGapFiller(pareto, unsearched, points);
    if (next === undefined || s.searches() >= stop) return s.searches() - start;
    s.at(next.nodes);
  }
}

/**
 * A starred size's shape and its neighbours with twice or half the context or tensor parallelism: past a few hundred
 * nodes the batch per size holds fewer sequences per replica than a shape's family needs, and the next shape up takes
 * over (Llama 3 70B on H100, 2T tokens: 279 nodes of TP 2 · PP 9 · CP 4, then 324–360 nodes of the same with CP 8, 10.5
 * days at 360, which no size beats).
 */
function neighbourShapes(c: Candidate): Candidate[] {
  const halved = (n: number): number[] => (n % 2 === 0 ? [n / 2] : []);
  return [
    c,
    { ...c, context: 2 * c.context }, ...halved(c.context).map((context) => ({ ...c, context })),
    { ...c, tensor: 2 * c.tensor }, ...halved(c.tensor).map((tensor) => ({ ...c, tensor })),
  ];
}

/**
 * The time ratio between two neighbouring starred sizes above which the curve has a gap worth filling: 20%. Past a few
 * hundred nodes nearly every multiple of a good shape's replica is on the curve (each a little faster for a few more
 * GPU-hours), so adding all of them would list hundreds of sizes a few per cent apart; one in each gap wider than this
 * keeps the curve readable without a jump (QA: Llama 3 70B on H100, 2T tokens, from 252 nodes in 13.6 days to 480 in 8.2,
 * where 279 nodes take 12.3 days and 360 nodes 10.5, neither beaten by any size).
 */
export const FRONTIER_GAP_RATIO = 1.2;

/**
 * In the widest gap in time between neighbouring starred sizes (wider than FRONTIER_GAP_RATIO), the family member that no
 * searched size beats and that is a knee (the fastest of its GPU-hours, KNEE_SHARE) whose time is nearest the gap's
 * geometric middle; undefined when no gap has one.
 */
function replicaGapFiller(
  pareto: readonly CapacityPoint[], unsearched: readonly Pick<CapacityPoint, 'nodes' | 'seconds' | 'gpuHours'>[], points: readonly CapacityPoint[],
): Pick<CapacityPoint, 'nodes' | 'seconds' | 'gpuHours'> | undefined {
  const byTime = [...pareto].sort((a, b) => b.seconds - a.seconds);
  const gaps = byTime.slice(1).map((fast, i) => ({ slow: byTime[i]!, fast }))
    .filter(({ slow, fast }) => slow.seconds / fast.seconds > FRONTIER_GAP_RATIO)
    .sort((a, b) => b.slow.seconds / b.fast.seconds - a.slow.seconds / a.fast.seconds);
  // A knee: no size known trains faster for as good as the same GPU-hours (within KNEE_SHARE), the size a budget picks.
  const known: readonly Pick<CapacityPoint, 'seconds' | 'gpuHours'>[] = [...unsearched, ...points];
  const knee = (m: Pick<CapacityPoint, 'seconds' | 'gpuHours'>): boolean => !known.some((q) => q.seconds < m.seconds && q.gpuHours <= m.gpuHours * (1 + KNEE_SHARE));
  for (const { slow, fast } of gaps) {
    const middle = Math.sqrt(slow.seconds * fast.seconds);
    const inGap = unsearched.filter((m) => m.seconds < slow.seconds && m.seconds > fast.seconds && !points.some((p) => dominates(p, m)) && knee(m));
    if (inGap.length > 0) return inGap.reduce((a, b) => (Math.abs(Math.log(b.seconds / middle)) < Math.abs(Math.log(a.seconds / middle)) ? b : a));
  }
  return undefined;
}

/**
 * GPU-hours within which a faster size makes a gap's candidate no knee: 0.5%. Along a replica family the GPU-hours creep
 * up by a few hundredths of a per cent a replica (Llama 3 70B on H100, 2T tokens: 252 nodes 658,878, 279 nodes 658,934)
 * and jump where the shape changes (360 nodes 728,139): the fastest size of each such plateau is where a budget lands.
 */
const KNEE_SHARE = 0.005;

/**
 * The curve's sizes between the powers of two and their octave steps: each Pareto size's time as a deadline, searched
 * as --days searches it (fewestOn: the fewest nodes that meet it, and every size below down to the peak-FLOPs floor or
 * 128 sizes), fewest nodes first, until no Pareto size is left unasked or the deadlines have searched `budget` more
 * sizes (FRONTIER_REFINE_SHARE times the curve's). A size the octave steps skip can beat one they try on both (Llama
 * 3 70B on H100, 2T tokens at each size's own batch: 108 nodes take 28.4 days and 588,337 GPU-hours, 112 nodes 28.6 days and 615,959);
 * the fewest nodes that meet a size's time train it for as few GPU-hours or fewer unless they are slower. The budget
 * bounds the run: past a few hundred nodes every size whose GPUs split well is on the curve (each is faster than the
 * one below for a few more GPU-hours), and asking each would search them all. Returns the deadlines searched.
 */
function refineCurve(
  s: Sizer, fit: { first: CapacityPoint; smallest: CapacityPoint }, base: SearchBase, tokens: number, options: CapacityOptions, budget: number,
): number {
  const asked = new Set<number>();
  const stop = s.searches() + budget;
  for (;;) {
    const points = s.points();
    const next = points.filter((p) => !asked.has(p.nodes) && !points.some((q) => dominates(q, p))).sort((a, b) => a.nodes - b.nodes)[0];
    if (next === undefined || s.searches() >= stop) return asked.size;
    asked.add(next.nodes);
    fewestOn(s, fit, base, tokens, { deadlineSeconds: next.seconds }, options, { families: false });
  }
}
