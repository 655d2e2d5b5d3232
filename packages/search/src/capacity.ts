import { modelFlopsPerStep } from '@trainplan/model';
import type { SearchBase } from './candidate.ts';
import { DEADLINE_FAMILY_ROUNDS, DEADLINE_REFINE_ROUNDS, fastestInFamilies, fewestInFamilies, type FamilyCache } from './capacity-deadline-families.ts';
import { fewestRunnable } from './capacity-runnable.ts';
import { MAX_NODES, SCAN_WINDOW } from './capacity-limits.ts';
import { meetsGoal, noFitAnswer, sizer, smallestFit, type BatchPolicy, type CapacityOptions, type Sizer } from './capacity-sizer.ts';
import { bothMissedText, checkNote, daysText, maxNodesText, nodesText } from './capacity-text.ts';
import type { CapacityCheck, CapacityGoal, CapacityPoint, DeadlineGoal } from './capacity-types.ts';

export type CapacityAnswer =
  | ({
    readonly ok: true;
    readonly searches: number;
    readonly checked?: CapacityCheck;
    /** With a budget and no deadline (fastestWithinBudget): the smallest cluster that fits, for comparison. */
    readonly smallest?: CapacityPoint;
    /** How thoroughly the sizes were searched, for humans. */
    readonly note?: string;
  } & CapacityPoint)
  | {
    readonly ok: false;
    readonly reason: 'does-not-fit' | 'deadline-unreachable' | 'budget-unreachable';
    readonly message: string;
    /** The closest feasible alternative: the fastest (deadline) or cheapest (budget) point found. */
    readonly closest?: CapacityPoint;
    readonly searches: number;
    /** 'does-not-fit' where the constraints contradict each other (NoFit). */
    readonly contradiction?: string;
  };

/**
 * Fewer nodes than this cannot train in `deadlineSeconds` even at 100% MFU: a plan's time is the model
 * FLOPs of the tokens it trains over nodes × GPUs × peak × MFU with MFU ≤ 1 (MFU as defined by Chowdhery
 * et al. 2022, PaLM, Appendix B). From a point found: seconds × nodes × MFU is its FLOPs over
 * GPUs-per-node × peak. With one batch at every size those FLOPs are the same on every size (so are the
 * whole steps the tokens take); with a batch per size (CapacityOptions.globalBatchFor) each size trains
 * its own whole steps, at least `tokens`, so the floor is taken from the FLOPs of `tokens` alone. `share`
 * scales the point's FLOPs to those that must run: the share of its tokens that `tokens` are, and the
 * causal share of its attention (fewestOn).
 */
function peakFloorNodes(point: CapacityPoint, deadlineSeconds: number, share: number): number {
  return Math.max(1, Math.ceil((point.seconds * point.nodes * point.plan.estimate.mfu * share) / deadlineSeconds));
}

/**
 * Searches every size below `found` down to the peak floor or SCAN_WINDOW sizes below the fewest that meets the goal,
 * keeping that fewest: the window slides down with each smaller size that meets it, so the answer has no size meeting
 * the goal among the SCAN_WINDOW below it (or none above the floor). Time to train is not monotone in the size (its
 * factors set the splits; with a batch per size, the batch too: 276 nodes met a deadline 280 was found for).
 * `share`: peakFloorNodes's, of `found`.
 */
function scanBelow(s: Sizer, found: CapacityPoint, goal: DeadlineGoal, share: number): { point: CapacityPoint; checked: CapacityCheck } {
  const floor = peakFloorNodes(found, goal.deadlineSeconds, share);
  let fewest = found;
  let from = found.nodes;
  for (let n = found.nodes - 1; n >= Math.max(floor, fewest.nodes - SCAN_WINDOW); n--) {
    from = n;
    const point = s.at(n);
    if (point && meetsGoal(point, goal)) fewest = point;
  }
  let noPlan = 0;
  let outOfMemory = 0;
  let candidateBudget = 0;
  for (let n = from; n < fewest.nodes; n++) {
    const why = s.noPlan(n);
    if (why !== undefined) noPlan += 1;
    if (why === 'out-of-memory') outOfMemory += 1;
    if (why === 'candidate-budget') candidateBudget += 1;
  }
  return { point: fewest, checked: { fromNodes: from, complete: from <= floor, noPlan, outOfMemory, ...(candidateBudget > 0 && { candidateBudget }) } };
}

