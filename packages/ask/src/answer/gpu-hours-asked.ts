import type { NodesOkJson } from '@trainplan/protocol';
import { COST, GPU_HOURS_COUNT, NODE_HOURS_COUNT, WHAT_COST } from '../classify.ts';
import { gpusPerNodeOf } from '../defaults.ts';
import { compactCount, formatDays, moneyText, nodesGpus } from '../format.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { fasterThanAYear, yearLongDays } from './frontier-notes.ts';
import { pricingTermClause } from './pricing-term.ts';

/**
 * "How many GPU-hours to train llama3-70b on 15T tokens": the GPU-hours lead the headline, the time after. The cheapest
 * answer led with "7 nodes, 3,021 days (8.3 years), 4.06M GPU-hours; over a year: 512 nodes …", its GPU-hours last and
 * of a plan nobody runs (QA: confusing). Where the cheapest takes over a year, the GPU-hours led with are those of the
 * faster size a cheapest answer weighs it against (fasterThanAYear: within a quarter where one is), the fewest after.
 */

/**
 * Whether a question asks a number of GPU-hours, or a cost with no price to make GPU-hours money ("what's the cost of training
 * llama3-70b on 2T tokens on 512 H100"): its GPU-hours are what can be answered (QA: that answer led with days, and never
 * said a price was needed).
 */
export function asksGpuHours(q: ParsedQuestion): boolean {
  const text = q.text.toLowerCase();
  return GPU_HOURS_COUNT.test(text) || asksUnpricedCost(q);
}

/** A question asking a cost in money that gives no price per GPU-hour (nor a budget, which is answered against its own price). */
const asksUnpricedCost = (q: ParsedQuestion): boolean => {
  const text = q.text.toLowerCase();
  return (COST.test(text) || WHAT_COST.test(text)) && q.parameters.pricePerGpuHour === undefined && q.parameters.costBudget === undefined;
};

/** Said beside an unpriced cost question's GPU-hours: a price turns them into money; a pricing term named prices nothing (pricing-term.ts). */
export function priceNeededNote(q: ParsedQuestion): string[] {
  if (!asksUnpricedCost(q)) return [];
  return [`No price given, so no cost in money: the cost is these GPU-hours × a price per GPU-hour; give one ("at $2/GPU-hour") for it.${pricingTermClause(q.text)}`];
}

/** Said beside GPU-hours where node-hours were asked: the planner counts GPU-hours, a node's are those over its GPUs. */
export const nodeHoursNote = (q: ParsedQuestion, gpuHours: number): string[] => {
  if (!NODE_HOURS_COUNT.test(q.text.toLowerCase())) return [];
  const perNode = gpusPerNodeOf(q.parameters);
  return [`Node-hours = GPU-hours / ${perNode} GPUs per node: ${compactCount(gpuHours / perNode)} node-hours.`];
};

/** "614k GPU-hours ($1.29M)": GPU-hours, with their cost when priced. */
const hoursText = (s: { gpuHours: number; cost?: number }, p: AskParameters): string =>
  `${compactCount(s.gpuHours)} GPU-hours${s.cost === undefined ? '' : ` (${moneyText(s.cost, p.currency)})`}`;

/**
 * A cheapest answer's headline after its subject, GPU-hours first: "4.06M GPU-hours on 8 nodes (64 GPUs), 372 days", or over
 * a year "5.78M GPU-hours on 512 nodes (4,096 GPUs), 58.8 days; the fewest, 4.06M GPU-hours, take 3,021 days (8.3 years) on
 * 7 nodes (56 GPUs), whose plan the figures show".
 */
export function gpuHoursOfFrontier(a: NodesOkJson, p: AskParameters): string {
  const cheapest = `${hoursText(a, p)} on ${nodesGpus(a)}, ${formatDays(a.days)}`;
  const faster = fasterThanAYear(a);
  if (faster === undefined) return `${cheapest}, the fewest of any cluster size`;
  return `${hoursText(faster, p)} on ${nodesGpus(faster)}, ${formatDays(faster.days)}; the fewest, ${hoursText(a, p)}, take ${yearLongDays(a.days)} on ${nodesGpus(a)}, whose plan the figures show`;
}
