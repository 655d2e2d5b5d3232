import type { SearchBase } from './candidate.ts';
import { fewestNodes, fewestOn, type CapacityAnswer } from './capacity.ts';
import { FRONTIER_OCTAVE_STEPS, searchCurve } from './capacity-frontier.ts';
import { closeUnderFastest, closingText } from './capacity-closing.ts';
import { scanReplicaFamilies } from './capacity-replicas.ts';
import { MAX_NODES } from './capacity-limits.ts';
import { meetsGoal, noFitAnswer, sizer, smallestFit, type CapacityOptions, type Sizer } from './capacity-sizer.ts';
import { bothMissedText, budgetsText, costText, daysText, maxNodesText, nodesText, overText, wholeText } from './capacity-text.ts';
import type { CapacityGoal, CapacityPoint, DeadlineGoal } from './capacity-types.ts';

/**
 * Sizes searched one by one below the budget's boundary. Near the boundary a count with more factors
 * of two can be faster than the boundary itself (Llama 3 70B on H100: 384 nodes take 87 days and
 * 6.40M GPU-hours, 512 nodes 57 days and 5.64M), so a few sizes below it are tried too.
 */
export const BUDGET_SCAN_WINDOW = 16;

/** The budget part of a goal: a deadline, if any, is dropped (fastestWithinBudget answers without one). */
export type BudgetGoal = Omit<CapacityGoal, 'deadlineSeconds'>;

/**
 * The fastest plan a GPU-hour or money budget affords, for a user with a budget and no deadline:
 * the cluster size (and its best plan) with the shortest time to train among those whose GPU-hours
 * (or cost) stay within the budget, with the smallest cluster that fits stated beside it. GPU-hours are
 * not monotone in the node count (Llama 3 70B on H100, 512 sequences, 2T tokens: 4 nodes take 587k,
 * 7 nodes 541k, 16 nodes 592k), so the sizes of the time–cost curve are searched first (searchCurve,
 * costTimeFrontier's: powers of two, the steps between them, every size beside the cheapest), and the
 * budget is unreachable exactly when the curve's cheapest size exceeds it. From the fastest of those within
 * the budget, the sizes are grown over powers of two until one exceeds the budget, the last power within it
 * and that one are bisected, and BUDGET_SCAN_WINDOW sizes below where the bisection ended are searched. With a
 * batch per size GPU-hours are nearly flat in the node count and jump with its factors, so such a bisection
 * can end on the wrong side of a jump: the deadlines below the fastest found are then probed
 * (deadlineProbes), each searched as a deadline with the budget is but without its window below MAX_NODES and its
 * families (fewestOn's `families: false`, on the same sizes); last, the deadline search itself, whole, under the
 * fastest found (closeUnderFastest), so that no deadline --days meets within the budget is shorter than the answer's
 * time by more than CLOSING_DEADLINE_SHARE (QA: 8,192 nodes answered where --days found 7,884 and 8,100 faster and
 * cheaper). The answer is the fastest of every size searched that stays within the budget.
 */
