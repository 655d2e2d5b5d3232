import type { NodesOkJson, NodesResponseJson, NodesSizeJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { sizeText } from './frontier-notes.ts';

/**
 * "Cheapest … in D days": the size that trains within the deadline (and within a budget, where one is stated) for the
 * fewest GPU-hours, not merely the fewest nodes that meet it. GPU-hours are the run's FLOPs over the rate its plan
 * achieves, so they follow 1/MFU, and MFU is not monotone in the node count: each size splits its GPUs and its batch
 * its own way (TP × PP × CP × DP must divide both). QA: Llama 3 8B on H100, 2T tokens, 7 days: 53 nodes, the fewest
 * that meet it, run CP 4 at 46.0% MFU for 70.7k GPU-hours in 6.9 days; 58 nodes run CP 2 at 47.7% for 68.2k in 6.1
 * days, cheaper and faster (`trainplan nodes … --nodes 58`, and ★ on `--frontier`).
 *
 * The sizes weighed: the time–cost curve's (runNodes with frontier, as `trainplan nodes --frontier` draws it: every
 * size it searched), and the fewest nodes that meet the goal, which the curve may not have searched. Any size that
 * meets the deadline more cheaply than all of these is one neither search tried.
 */

/** What a size must meet: the deadline, and the budgets the question states. */
export interface DeadlineGoal {
  deadlineSeconds: number;
  gpuHours?: number;
  costBudget?: number;
}

/** Whether a size meets the goal, as @trainplan/search meetsGoal holds a point to it. */
const meets = (p: NodesSizeJson, goal: DeadlineGoal): boolean => p.seconds <= goal.deadlineSeconds
  && (goal.gpuHours === undefined || p.gpuHours <= goal.gpuHours)
  && (goal.costBudget === undefined || (p.cost ?? Infinity) <= goal.costBudget);

/** The fewer GPU-hours (and so the lower cost, at one price per GPU-hour); the fewer nodes on a tie. */
const cheaper = <P extends NodesSizeJson>(a: P, b: P): P => (b.gpuHours < a.gpuHours || (b.gpuHours === a.gpuHours && b.nodes < a.nodes) ? b : a);

/** The curve's sizes that meet the goal; none where the curve ran nothing. */
export const curveWithin = (curve: NodesResponseJson, goal: DeadlineGoal): NodesSizeJson[] =>
  (curve.ok ? curve.frontier ?? [] : []).filter((p) => meets(p, goal));

/**
 * The cheapest size that meets the goal: `fewest` (the fewest nodes that meet it, a deadline search's answer) or a size
 * of `curve` that meets it for fewer GPU-hours.
 */
export function cheapestWithin(fewest: NodesOkJson, curve: NodesResponseJson, goal: DeadlineGoal): NodesSizeJson {
  return curveWithin(curve, goal).reduce<NodesSizeJson>(cheaper, fewest);
}

/**
 * The notes of a cheapest answer with a deadline: how the size was chosen; the fewest nodes that meet the deadline
 * where they are not the answer (they spend more: "+3.6%" over the answer's GPU-hours); and, where the deadline is
 * what costs more, the curve's cheapest size with no deadline.
 */
export function cheapestWithinNotes(
  answered: NodesSizeJson, fewest: NodesOkJson, curve: NodesResponseJson, goal: DeadlineGoal, q: AskParameters,
): string[] {
  if (!curve.ok) return [`The fewest nodes whose best configuration meets the deadline (${countOf(fewest.searches, 'cluster size')} searched); the time–cost curve ran no size to weigh against them.`];
  const within = curveWithin(curve, goal).filter((p) => p.nodes !== fewest.nodes).length + 1;
  const budget = goal.gpuHours !== undefined || goal.costBudget !== undefined ? ' and the budget' : '';
  return [
    `The fewest GPU-hours of the ${countOf(within, 'cluster size')} that meet${within === 1 ? 's' : ''} the deadline${budget}, of the time–cost curve's ${curve.frontier?.length ?? curve.searches} that run and the fewest nodes that meet it: MFU is not monotone in the node count (each size splits its GPUs and batch its own way), so a larger cluster can cost less.`,
    ...(answered.nodes === fewest.nodes ? [] : [`The fewest nodes that meet it spend more: ${sizeText(fewest, q, answered.gpuHours)}.`]),
    ...(curve.seconds <= goal.deadlineSeconds ? [] : [`With no deadline, the cheapest: ${sizeText(curve, q)}.`]),
  ];
}
