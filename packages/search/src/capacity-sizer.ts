import { toDays } from '@trainplan/units';
import type { SearchBase } from './candidate.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { nodesText } from './capacity-text.ts';
import type { CapacityGoal, CapacityPoint } from './capacity-types.ts';
import { whyNothingFits } from './nothing-fits.ts';
import { searchPlans, type SearchOptions } from './search.ts';

/**
 * A global batch per cluster size, in sequences, and optionally a second one each size is also planned at
 * (`alternativeFor`, undefined where there is none): the size's plan is the faster of the two. A default batch is
 * rounded to a multiple of a unit its GPUs' data-parallel sizes divide, the multiple nearest its aim, and on some
 * sizes the multiple on the other side of the aim runs much faster (QA: Llama 3 8B on 112 H100 nodes, 15T tokens: 560
 * sequences force PP 2 · CP 4 and take 30.8 days, 448 run DP 448 · CP 2 in 27.5), which time to train jagged in the
 * node count and a deadline's fewest nodes with it. A plain function has no alternative.
 */
export interface SizedBatchFor {
  (nodes: number): number;
  readonly alternativeFor?: (nodes: number) => number | undefined;
}

/** The batches `nodes` nodes are planned at: the size's own, and its alternative where `batchFor` has one (SizedBatchFor). */
export function batchesFor(batchFor: SizedBatchFor | undefined, nodes: number, base: Pick<SearchBase, 'globalBatchSize'>): number[] {
  const own = batchFor?.(nodes) ?? base.globalBatchSize;
  const other = batchFor?.alternativeFor?.(nodes);
  return other === undefined || other === own ? [own] : [own, other];
}

/** How the global batch is chosen per cluster size, where it is not the base's at every size. */
export interface BatchPolicy {
  /**
   * The global batch on `nodes` nodes, in sequences: a default batch shaped to each size's GPUs (the CLI's
   * and the chat bot's when a question states none: about 4M tokens, rounded so that data-parallel sizes of
   * those GPUs divide it), so that every size a capacity question searches is planned at the batch a
   * question about that size alone would take, or at its alternative where that is faster (SizedBatchFor).
   * Absent: the base's globalBatchSize at every size.
   */
  readonly globalBatchFor?: SizedBatchFor;
}

/** How a size's time to train is counted against a deadline or a budget: on the wall clock, at an uptime. */
export interface WallClock {
  /**
   * The share of wall-clock time spent training, in (0, 1]: restarts after failures, checkpoint stalls and other downtime
   * are the rest. A point's seconds are the planner's over it, and its GPU-hours the GPUs held for those seconds (GPUs ×
   * wall-clock hours), so that a deadline and a budget size the cluster on the wall clock. Meta reports "higher than 90%
   * effective training time" for Llama 3 405B over a 54-day snapshot with 466 job interruptions (Dubey et al. 2024,
   * §3.3.4). Absent: 1, no downtime.
   */
  readonly uptime?: number;
}

export interface CapacityOptions extends SearchOptions, BatchPolicy, WallClock {
  /** Called as each cluster size's search starts, with its size in nodes and the searches run before it. */
  readonly onClusterSize?: (nodes: number, searchesBefore: number) => void;
}

/**
 * Why no plan runs on a cluster size: 'out-of-memory' (some split passes the divisibility rules but
 * none fits in the GPU's memory), 'indivisible' (no TP × PP × DP split of the GPUs passes Megatron's
 * divisibility rules), or 'candidate-budget' (the search's budget ran out first).
 */
export type NoPlanReason = 'out-of-memory' | 'indivisible' | 'candidate-budget';

/** One cluster size searched: the point when a plan runs, else why none does. */
export type SizeSearch = { readonly point: CapacityPoint; readonly noPlan?: undefined; readonly emptySpace?: undefined; readonly miss?: undefined }
  | {
    readonly point?: undefined; readonly noPlan: NoPlanReason;
    /** Where the constraints contradict each other, so that no size can run (SearchResult.emptySpace): why, in words. */
    readonly emptySpace?: string;
    /**
     * Where some candidate was estimated out of memory: what the one closest to fitting needs per GPU, and the search's
     * one line of why nothing runs (whyNothingFits: "out of memory: the plan that comes closest (TP 8 · …) needs 5.34 TiB
     * per GPU, the GPU has 79.6 GiB"), so that a capacity answer no size fits says what `search` says of the size.
     */
    readonly miss?: { readonly neededBytes: number; readonly why: string };
  };