/** The fewest of `points` that meet `goal`, if any. */
const fewestMeeting = (points: readonly CapacityPoint[], goal: CapacityGoal): CapacityPoint | undefined =>
  points.filter((p) => meetsGoal(p, goal)).reduce<CapacityPoint | undefined>((a, p) => (a === undefined || p.nodes < a.nodes ? p : a), undefined);

/**
 * Powers of two from the smallest fit upwards (the sizes with the most TP × PP × DP splits), and the size halfway to
 * the next (1.5 times it), until one meets the goal; otherwise the fastest point seen. Time to train is not monotone
 * in the node count: past the sizes a fixed batch keeps busy, more nodes can be slower (GPT-3 175B at 1,536
 * sequences on H100: 12.7 hours on 6,144 nodes, 16.1 on 8,192), so a doubling alone can step over the sizes that meet
 * a tight deadline and call it unreachable.
 */
function grow(s: Sizer, fit: { first: CapacityPoint; smallest: CapacityPoint }, goal: DeadlineGoal): { found: CapacityPoint; below: number } | { found?: undefined; closest: CapacityPoint } {
  let closest = fit.smallest;
  let below = fit.smallest.nodes;
  for (let power = fit.first.nodes; power <= MAX_NODES; power *= 2) {
    for (const n of [power, Math.round(1.5 * power)]) {
      if (n <= fit.smallest.nodes || n > MAX_NODES || n <= below) continue;
      const point = s.at(n);
      if (!point) { below = n; continue; }
      if (meetsGoal(point, goal)) return { found: point, below };
      below = n;
      if (point.seconds < closest.seconds) closest = point;
    }
  }
  return { closest };
}

/** A size that meets a deadline search's goal, or the fastest size found when none does. */
type Reached = { readonly found: CapacityPoint; readonly closest?: undefined } | { readonly found?: undefined; readonly closest: CapacityPoint };

/**
 * A size that meets `goal`: the smallest that fits, else powers of two (grow) and the bisection below the first that meets
 * it. When no power of two (nor 1.5 times one) does, the search for the fastest size (`rescue.fastest`: every size in the
 * SCAN_WINDOW below MAX_NODES, and the replica families of the fastest sizes' shapes and their neighbours), then the
 * fewest size searched that meets the goal. A fixed batch with few factors of two runs only where the data-parallel size
 * divides it, so powers of two can all miss a deadline that other sizes meet (QA: GPT-3 175B on H100 at 1,500 sequences,
 * 1 day: the powers' fastest, 6,144 nodes, take 1.3 days; 3,840 nodes of TP 16 · PP 32 · CP 2, a multiple of 1,536's
 * replica, take 0.99 days; Llama 3 70B at 8,190 sequences, 3.7 days: 8,190 nodes, 3.66 days, the powers' fastest 59.4
 * days). That search asks nothing of the deadline, so a deadline no size meets is answered with the same fastest size
 * whichever deadline was asked; it runs even where the deadline is out of reach at the peak FLOPs of MAX_NODES, which
 * once skipped it (QA: Llama 3 70B on H100, 15T tokens: 1 day answered 8,192 nodes in 3.8 days, 3 days 8,190 nodes in
 * 3.7, 3.75 days 7,990 nodes).
 */
function reach(s: Sizer, fit: { first: CapacityPoint; smallest: CapacityPoint }, goal: DeadlineGoal, rescue: { fastest: () => CapacityPoint } | undefined): Reached {
  if (meetsGoal(fit.smallest, goal)) return { found: fit.smallest };
  const grown = grow(s, fit, goal);
  if (grown.found) return { found: bisect(s, grown.below, grown.found, goal) };
  if (rescue === undefined) return { closest: grown.closest };
  const closest = rescue.fastest();
  const found = fewestMeeting(s.points(), goal);
  return found ? { found } : { closest };
}