export function fastestWithinBudget(base: SearchBase, tokens: number, goal: BudgetGoal, options: CapacityOptions = {}): CapacityAnswer {
  const budget: CapacityGoal = { ...goal, deadlineSeconds: undefined };
  const s = sizer(base, tokens, options, goal.pricePerGpuHour);
  const fit = smallestFit(s);
  if (!fit) {
    return noFitAnswer(base, s);
  }
  const smallest = fit.smallest;
  const cheapest = searchCurve(s, fit);
  if (!meetsGoal(cheapest, budget)) {
    // Which budget fails, where both were given (QA: 5M GPU-hours and 1M at 2 an hour: the run's 4.05M GPU-hours are
    // within the first, its cost of 8.1M is what exceeds the second).
    const { exceeded, within } = budgetsText(cheapest, budget);
    const overs = [
      ...(goal.gpuHourBudget !== undefined && cheapest.gpuHours > goal.gpuHourBudget ? [`its GPU-hours are ${overText(cheapest.gpuHours, goal.gpuHourBudget)}`] : []),
      ...(goal.costBudget !== undefined && (cheapest.cost ?? Infinity) > goal.costBudget && cheapest.cost !== undefined ? [`its cost is ${overText(cheapest.cost, goal.costBudget)}`] : []),
    ];
    const message = `no cluster size stays within ${exceeded}: the cheapest run found takes ${wholeText(cheapest.gpuHours)} GPU-hours${cheapest.cost === undefined ? '' : ` (${costText(cheapest.cost)})`} on ${nodesText(cheapest.nodes)}`
      + `${overs.length === 0 ? '' : `, ${overs.join(' and ')}`}${within === undefined ? '' : `; it stays within ${within}`}`;
    return { ok: false, reason: 'budget-unreachable', message, closest: cheapest, searches: s.searches() };
  }
  // Held in an object: `consider` updates it from inside a closure. The cheapest is within the budget: a start.
  const seen: { fastest: CapacityPoint } = { fastest: cheapest };
  const consider = (p: CapacityPoint | undefined): boolean => {
    if (!p || !meetsGoal(p, budget)) return false;
    if (p.seconds < seen.fastest.seconds) seen.fastest = p;
    return true;
  };
  for (const p of s.points()) consider(p);
  // Powers of two upwards from the fastest the curve found, while the budget holds.
  let lastHit = seen.fastest.nodes;
  let firstMiss: number | undefined;
  for (let n = 2 * powerBelow(lastHit); n <= MAX_NODES; n *= 2) {
    if (consider(s.at(n))) lastHit = n;
    else { firstMiss = n; break; }
  }
  let boundary = lastHit;
  if (firstMiss !== undefined) {
    let miss = firstMiss;
    while (miss - boundary > 1) {
      const mid = Math.floor((boundary + miss) / 2);
      if (consider(s.at(mid))) boundary = mid;
      else miss = mid;
    }
    for (let n = boundary - 1; n >= Math.max(lastHit + 1, boundary - BUDGET_SCAN_WINDOW); n--) consider(s.at(n));
    betweenPowers(s, consider, powerBelow(lastHit), firstMiss);
  } else {
    // Every power within the budget: past the best scaling, a size between two powers can be faster than the larger
    // (GPT-3 175B on DGX A100, 1,536 sequences: 6,144 nodes take 23.7 hours, 8,192 nodes 1.2 days).
    const power = powerBelow(seen.fastest.nodes);
    betweenPowers(s, consider, Math.max(1, power / 2), 2 * power);
  }
  const centre = seen.fastest.nodes;
  for (let n = Math.max(1, centre - BUDGET_SCAN_WINDOW); n <= Math.min(MAX_NODES, centre + BUDGET_SCAN_WINDOW); n++) consider(s.at(n));
  // GPU-hours step up and down with a size's factors and its own batch, so sizes past every one searched so far can be
  // faster within the budget (Llama 3 70B on H100, 2T tokens at each size's batch, 600k GPU-hours: 90 nodes take 33.6
  // days and 580,513 GPU-hours, 108 nodes 28.4 days and 588,337): the deadlines below the fastest found, each asked
  // as --days asks it with the budget (fewestOn), find them; every size those searches run is weighed.
  // A size's best shape runs on every multiple of its replica's nodes, and with a batch per size those multiples' GPU-hours
  // barely grow: the multiples of the fastest sizes' shapes past the bisection's boundary that stay within the budget are
  // found by scanning them.
  const shapes = new Set<string>();
  const replicas = () => scanReplicaFamilies(s, base, tokens, budget, options, goal.pricePerGpuHour, consider, shapes);
  replicas();
  const probes = deadlineProbes(seen.fastest.seconds, (deadlineSeconds) => {
    const met = fewestOn(s, fit, base, tokens, { ...budget, deadlineSeconds }, options, { families: false }).ok;
    for (const p of s.points()) consider(p);
    return { met, fastestSeconds: seen.fastest.seconds };
  });
  replicas();
  // The deadline search as --days runs it, under the fastest found: the probes above leave out its window below MAX_NODES
  // and its families, so a size --days finds within the budget could beat the answer (closeUnderFastest).
  const closing = closeUnderFastest(s, fit, base, tokens, budget, options, () => {
    for (const p of s.points()) consider(p);
    return seen.fastest;
  });
  for (const p of s.points()) consider(p);
  const familyScans = shapes.size;
  const best = seen.fastest;
  const curve = `the time–cost curve's sizes (the cheapest, ${nodesText(cheapest.nodes)}, takes ${wholeText(cheapest.gpuHours)} GPU-hours), `;
  const how = firstMiss === undefined
    ? `${curve}every power of two past them up to ${nodesText(lastHit)} (all within the budget), the sizes between the powers beside the fastest, `
      + `up to ${BUDGET_SCAN_WINDOW} beside the fastest found`
    : `${curve}powers of two past them, a bisection between ${wholeText(lastHit)} nodes (within the budget) and ${wholeText(firstMiss)} (over it) `
      + `that ended at ${nodesText(boundary)}, up to ${BUDGET_SCAN_WINDOW} sizes below that, the sizes between powers of two past it while some `
      + `stay within the budget, up to ${BUDGET_SCAN_WINDOW} beside the fastest`;
  const families = `, the sizes that add data-parallel replicas to the fastest sizes' model-parallel shapes (${familyScans} shape${familyScans === 1 ? '' : 's'})`;
  const deadlines = `${families}, the fewest nodes that meet each of ${probes} deadlines below the fastest found within the budget (the powers `
    + `of two, a bisection and the sizes below it; bisected to within ${BUDGET_DEADLINE_TOLERANCE * 100}% of its time), and ${closingText(closing, true)}`;
  const edge = maxNodesText(best.nodes);
  const note = `the fastest of ${s.searches()} cluster sizes searched (${how}${deadlines}); `
    + `the smallest cluster that fits, ${nodesText(smallest.nodes)}, takes ${daysText(smallest.days)}${edge === undefined ? '' : `; ${edge}`}`;
  return { ok: true, ...best, smallest, note, searches: s.searches() };
}

/** The largest power of two at most `n` (n ≥ 1). */
const powerBelow = (n: number): number => 2 ** Math.floor(Math.log2(n));