/**
 * The best plan on `nodes` nodes and the time to train `tokens` with it: the achieved step time of the
 * searched configuration, not a fixed TFLOP/s, times the whole steps the tokens take (the planner's
 * timeToTrain), on the wall clock at `options.uptime` (WallClock). With a second batch for the size
 * (SizedBatchFor.alternativeFor), the faster of the searches at each batch.
 */
export function searchOnNodes(base: SearchBase, nodes: number, tokens: number, options: SearchOptions & BatchPolicy & WallClock = {}, price?: number): SizeSearch {
  const { globalBatchFor, ...search } = options;
  const [own, ...others] = batchesFor(globalBatchFor, nodes, base).map((globalBatchSize) => searchAtBatch(base, nodes, tokens, globalBatchSize, search, price));
  // The faster plan of the size's batches (SizedBatchFor); the size's own on a tie, and its reason where none runs.
  return others.reduce((a, b) => (b.point !== undefined && (a.point === undefined || b.point.seconds < a.point.seconds) ? b : a), own!);
}

/** searchOnNodes at one global batch. */
function searchAtBatch(base: SearchBase, nodes: number, tokens: number, globalBatchSize: number, options: SearchOptions & WallClock, price?: number): SizeSearch {
  const { uptime = 1, ...search } = options;
  const result = searchPlans({ ...base, nodes, tokens, globalBatchSize }, { ...search, top: 1 });
  const best = result.top[0];
  if (!best) {
    // The budget first, as whyNothingFits says it: a search cut short may have a plan that fits among those not estimated,
    // though a candidate it did estimate was out of memory.
    const noPlan = result.budgetExhausted ? 'candidate-budget' : result.closestInfeasible ? 'out-of-memory' : 'indivisible';
    const closest = result.closestInfeasible;
    return {
      noPlan, ...(result.emptySpace !== undefined && { emptySpace: result.emptySpace }),
      ...(closest && { miss: { neededBytes: closest.neededBytes, why: whyNothingFits(result) } }),
    };
  }
  const gpus = nodes * base.gpusPerNode;
  const time = best.estimate.timeToTrain;
  if (!time) throw new Error('internal: a search given tokens estimates the time to train them');
  // On the wall clock (WallClock): the time, and the GPU-hours the GPUs are held for it, both over the uptime.
  const seconds = time.seconds / uptime;
  const gpuHours = time.gpuHours / uptime;
  return { point: { nodes, gpus, globalBatchSize, plan: best, seconds, days: toDays(seconds), gpuHours, cost: price === undefined ? undefined : gpuHours * price } };
}

/** searchOnNodes's point, or undefined when no plan runs on `nodes` nodes. */
export function trainOnNodes(base: SearchBase, nodes: number, tokens: number, options: SearchOptions & BatchPolicy & WallClock = {}, price?: number): CapacityPoint | undefined {
  return searchOnNodes(base, nodes, tokens, options, price).point;
}

export function meetsGoal(point: Pick<CapacityPoint, 'seconds' | 'gpuHours' | 'cost'>, goal: CapacityGoal): boolean {
  if (goal.deadlineSeconds !== undefined && point.seconds > goal.deadlineSeconds) return false;
  if (goal.gpuHourBudget !== undefined && point.gpuHours > goal.gpuHourBudget) return false;
  if (goal.costBudget !== undefined && (point.cost ?? Infinity) > goal.costBudget) return false;
  return true;
}

/**
 * A capacity question no cluster size answers: "no configuration fits on up to 8,192 nodes of 8 × NVIDIA A100 …".
 * Where the constraints contradict each other, they rule out every size alike: that, not the sizes, is why nothing
 * runs, and the answer carries it apart too (`contradiction`), so a caller tells a usage error without reading words.
 */
export interface NoFit {
  readonly ok: false;
  readonly reason: 'does-not-fit';
  readonly message: string;
  readonly searches: number;
  /** Why the constraints contradict each other (SearchResult.emptySpace), in words; absent when they do not. */
  readonly contradiction?: string;
}