/** The size searched with the shortest time to train (ties: the fewest nodes, the one a user can have). */
const fastestOf = (points: readonly CapacityPoint[]): CapacityPoint =>
  points.reduce((a, p) => (p.seconds < a.seconds || (p.seconds === a.seconds && p.nodes < a.nodes) ? p : a));

/** Bisects between `below` (a size that missed) and `found` (one that met the goal). */
function bisect(s: Sizer, below: number, found: CapacityPoint, goal: DeadlineGoal): CapacityPoint {
  let miss = below;
  let hit = found;
  while (hit.nodes - miss > 1) {
    const mid = Math.floor((miss + hit.nodes) / 2);
    const point = s.at(mid);
    if (point && meetsGoal(point, goal)) hit = point;
    else miss = mid;
  }
  return hit;
}

/**
 * "How many nodes": the fewest nodes whose best plan trains `tokens` within the goal (a deadline,
 * optionally checked against a budget). The smallest cluster the model fits on is found by doubling
 * and bisection (capacity-sizer.ts); then powers of two until the goal is met, bisection between the
 * last miss and the first hit, and a search of every size below that answer down to the peak-FLOPs
 * floor (or SCAN_WINDOW sizes), since time to train steps up and down with the node count's factors.
 * A deadline and a budget that no power of two meets together are told apart by deadlineOrBudget. A
 * budget without a deadline is fastestWithinBudget's question, the smallest cluster that fits, whatever
 * the time, smallestFit's (capacity-sizer.ts), and the whole time–cost curve costTimeFrontier's. With
 * `options.globalBatchFor` every size is searched at its own batch, so the answer, and each size the
 * check counts, is what the question about that size alone answers (trainOnNodes with the same options).
 */
export function fewestNodes(base: SearchBase, tokens: number, goal: DeadlineGoal, options: CapacityOptions = {}): CapacityAnswer {
  const s = sizer(base, tokens, options, goal.pricePerGpuHour);
  const fit = smallestFit(s);
  if (!fit) {
    return noFitAnswer(base, s);
  }
  return fewestOn(s, fit, base, tokens, goal, options);
}

/**
 * How fewestOn searches: `families: false` leaves out the replica families and the window below MAX_NODES (reach,
 * fewestInFamilies), for the budget's deadline probes and the time–cost curve's deadlines, which ask fewestOn dozens of
 * times and scan the families themselves (scanReplicaFamilies, replicaRefine): the powers of two, the bisection and the
 * scan below it alone, as before the families (QA: Llama 3 70B on H100, 15T tokens, 6.4M GPU-hours took 41 s with them
 * in every probe, 4.8 s without).
 */
export interface FewestSearch {
  readonly families?: boolean;
  /**
   * Where the caller has run searchFastestSizes on `s` already (the closing searches, capacity-closing.ts): the fastest size
   * searched, in place of running it again (its family estimates are most of its cost; its sizes are in `s`).
   */
  readonly fastestSearched?: () => CapacityPoint;
}

/**
 * peakFloorNodes's `share` of a point: of its model FLOPs, those that must run to train `tokens`. With a batch per size,
 * each size trains its own whole steps: `tokens` are this share of a point's. And of a step's model FLOPs, which count
 * attention over every (query, key) pair, only the causal count need run (flash attention skips the masked blocks,
 * model reference §2): at 128k tokens the full count is about 1.6 times what runs, so a floor from it (MFU ≤ 1) would
 * pass sizes that can meet the deadline (QA: MFU 101% at 1M tokens).
 */
