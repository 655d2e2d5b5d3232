import type { NodesResponseJson } from '@trainplan/protocol';
import { formatCountExact, toDays } from '@trainplan/units';
import { compactCount, moneyText, statedMoney } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';

/**
 * A budget the search could not meet, said in the question's words: "is $1M enough to train llama3 70b at $2/gpu-hour"
 * asks yes or no, so the answer leads with "No:" (or "Yes:" where a plan stays within it); the search's message counts
 * money bare, in no currency ("a cost of 8,573,053 at the price given": a request names none), which is said here in the
 * question's ("$8.57M at $2/GPU-hour"); and what the budget does buy: the tokens it pays for at the rate of the run the
 * message names (its GPU-hours for the token budget).
 */

type NodesFail = Extract<NodesResponseJson, { ok: false }>;

/** "is $1M enough", "would 2M GPU-hours be sufficient", "does $500k suffice": a question whether an amount is enough. */
// A point before a digit is a decimal one ("is $1.2M enough"), not the end of a sentence.
const ASKS_ENOUGH = /\b(?:is|are|will|would|does|do|can|could)\b(?:[^?.!]|\.(?=\d))*\b(?:enough|sufficient|suffice)\b/;
/** "how many nodes are enough": a question of how much, not whether. */
const ASKS_HOW_MUCH = /\bhow (?:much|many)\b/;
/** "can I train …", "could we …", "will 64 nodes …", "is it possible to …": a question asking whether, by its first words. */
const ASKS_WHETHER = /^\s*(?:can|could|will|would|is it (?:possible|feasible)|am i able)\b/;

/**
 * Whether the question asks yes or no whether what it states will do: "is $1M enough …" of a budget, or "can I train … for
 * $1.5M" / "… in 60 days" of a budget or deadline it states (`stated`: the text's own facts, never a default deadline).
 */
export function asksIfEnough(text: string, stated: AskParameters): boolean {
  const lower = text.toLowerCase();
  if (ASKS_HOW_MUCH.test(lower)) return false;
  const budget = stated.costBudget !== undefined || stated.gpuHours !== undefined;
  return (budget && ASKS_ENOUGH.test(lower)) || ((budget || stated.deadlineSeconds !== undefined) && ASKS_WHETHER.test(lower));
}

/** What a plan spends and takes, as the verdicts weigh it against the question's budget and deadline. */
export interface PlanSpend {
  readonly cost?: number;
  readonly gpuHours?: number;
  readonly days?: number;
}

/** Whether a plan stays within every budget and deadline the question states (undefined where a figure to tell is missing). */
function withinStated(stated: AskParameters, plan: PlanSpend): boolean | undefined {
  const checks: (boolean | undefined)[] = [
    ...(stated.costBudget === undefined ? [] : [plan.cost === undefined ? undefined : plan.cost <= stated.costBudget]),
    ...(stated.gpuHours === undefined ? [] : [plan.gpuHours === undefined ? undefined : plan.gpuHours <= stated.gpuHours]),
    ...(stated.deadlineSeconds === undefined ? [] : [plan.days === undefined ? undefined : plan.days <= toDays(stated.deadlineSeconds)]),
  ];
  return checks.includes(undefined) ? undefined : checks.every(Boolean);
}

/**
 * "Yes: " or "No: " to lead the headline of a question asked yes or no: whether the plan answered stays within the
 * budget and deadline (the search's goal, or on a stated cluster its spend and time against them); "" otherwise, or
 * where the search could not say (no plan fits at all, a frontier the budget was no goal of).
 */
export function enoughVerdict(q: Pick<ParsedQuestion, 'text' | 'stated'>, result: NodesResponseJson): string {
  if (!asksIfEnough(q.text, q.stated)) return '';
  if (!result.ok) return result.reason === 'budget-unreachable' || result.reason === 'deadline-unreachable' ? 'No: ' : '';
  if (result.mode === 'fewest-nodes' || result.mode === 'fastest-within-budget') return 'Yes: ';
  if (result.mode !== 'days-on-nodes') return '';
  return planVerdict(q, result);
}

/** The same for one plan on the question's own cluster (a best configuration): "" where the question does not ask whether. */
export function planVerdict(q: Pick<ParsedQuestion, 'text' | 'stated'>, plan: PlanSpend): string {
  if (!asksIfEnough(q.text, q.stated)) return '';
  const within = withinStated(q.stated, plan);
  return within === undefined ? '' : within ? 'Yes: ' : 'No: ';
}

/**
 * A plan's spend held to the budget the question states: ", within the $1.5M budget", or ", $238k over the $1M budget;
 * $1M buys about 1.61T of the 2.00T tokens at that run's rate"; GPU-hours alike. Empty without a stated budget or the
 * plan's figure for it.
 */
