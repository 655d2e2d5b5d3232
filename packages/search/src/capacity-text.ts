import { days, formatAmount, formatDuration, formatNumber, toDays } from '@trainplan/units';
import { MAX_NODES, NEAR_MAX_NODES_SHARE, SCAN_WINDOW } from './capacity-limits.ts';
import type { CapacityCheck, CapacityGoal, CapacityPoint, DeadlineGoal } from './capacity-types.ts';

/** "1 node", "3 nodes", "8,192 nodes": grouped by thousands, as every other count in messages. */
export const nodesText = (n: number): string => `${n.toLocaleString('en-US')} node${n === 1 ? '' : 's'}`;

/** GPU-hours or a cost in messages: grouped by thousands ("473,824"), to three figures below 100 ("0.250"; units' formatAmount). */
export const wholeText = (x: number): string => formatAmount(x);

/** A cost in messages, in the price's own currency (a request names none): "a cost of 8,575,082 at the price given". */
export const costText = (cost: number): string => `a cost of ${wholeText(cost)} at the price given`;

/** A time to train in messages: units' formatDuration of `days` ('34.2 days', '3.2 hours', never '0.0 days'). */
export const daysText = (d: number): string => formatDuration(days(d));

/**
 * Where a budget's answer or the time–cost curve's fastest is at the search's edge (NEAR_MAX_NODES_SHARE of MAX_NODES or
 * more), that no larger size was searched (QA: Llama 3 70B on H100, 2T tokens, 770k GPU-hours: the fastest within the
 * budget found, 8,190 nodes, takes 11.7 hours; 10,240 nodes take 9.4 hours for 768,654 GPU-hours, within it). Undefined
 * below the edge. How to plan a larger size names the request's field, `nodes`, as the protocol's messages do ("give
 * nodes (days on that many nodes) or a goal"): the CLI says it as its flag (--nodes), the API as its field; it said
 * "ask --nodes N", a CLI flag, on every surface (QA).
 */
export const maxNodesText = (nodes: number): string | undefined => (nodes >= NEAR_MAX_NODES_SHARE * MAX_NODES
  ? `the search's largest size is ${nodesText(MAX_NODES)}; larger clusters may be faster: give nodes (the days on that many nodes) to plan one` : undefined);

/**
 * Why `noPlan` sizes run nothing, in words: "out of memory", "no split divides evenly", "the search's candidate budget
 * ran out", or those that apply with their counts. A size whose search ran out of budget is not said to have no split
 * that divides (QA: such sizes were counted under "no TP × PP × DP split divides evenly"): a plan may run on it among
 * the candidates not estimated.
 */
export function noPlanText(noPlan: number, outOfMemory: number, candidateBudget = 0): string {
  const indivisible = noPlan - outOfMemory - candidateBudget;
  const reasons = [
    { count: outOfMemory, alone: 'out of memory', counted: 'out of memory' },
    { count: indivisible, alone: 'no TP × PP × DP split divides evenly', counted: 'with no TP × PP × DP split that divides evenly' },
    { count: candidateBudget, alone: 'the candidate budget ran out before a plan that fits was estimated', counted: 'where the candidate budget ran out first' },
  ].filter((r) => r.count > 0);
  if (reasons.length === 1) return reasons[0]!.alone;
  return reasons.map((r) => `${wholeText(r.count)} ${r.counted}`).join(', ');
}

/**
 * What the sizes from `checked.fromNodes` to one below `nodes` did, in words: every one missed the
 * goal, ran no plan, or some of each (a size that runs no plan did not "miss" the deadline).
 */
export function checkedText(
  checked: Pick<CapacityCheck, 'fromNodes' | 'noPlan' | 'outOfMemory' | 'candidateBudget'>, nodes: number, goal = 'the deadline',
): string {
  const span = `from ${wholeText(checked.fromNodes)} to ${nodesText(nodes - 1)}`;
  const total = nodes - checked.fromNodes;
  const why = noPlanText(checked.noPlan, checked.outOfMemory, checked.candidateBudget);
  // One size below: said as that size ("1 node misses the deadline"), not as a span "from 1 to 1 node".
  if (total === 1) return checked.noPlan === 0 ? `${nodesText(checked.fromNodes)} misses ${goal}` : `${nodesText(checked.fromNodes)} runs no plan (${why})`;
  if (checked.noPlan === 0) return `every size ${span} misses ${goal}`;
  if (checked.noPlan >= total) return `no size ${span} runs a plan (${why})`;
  const missing = total - checked.noPlan;
  return `of the sizes ${span}, ${wholeText(missing)} ${missing === 1 ? 'misses' : 'miss'} ${goal} and ${wholeText(checked.noPlan)} ${checked.noPlan === 1 ? 'runs' : 'run'} no plan (${why})`;
}