export function floorShare(base: SearchBase, tokens: number, options: BatchPolicy): (p: CapacityPoint) => number {
  const run = { globalBatchSize: 1, seqLength: base.seqLength };
  const executed = modelFlopsPerStep(base.model, { ...run, attention: 'causal' }) / modelFlopsPerStep(base.model, run);
  return (p) => {
    if (options.globalBatchFor === undefined) return executed;
    const step = p.globalBatchSize * base.seqLength;
    return executed * tokens / (Math.ceil(tokens / step) * step);
  };
}

/**
 * fewestNodes on sizes a request has already searched (`s`, after smallestFit's `fit`), so that the budget's search
 * (fastestWithinBudget) and the time–cost curve (costTimeFrontier) can ask it for many deadlines and search each
 * size once. `base`, `tokens` and `options` are those `s` searches with.
 */
export function fewestOn(
  s: Sizer, fit: { first: CapacityPoint; smallest: CapacityPoint }, base: SearchBase, tokens: number, goal: DeadlineGoal, options: BatchPolicy = {},
  how: FewestSearch = {},
): CapacityAnswer {
  const share = floorShare(base, tokens, options);
  const scan = (found: CapacityPoint, g: DeadlineGoal) => scanBelow(s, found, g, share(found));
  // Each shape's replica family is estimated once, whichever deadline search (the goal's, the deadline's alone) asks.
  const families: FamilyCache = new Map();
  const floorOf = (p: CapacityPoint, g: DeadlineGoal): number => peakFloorNodes(p, g.deadlineSeconds, share(p));
  const answer = (found: CapacityPoint): CapacityAnswer => {
    let { point, checked } = scan(found, goal);
    for (let round = 0; how.families !== false && !checked.complete; round++) {
      // Below the scanned window, where the batch leaves few sizes able to run at all (a fixed batch runs only where DP
      // divides it): every one of them, fewest first (fewestRunnable), down to the peak-FLOPs floor. Asked again below
      // each window the families move the answer to, as they narrow the range to one it searches (QA: GPT-3 175B on H100
      // at 1,500 sequences, 1 day: the fastest sizes, 7,680 nodes and more, left too many runnable sizes below them; below
      // 3,750, the families' answer, the 468 that run hold 3,000 nodes, 19 hours).
      const range = { fromNodes: floorOf(point, goal), toNodes: Math.min(MAX_NODES, checked.fromNodes - 1) };
      const runnable = fewestRunnable(s, base, goal, options, range);
      if (runnable.point) ({ point, checked } = scan(runnable.point, goal));
      if (runnable.searched || round >= DEADLINE_FAMILY_ROUNDS) break;
      // Otherwise the replica families of the fastest sizes' shapes: a size that holds whole replicas of a shape no size in
      // the window takes can meet the goal with fewer nodes.
      const fewer = fewestInFamilies(s, base, tokens, goal, options, { fromNodes: range.fromNodes, belowNodes: checked.fromNodes }, families, DEADLINE_REFINE_ROUNDS);
      if (fewer === undefined) break;
      ({ point, checked } = scan(fewer, goal));
    }
    return { ok: true, ...point, checked, note: checkNote(point, checked), searches: s.searches() };
  };
  // The fastest size (reach), searched once whichever deadline asks: the SCAN_WINDOW sizes below MAX_NODES, then the replica
  // families of the fastest sizes' shapes from the fewest nodes that could beat the fastest found even at 100% MFU (its
  // peak-FLOPs floor at its own time). Every size searched before it (the smallest fit, the powers of two and 1.5 times
  // them) was searched for any deadline no power meets, so the fastest found depends on no deadline.
  let fastest: CapacityPoint | undefined;
  const searchFastest = (): CapacityPoint => {
    fastest ??= how.fastestSearched?.() ?? searchFastestSizes(s, base, tokens, options, goal.pricePerGpuHour, families);
    return fastest;
  };
  const reachFor = (g: DeadlineGoal) => reach(s, fit, g, how.families === false ? undefined : { fastest: searchFastest });
  const reached = reachFor(goal);
  if (reached.found) return answer(reached.found);
  const { closest } = reached;
  // At the search's edge, larger clusters, never searched, may be faster (maxNodesText), as the budget's and the curve's answers say.
  const edge = maxNodesText(closest.nodes);
  const deadlineUnreachable = (): CapacityAnswer => ({
    ok: false,
    reason: 'deadline-unreachable',
    message: `no cluster of up to ${nodesText(MAX_NODES)} meets the deadline: the fastest found takes ${daysText(closest.days)} on ${nodesText(closest.nodes)}`
      + `${edge === undefined ? '' : `; ${edge}`}`,
    closest,
    searches: s.searches(),
  });
  const withBudget = goal.gpuHourBudget !== undefined || goal.costBudget !== undefined;
  if (!withBudget) return deadlineUnreachable();
  return deadlineOrBudget(s, goal, answer, deadlineUnreachable, scan, reachFor);
}