export function budgetClause(stated: AskParameters, p: AskParameters, plan: PlanSpend): string {
  const parts: string[] = [];
  let over = false;
  if (stated.costBudget !== undefined && plan.cost !== undefined) {
    const budget = `the ${statedMoney(stated.costBudget, p.currency)} budget`;
    over ||= plan.cost > stated.costBudget;
    parts.push(plan.cost > stated.costBudget ? `${moneyText(plan.cost - stated.costBudget, p.currency)} over ${budget}` : `within ${budget}`);
  }
  if (stated.gpuHours !== undefined && plan.gpuHours !== undefined) {
    const budget = `the ${formatCountExact(stated.gpuHours)} GPU-hour budget`;
    over ||= plan.gpuHours > stated.gpuHours;
    parts.push(plan.gpuHours > stated.gpuHours ? `${compactCount(plan.gpuHours - stated.gpuHours)} GPU-hours over ${budget}` : `within ${budget}`);
  }
  if (parts.length === 0) return '';
  return `, ${parts.join(', ')}${over ? budgetBuys(p, { gpuHours: plan.gpuHours }) : ''}`;
}

/** The search's "a cost of 8,573,053 at the price given[, 7,573,053 over the budget of 1,000,000]". */
const BARE_COST = /a cost of ([\d,]+) at the price given(?:, ([\d,]+) over the budget of ([\d,]+))?/g;
const amount = (written: string): number => Number(written.replace(/,/g, ''));

/** "the $1M budget", "the 1M GPU-hour budget": the one budget the question gives, by its amount; undefined with both. */
function budgetName(p: AskParameters): string | undefined {
  if (p.costBudget !== undefined && p.gpuHours !== undefined) return undefined;
  if (p.costBudget !== undefined) return `the ${statedMoney(p.costBudget, p.currency)} budget`;
  return p.gpuHours === undefined ? undefined : `the ${formatCountExact(p.gpuHours)} GPU-hour budget`;
}

/** The search's message with its money in the question's currency (as it is where the question gave none), and the budget by its amount. */
export function inQuestionWords(message: string, p: AskParameters): string {
  const { currency, pricePerGpuHour: price } = p;
  const named = budgetName(p);
  // The search names which budget a run exceeds when it has both ("the money budget of 1,000,000", "its cost is 7,102,695
  // over the budget of 1,000,000"): each by its amount as the question put it.
  const which = message
    .replace(/the money budget of ([\d,]+)/g, (_, of: string) => `the ${statedMoney(amount(of), currency)} budget`)
    .replace(/the GPU-hour budget of ([\d,]+)/g, (_, of: string) => `the ${formatCountExact(amount(of))} GPU-hour budget`)
    .replace(/its cost is ([\d,]+) over the budget of ([\d,]+)/g, (_, over: string, of: string) => `its cost is ${moneyText(amount(over), currency)} over the ${statedMoney(amount(of), currency)} budget`)
    .replace(/its GPU-hours are ([\d,]+) over the budget of ([\d,]+)/g, (_, over: string, of: string) => `its GPU-hours are ${compactCount(amount(over))} over the ${formatCountExact(amount(of))} GPU-hour budget`);
  const budgetSaid = named === undefined ? which : which.replace(/\bwithin the budget\b/g, `within ${named}`);
  if (currency === undefined || price === undefined) return budgetSaid;
  return budgetSaid.replace(BARE_COST, (_, cost: string, over?: string, of?: string) => {
    const overText = over === undefined || of === undefined ? '' : `, ${moneyText(amount(over), currency)} over the ${statedMoney(amount(of), currency)} budget`;
    return `${moneyText(amount(cost), currency)} at ${priceText(price, currency)}/GPU-hour${overText}`;
  });
}

/**
 * "; $1M buys about 1.75T of the 15.0T tokens at that run's rate": the tokens the budget pays for at the GPU-hours per
 * token of the run the search names (its closest); the lesser where the question gives both a money and a GPU-hour
 * budget. Empty without the run's GPU-hours or the token budget.
 */
export function budgetBuys(p: AskParameters, closest: Pick<NonNullable<NodesFail['closest']>, 'gpuHours'> | undefined): string {
  const tokens = p.tokens;
  const hours = closest?.gpuHours;
  if (tokens === undefined || hours === undefined || !(hours > 0)) return '';
  const perHour = tokens / hours;
  const bought = [
    ...(p.costBudget !== undefined && p.pricePerGpuHour !== undefined ? [{ tokens: (p.costBudget / p.pricePerGpuHour) * perHour, what: `${statedMoney(p.costBudget, p.currency)} buys` }] : []),
    ...(p.gpuHours !== undefined ? [{ tokens: p.gpuHours * perHour, what: `${formatCountExact(p.gpuHours)} GPU-hours buy` }] : []),
  ].reduce<{ tokens: number; what: string } | undefined>((a, b) => (a === undefined || b.tokens < a.tokens ? b : a), undefined);
  if (bought === undefined || bought.tokens >= tokens) return '';
  return `; ${bought.what} about ${compactCount(bought.tokens)} of the ${compactCount(tokens)} tokens at that run's rate`;
}