/**
 * GPU-hours are not monotone in the node count: a size whose GPUs split the batch and the heads well can stay within
 * the budget past the first power of two that does not (Llama 3 70B on H100, 512 sequences, 2T tokens, 600k
 * GPU-hours: 32 nodes exceed it, 36 take 83 days and 42 take 74 within it). So the sizes between powers of two
 * (FRONTIER_OCTAVE_STEPS a doubling, as the time–cost curve tries them) are searched octave by octave from the power
 * `from`, up to the power `to` and on while one of an octave's sizes stays within the budget (the caller then scans
 * beside the fastest).
 */
function betweenPowers(s: Sizer, consider: (p: CapacityPoint | undefined) => boolean, from: number, to: number): void {
  for (let power = Math.max(1, from); power <= MAX_NODES; power *= 2) {
    const step = Math.max(1, power / FRONTIER_OCTAVE_STEPS);
    let any = false;
    for (let n = power + step; n <= 2 * power && n <= MAX_NODES; n += step) if (consider(s.at(n))) any = true;
    if (!any && 2 * power >= to) break;
  }
}

/** How close the deadline bisection brings a deadline missed and the fastest time found within the budget: 0.1%. */
export const BUDGET_DEADLINE_TOLERANCE = 1e-3;
/**
 * While deadlines are met, each next one is this share shorter than the fastest found. Small, since a deadline far
 * below the answer is searched at large sizes (128 each, below its fewest nodes) and mostly missed: Llama 3 70B on H100
 * at 15T tokens and 5.7M GPU-hours searches 718 sizes so, 1,009 when the share doubled with each deadline met.
 */
const DEADLINE_STEP = 1 / 8;
/** At most this many deadlines are probed: the bisection needs a dozen, each faster size met adds one. */
const MAX_DEADLINE_PROBES = 40;

/**
 * Bisection over the deadline below `fastestSeconds`: `probe(deadline)` searches the fewest nodes meeting the deadline
 * within the budget (as --days with the budget does) and says whether it found one, and the fastest time within the
 * budget now known (any size its search ran counts). Deadlines shorten by DEADLINE_STEP while they are met, then a
 * bisection (geometric) narrows the last deadline missed and the fastest time found to BUDGET_DEADLINE_TOLERANCE.
 * Returns how many deadlines were probed.
 */
function deadlineProbes(fastestSeconds: number, probe: (deadlineSeconds: number) => { met: boolean; fastestSeconds: number }): number {
  let hi = fastestSeconds;
  let missed: number | undefined;
  let probes = 0;
  while (probes < MAX_DEADLINE_PROBES && (missed === undefined || hi / missed > 1 + BUDGET_DEADLINE_TOLERANCE)) {
    const deadline = missed === undefined ? hi * (1 - DEADLINE_STEP) : Math.sqrt(missed * hi);
    probes += 1;
    const { met, fastestSeconds: now } = probe(deadline);
    hi = now;
    if (!met) missed = deadline;
    // A size searched for a missed deadline can be faster than it: bisect again below that size.
    if (missed !== undefined && hi <= missed) missed = undefined;
  }
  return probes;
}

/**
 * A deadline and a budget: the fewest nodes that meet both (fewestNodes). With a batch per size, time is not monotone
 * in the node count, and the deadline's search can miss every size that meets both where the budget's own search
 * (fastestWithinBudget, with its deadline probes) finds one (QA: GPT-3 175B on H100, 300B tokens, 320k GPU-hours and
 * 1.05 days: "no size meets both", while 1,554 nodes take 1.04 days within the budget); then that one is the answer,
 * said as the fastest within the budget rather than the fewest nodes.
 */
export function deadlineWithinBudget(
  base: SearchBase, tokens: number, goal: DeadlineGoal, options: CapacityOptions,
): CapacityAnswer & { viaBudget?: true } {
  const fewest = fewestNodes(base, tokens, goal, options);
  if (fewest.ok || fewest.reason !== 'budget-unreachable') return fewest;
  const { deadlineSeconds: _deadline, ...budget } = goal;
  const fastest = fastestWithinBudget(base, tokens, budget, options);
  const searches = fewest.searches + fastest.searches;
  // The fastest within the budget the refusal names is the budget's own answer (QA: GPT-3 175B on H100, 300B tokens, 500k
  // GPU-hours and 0.68 days: "the fastest, 3,072 nodes, takes 18.4 hours", the deadline's sizes', where --gpu-hours 500k
  // alone answers 3,332 nodes in 16.7 hours).
  if (!fastest.ok) {
    const noneWithin = fastest.reason === 'budget-unreachable' && fewest.closest !== undefined;
    return noneWithin ? { ...fewest, message: bothMissedText(fewest.closest!, undefined, goal), searches } : fewest;
  }
  if (!meetsGoal(fastest, goal)) {
    return fewest.closest === undefined ? fewest : { ...fewest, message: bothMissedText(fewest.closest, fastest, goal), searches };
  }
  const note = `no size the deadline's search tried met both; the fastest within the budget does: ${fastest.note ?? ''}`;
  return { ...fastest, note, searches, viaBudget: true };
}
