import type { SearchBase } from './candidate.ts';
import { searchPlans, type RankedPlan, type SearchOptions } from './search.ts';

/** A cluster size, the best plan found on it, and what training the token budget on it takes. */
export interface CapacityPoint {
  readonly nodes: number;
  readonly gpus: number;
  readonly plan: RankedPlan;
  readonly seconds: number;
  readonly days: number;
  readonly gpuHours: number;
  /** With a price per GPU-hour. */
  readonly cost?: number;
}

export interface CapacityGoal {
  /** Train within this many seconds. */
  readonly deadlineSeconds?: number;
  /** Spend at most this many GPU-hours. */
  readonly gpuHourBudget?: number;
  /** Spend at most this much money (with pricePerGpuHour). */
  readonly costBudget?: number;
  readonly pricePerGpuHour?: number;
}

export type CapacityAnswer =
  | ({ readonly ok: true; readonly searches: number } & CapacityPoint)
  | {
    readonly ok: false;
    readonly reason: 'does-not-fit' | 'deadline-unreachable' | 'budget-unreachable';
    readonly message: string;
    /** The closest feasible alternative: the fastest (deadline) or cheapest (budget) point found. */
    readonly closest?: CapacityPoint;
    readonly searches: number;
  };

/** The largest cluster the capacity planner considers, in nodes (a 65,536-GPU machine of 8-GPU nodes). */
export const MAX_NODES = 8192;
const SECONDS_PER_DAY = 86_400;
const SECONDS_PER_HOUR = 3600;

/**
 * The best plan on `nodes` nodes and the time to train `tokens` with it: the achieved throughput of
 * the searched configuration, not a fixed TFLOP/s.
 */
export function trainOnNodes(base: SearchBase, nodes: number, tokens: number, options: SearchOptions = {}, price?: number): CapacityPoint | undefined {
  const result = searchPlans({ ...base, nodes, tokens }, { ...options, top: 1 });
  const best = result.top[0];
  if (!best) return undefined;
  const gpus = nodes * base.gpusPerNode;
  const seconds = tokens / best.estimate.tokensPerSecond;
  const gpuHours = (seconds * gpus) / SECONDS_PER_HOUR;
  return { nodes, gpus, plan: best, seconds, days: seconds / SECONDS_PER_DAY, gpuHours, cost: price === undefined ? undefined : gpuHours * price };
}

function meets(point: CapacityPoint, goal: CapacityGoal): boolean {
  if (goal.deadlineSeconds !== undefined && point.seconds > goal.deadlineSeconds) return false;
  if (goal.gpuHourBudget !== undefined && point.gpuHours > goal.gpuHourBudget) return false;
  if (goal.costBudget !== undefined && (point.cost ?? Infinity) > goal.costBudget) return false;
  return true;
}

/**
 * "How many nodes": the fewest nodes whose best plan trains `tokens` within the goal. The smallest
 * cluster the model fits on is found by doubling, then the deadline by doubling and bisection (time
 * to train falls as nodes are added, but not strictly: batch divisibility makes it step, so the answer
 * is the fewest nodes the bisection finds, checked to meet the goal). A budget in GPU-hours or money
 * usually favours the smallest cluster (scaling efficiency falls with size), so it is checked from
 * the smallest cluster that fits upwards, by doubling.
 */
export function fewestNodes(base: SearchBase, tokens: number, goal: CapacityGoal, options: SearchOptions = {}): CapacityAnswer {
  let searches = 0;
  const at = (nodes: number) => {
    searches += 1;
    return trainOnNodes(base, nodes, tokens, options, goal.pricePerGpuHour);
  };
  // 1. The smallest power-of-two cluster the model fits on.
  let low = 0;
  let first: CapacityPoint | undefined;
  for (let n = 1; n <= MAX_NODES && !first; n *= 2) {
    first = at(n);
    if (!first) low = n;
  }
  if (!first) {
    return { ok: false, reason: 'does-not-fit', message: `no configuration fits on up to ${MAX_NODES} nodes of ${base.gpusPerNode} × ${base.gpu.name}`, searches };
  }
  // Bisect between the last size that did not fit and the first that did, for the smallest that fits.
  let hiFit = first;
  while (hiFit.nodes - low > 1) {
    const mid = Math.floor((low + hiFit.nodes) / 2);
    const point = at(mid);
    if (point) hiFit = point;
    else low = mid;
  }
  if (meets(hiFit, goal)) return { ok: true, searches, ...hiFit };

  const budgetOnly = goal.deadlineSeconds === undefined;
  // 2. Grow by doubling until the goal is met, keeping the best point seen as the closest alternative.
  let closest = hiFit;
  let below = hiFit.nodes;
  let found: CapacityPoint | undefined;
  for (let n = hiFit.nodes * 2; n <= MAX_NODES; n *= 2) {
    const point = at(n);
    if (!point) { below = n; continue; }
    if (meets(point, goal)) { found = point; break; }
    below = n;
    if (budgetOnly ? point.gpuHours < closest.gpuHours : point.seconds < closest.seconds) closest = point;
    // A budget that the cluster sizes keep missing by more each time will not be met by growing further.
    if (budgetOnly && n >= 8 * hiFit.nodes) break;
  }
  if (!found) {
    const what = budgetOnly ? 'budget-unreachable' : 'deadline-unreachable';
    const message = budgetOnly
      ? `no cluster size meets the budget: the cheapest run found takes ${closest.gpuHours.toFixed(0)} GPU-hours on ${closest.nodes} nodes`
      : `no cluster of up to ${MAX_NODES} nodes meets the deadline: the fastest found takes ${closest.days.toFixed(1)} days on ${closest.nodes} nodes`;
    return { ok: false, reason: what, message, closest, searches };
  }
  // 3. Bisect between the last size that missed and the first that met the goal.
  while (found.nodes - below > 1) {
    const mid = Math.floor((below + found.nodes) / 2);
    const point = at(mid);
    if (point && meets(point, goal)) found = point;
    else below = mid;
  }
  return { ok: true, searches, ...found };
}