/**
 * Where no size fits, what the plan closest to fitting needs, on the size it needs least: "no configuration fits on up to
 * 8,192 nodes of 8 × NVIDIA H100 SXM5 80GB; on 8,192 nodes: out of memory: the plan that comes closest (TP 8 · PP 64 · …)
 * needs 5.34 TiB per GPU, the GPU has 79.6 GiB" (QA: the answer said only its first clause, while `search` on the same
 * model named the 5.34 TiB; whyNothingFits's words, so both say it alike).
 */
export const noFitAnswer = (base: Pick<SearchBase, 'gpusPerNode' | 'gpu'>, s: Pick<Sizer, 'emptySpace' | 'searches' | 'closestMiss'>): NoFit => {
  const contradiction = s.emptySpace();
  if (contradiction !== undefined) {
    return { ok: false, reason: 'does-not-fit', message: `no configuration runs on any cluster size: ${contradiction}`, searches: s.searches(), contradiction };
  }
  const miss = s.closestMiss();
  const why = miss === undefined ? '' : `; on ${nodesText(miss.nodes)}: ${miss.why}`;
  return { ok: false, reason: 'does-not-fit', message: `no configuration fits on up to ${nodesText(MAX_NODES)} of ${base.gpusPerNode} × ${base.gpu.name}${why}`, searches: s.searches() };
};

/** Searches cluster sizes, each at most once, counting the searches and reporting each size as it starts. */
export interface Sizer {
  readonly at: (nodes: number) => CapacityPoint | undefined;
  /** Why no plan runs on `nodes` nodes; undefined when one does or the size was not searched. */
  readonly noPlan: (nodes: number) => NoPlanReason | undefined;
  /** Every size searched on which a plan runs, in the order searched. */
  readonly points: () => CapacityPoint[];
  readonly searches: () => number;
  /** Why the constraints leave no candidate on any size searched (SizeSearch's emptySpace), if they do. */
  readonly emptySpace: () => string | undefined;
  /** Of the sizes searched that run no plan, the one whose closest plan needs the least memory per GPU, and why (SizeSearch's miss). */
  readonly closestMiss: () => { readonly nodes: number; readonly why: string } | undefined;
}

export function sizer(base: SearchBase, tokens: number, options: CapacityOptions, price?: number): Sizer {
  const { onClusterSize, ...search } = options;
  const seen = new Map<number, SizeSearch>();
  let searches = 0;
  const run = (nodes: number): SizeSearch => {
    const known = seen.get(nodes);
    if (known) return known;
    onClusterSize?.(nodes, searches);
    searches += 1;
    const size = searchOnNodes(base, nodes, tokens, search, price);
    seen.set(nodes, size);
    return size;
  };
  return {
    at: (nodes) => run(nodes).point,
    noPlan: (nodes) => seen.get(nodes)?.noPlan,
    points: () => [...seen.values()].flatMap((size) => (size.point ? [size.point] : [])),
    searches: () => searches,
    emptySpace: () => [...seen.values()].find((size) => size.emptySpace !== undefined)?.emptySpace,
    closestMiss: () => {
      let best: { nodes: number; neededBytes: number; why: string } | undefined;
      for (const [nodes, size] of seen) {
        const miss = size.miss;
        if (miss && (best === undefined || miss.neededBytes < best.neededBytes)) best = { nodes, ...miss };
      }
      return best && { nodes: best.nodes, why: best.why };
    },
  };
}

/**
 * The smallest cluster the model fits on: the smallest power of two by doubling (`first`), then
 * bisection between the last power of two that did not fit and it (`smallest`). Undefined when nothing
 * fits on MAX_NODES.
 */
export function smallestFit(s: Sizer): { first: CapacityPoint; smallest: CapacityPoint } | undefined {
  let low = 0;
  let first: CapacityPoint | undefined;
  for (let n = 1; n <= MAX_NODES && !first; n *= 2) {
    first = s.at(n);
    if (!first) low = n;
  }
  if (!first) return undefined;
  let smallest = first;
  while (smallest.nodes - low > 1) {
    const mid = Math.floor((low + smallest.nodes) / 2);
    const point = s.at(mid);
    if (point) smallest = point;
    else low = mid;
  }
  return { first, smallest };
}