/**
 * The search for the fastest size that a deadline no power of two meets runs (fewestOn's `reach`), on sizes `s` has
 * searched: the SCAN_WINDOW sizes below MAX_NODES, then the replica families of the fastest sizes' shapes from the fewest
 * nodes that could beat the fastest found even at 100% MFU (its peak-FLOPs floor at its own time). It asks nothing of a
 * deadline, so that a deadline no size meets is answered with the same fastest size whichever deadline was asked, and
 * the budget's and the curve's closing searches (capacity-closing.ts) can run it before their deadline. `families`: the
 * replica families estimated so far, shared with fewestOn's other family scans. Returns the fastest size searched.
 */
export function searchFastestSizes(
  s: Sizer, base: SearchBase, tokens: number, options: CapacityOptions, price: number | undefined, families: FamilyCache = new Map(),
): CapacityPoint {
  const share = floorShare(base, tokens, options);
  for (let n = MAX_NODES; n > MAX_NODES - SCAN_WINDOW && n >= 1; n--) s.at(n);
  const before = fastestOf(s.points());
  const fromNodes = peakFloorNodes(before, before.seconds, share(before));
  fastestInFamilies(s, base, tokens, options, price, { fromNodes, belowNodes: MAX_NODES + 1 }, families);
  return fastestOf(s.points());
}

/**
 * A deadline and a budget that no power of two met together: which one fails. Sizes are searched for
 * the deadline alone (powers of two, bisection and the scan below, as for a deadline alone), since a
 * size between two powers of two can meet both (then it is the answer). Otherwise: no size meets the
 * deadline → 'deadline-unreachable' (the fastest found); sizes meet the deadline but none within the
 * budget → 'budget-unreachable', with the cheapest size found that meets the deadline as the closest
 * alternative and by how much it exceeds the budget, saying so when other sizes stay within the
 * budget but miss the deadline.
 */
function deadlineOrBudget(
  s: Sizer, goal: DeadlineGoal,
  answer: (found: CapacityPoint) => CapacityAnswer, deadlineUnreachable: () => CapacityAnswer,
  scan: (found: CapacityPoint, goal: DeadlineGoal) => unknown, reachFor: (goal: DeadlineGoal) => Reached,
): CapacityAnswer {
  const deadline: DeadlineGoal = { deadlineSeconds: goal.deadlineSeconds };
  const budget: CapacityGoal = { ...goal, deadlineSeconds: undefined };
  const inTime = reachFor(deadline).found;
  if (!inTime) return deadlineUnreachable();
  scan(inTime, deadline);
  const points = s.points();
  const both = fewestMeeting(points, goal);
  if (both) return answer(both);
  const cheapest = points.filter((p) => meetsGoal(p, deadline)).reduce((a, p) => (p.gpuHours < a.gpuHours ? p : a));
  const affordable = points.filter((p) => meetsGoal(p, budget));
  const fastest = affordable.length === 0 ? undefined : affordable.reduce((a, p) => (p.seconds < a.seconds ? p : a));
  return { ok: false, reason: 'budget-unreachable', message: bothMissedText(cheapest, fastest, goal), closest: cheapest, searches: s.searches() };
}

