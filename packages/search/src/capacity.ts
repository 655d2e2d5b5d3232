import type { SearchBase } from './candidate.ts';
import {
  MAX_NODES, meetsGoal, nodesText, sizer, smallestFit, type CapacityGoal, type CapacityOptions, type CapacityPoint, type Sizer,
} from './capacity-sizer.ts';

export type { CapacityGoal, CapacityOptions, CapacityPoint } from './capacity-sizer.ts';
export { MAX_NODES, trainOnNodes } from './capacity-sizer.ts';

/** How far below the answer every cluster size was searched (a deadline's answer only). */
export interface CapacityCheck {
  /** Every size from this many nodes to one below the answer was searched and misses the goal. */
  readonly fromNodes: number;
  /**
   * True when no size below `fromNodes` can meet the deadline even at the GPU's peak (MFU 1), so the
   * answer is the fewest nodes; false when the scan stopped at its window (SCAN_WINDOW sizes).
   */
  readonly complete: boolean;
}

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
  };

/**
 * The most sizes searched one by one below the bisection's answer. Time to train is not monotone in
 * the node count (a count with few factors of two leaves only awkward TP × PP × DP splits: GPT-3 175B
 * meets 30 days on 88 and 96 nodes of A100 but not on 97, and the bisection stopped at 98), so the
 * sizes below the bisection's answer are all searched, down to the peak-FLOPs floor or this window,
 * whichever is nearer: about 1 s of searching per 50 sizes at a few hundred nodes.
 */
export const SCAN_WINDOW = 128;

/**
 * Fewer nodes than this cannot train in `deadlineSeconds` even at 100% MFU: the model FLOPs of the
 * token budget are the same on every cluster size (the batch is fixed), and a plan's time is those
 * FLOPs over nodes × GPUs × peak × MFU with MFU ≤ 1 (MFU as defined by Chowdhery et al. 2022, PaLM,
 * Appendix B). From a point found: seconds × nodes × MFU is those FLOPs over GPUs-per-node × peak.
 */
function peakFloorNodes(point: CapacityPoint, deadlineSeconds: number): number {
  return Math.max(1, Math.ceil((point.seconds * point.nodes * point.plan.estimate.mfu) / deadlineSeconds));
}

/** Searches every size below `found` down to the peak floor or the window, keeping the fewest that meet the goal. */
function scanBelow(s: Sizer, found: CapacityPoint, goal: CapacityGoal & { deadlineSeconds: number }): { point: CapacityPoint; checked: CapacityCheck } {
  const floor = peakFloorNodes(found, goal.deadlineSeconds);
  const from = Math.max(floor, found.nodes - SCAN_WINDOW);
  let fewest = found;
  for (let n = found.nodes - 1; n >= from; n--) {
    const point = s.at(n);
    if (point && meetsGoal(point, goal)) fewest = point;
  }
  return { point: fewest, checked: { fromNodes: from, complete: from === floor } };
}

function checkNote(fewest: CapacityPoint, checked: CapacityCheck): string {
  const below = fewest.nodes > checked.fromNodes ? `every size from ${checked.fromNodes} to ${fewest.nodes - 1} nodes was searched and misses the goal; ` : '';
  return below + (checked.complete
    ? `fewer than ${nodesText(checked.fromNodes)} cannot meet the deadline even at 100% MFU`
    : `sizes below ${checked.fromNodes} nodes were not all searched (the scan covers the ${SCAN_WINDOW} sizes below the bisection's answer)`);
}

/**
 * "How many nodes": the fewest nodes whose best plan trains `tokens` within the goal (a deadline,
 * optionally checked against a budget). The smallest cluster the model fits on is found by doubling
 * and bisection (capacity-sizer.ts); then powers of two until the goal is met, bisection between the
 * last miss and the first hit, and, with a deadline, a search of every size below that answer down to
 * the peak-FLOPs floor (or SCAN_WINDOW sizes), since time to train steps up and down with the node
 * count's factors. A budget alone (no deadline) is checked from the smallest cluster upwards, by
 * doubling: use fastestWithinBudget for the fastest plan a budget affords.
 */
export function fewestNodes(base: SearchBase, tokens: number, goal: CapacityGoal, options: CapacityOptions = {}): CapacityAnswer {
  const s = sizer(base, tokens, options, goal.pricePerGpuHour);
  const fit = smallestFit(s);
  if (!fit) {
    return { ok: false, reason: 'does-not-fit', message: `no configuration fits on up to ${MAX_NODES} nodes of ${base.gpusPerNode} × ${base.gpu.name}`, searches: s.searches() };
  }
  const answer = (found: CapacityPoint): CapacityAnswer => {
    if (goal.deadlineSeconds === undefined) return { ok: true, searches: s.searches(), ...found };
    const { point, checked } = scanBelow(s, found, { ...goal, deadlineSeconds: goal.deadlineSeconds });
    return { ok: true, ...point, checked, note: checkNote(point, checked), searches: s.searches() };
  };
  if (meetsGoal(fit.smallest, goal)) return answer(fit.smallest);

  const budgetOnly = goal.deadlineSeconds === undefined;
  // Grow over powers of two (the sizes with the most TP × PP × DP splits), keeping the best point seen as the closest alternative.
  let closest = fit.smallest;
  let below = fit.smallest.nodes;
  let found: CapacityPoint | undefined;
  for (let n = fit.first.nodes; n <= MAX_NODES; n *= 2) {
    if (n <= fit.smallest.nodes) continue;
    const point = s.at(n);
    if (!point) { below = n; continue; }
    if (meetsGoal(point, goal)) { found = point; break; }
    below = n;
    if (budgetOnly ? point.gpuHours < closest.gpuHours : point.seconds < closest.seconds) closest = point;
    // A budget that the cluster sizes keep missing by more each time will not be met by growing further.
    if (budgetOnly && n >= 8 * fit.smallest.nodes) break;
  }
  if (!found) {
    const message = budgetOnly
      ? `no cluster size meets the budget: the cheapest run found takes ${closest.gpuHours.toFixed(0)} GPU-hours on ${nodesText(closest.nodes)}`
      : `no cluster of up to ${MAX_NODES} nodes meets the deadline: the fastest found takes ${closest.days.toFixed(1)} days on ${nodesText(closest.nodes)}`;
    return { ok: false, reason: budgetOnly ? 'budget-unreachable' : 'deadline-unreachable', message, closest, searches: s.searches() };
  }
  // Bisect between the last size that missed and the first that met the goal.
  while (found.nodes - below > 1) {
    const mid = Math.floor((below + found.nodes) / 2);
    const point = s.at(mid);
    if (point && meetsGoal(point, goal)) found = point;
    else below = mid;
  }
  return answer(found);
}