/** How thoroughly the sizes below `fewest` were searched, in words (a deadline's answer's `note`). */
export function checkNote(fewest: CapacityPoint, checked: CapacityCheck): string {
  const below = fewest.nodes > checked.fromNodes ? `${checkedText(checked, fewest.nodes, 'the goal')} (every one searched); ` : '';
  if (checked.complete) {
    return checked.fromNodes > 1
      ? `${below}fewer than ${nodesText(checked.fromNodes)} cannot meet the deadline even at 100% MFU`
      : `${below}every smaller size was searched`;
  }
  // Below the scan, the family rounds (capacity-deadline-families.ts): the fastest sizes' model-parallel shapes with more
  // or fewer data-parallel replicas.
  return `${below}sizes below ${nodesText(checked.fromNodes)} were not all searched (the ${SCAN_WINDOW} below the bisection's answer were; `
    + 'below those, the fastest shapes\' replica counts)';
}

/** "24,907 over the budget of 480,000 (1.05 times it)": by how much `value` exceeds `budget`. */
export function overText(value: number, budget: number): string {
  const ratio = value / budget;
  const times = !Number.isFinite(ratio) ? '' : ` (${ratio < 10 ? ratio.toFixed(2) : Math.round(ratio).toLocaleString('en-US')} times it)`;
  return `${wholeText(value - budget)} over the budget of ${wholeText(budget)}${times}`;
}

/** What training on `p` spends against the goal's budgets: "504,907 GPU-hours, 24,907 over the budget of 480,000 (1.05 times it)". */
export function spendText(p: CapacityPoint, goal: CapacityGoal): string {
  const parts = [`${wholeText(p.gpuHours)} GPU-hours${goal.gpuHourBudget !== undefined && p.gpuHours > goal.gpuHourBudget ? `, ${overText(p.gpuHours, goal.gpuHourBudget)}` : ''}`];
  if (goal.costBudget !== undefined && p.cost !== undefined) {
    parts.push(`${costText(p.cost)}${p.cost > goal.costBudget ? `, ${overText(p.cost, goal.costBudget)}` : ''}`);
  }
  return parts.join('; ');
}

/**
 * The budgets of `goal` that `p` exceeds, named with their amounts ("the money budget of 1,000,000"), and
 * those it stays within: with both a GPU-hour and a money budget, which one fails is said (QA: "--gpu-hours 5M --budget
 * 1M --price 2": a run of 4.05M GPU-hours is within the first and costs 8.1M against the second).
 */
export function budgetsText(p: Pick<CapacityPoint, 'gpuHours' | 'cost'>, goal: CapacityGoal): { exceeded: string; within?: string } {
  const hours = goal.gpuHourBudget === undefined ? undefined : { over: p.gpuHours > goal.gpuHourBudget, name: `the GPU-hour budget of ${wholeText(goal.gpuHourBudget)}` };
  const money = goal.costBudget === undefined ? undefined : { over: (p.cost ?? Infinity) > goal.costBudget, name: `the money budget of ${wholeText(goal.costBudget)}` };
  const budgets = [hours, money].filter((b) => b !== undefined);
  const exceeded = budgets.filter((b) => b.over).map((b) => b.name);
  const within = budgets.filter((b) => !b.over).map((b) => b.name);
  return { exceeded: exceeded.length === 0 ? 'the budget' : exceeded.join(' and '), ...(within.length > 0 && { within: within.join(' and ') }) };
}

/**
 * Why a deadline and a budget are not met together: the fastest size within the budget (`fastestWithin`; undefined when
 * none is) misses the deadline, and the cheapest size that meets the deadline (`cheapestInTime`) exceeds the budget, by
 * how much. The budget's search (fastestWithinBudget) names its own answer here (deadlineWithinBudget), so that the
 * fastest said within the budget is the one --gpu-hours alone answers.
 */
export function bothMissedText(cheapestInTime: CapacityPoint, fastestWithin: CapacityPoint | undefined, goal: DeadlineGoal): string {
  const over = `the cheapest that meets the deadline, ${nodesText(cheapestInTime.nodes)} (${daysText(cheapestInTime.days)}), takes ${spendText(cheapestInTime, goal)}`;
  if (fastestWithin === undefined) {
    return `the deadline can be met but not within the budget: no cluster size searched stays within the budget; ${over}`;
  }
  const edge = maxNodesText(fastestWithin.nodes);
  return `no cluster size searched meets both the deadline and the budget: those within the budget miss the deadline `
    + `(the fastest, ${nodesText(fastestWithin.nodes)}, takes ${apartText(fastestWithin.days, toDays(goal.deadlineSeconds))}), and ${over}`
    + `${edge === undefined ? '' : `; ${edge}`}`;
}

/**
 * "1.1 days against a deadline of 1.0 days": a time missing a deadline, to as many figures as tell them apart (QA:
 * "1.1 days against a deadline of 1.1 days" hid a 1.04 against 1.05).
 */
function apartText(takesDays: number, deadlineDays: number): string {
  const [takes, deadline] = [daysText(takesDays), daysText(deadlineDays)];
  if (takes !== deadline) return `${takes} against a deadline of ${deadline}`;
  return `${formatNumber(takesDays, 5)} days against a deadline of ${formatNumber(deadlineDays, 5)} days`;
}
