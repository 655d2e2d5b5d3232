import { formatCountExact, formatPercentChange } from '@trainplan/units';
import { compactCount, moneyText, statedMoney } from '../format.ts';
import type { AskParameters } from '../question.ts';
import type { Spend } from './cost.ts';

/**
 * A plan's GPU-hours and cost said against the budgets the question gave ("with a $1M budget", "on 1M
 * GPU-hours"), in the words every answer uses: "$1.20M, 20% over the $1M budget", "$880k, within the $1M
 * budget ($120k left)". Answers where the budget was no goal of the search (a time to train on a stated
 * cluster, a best configuration) would otherwise read the budget and drop it.
 */

/** "4.7%", "20%": how far `spent` is from `budget`, units' signed change without its sign ("N% over" says which way). */
const percentOff = (spent: number, budget: number): string => formatPercentChange(spent / budget - 1).replace(/^[+−]/, '');

interface Standing {
  over: boolean;
  /** "$1.20M, 20% over the $1M budget" */
  text: string;
}

function standing(spent: number, budget: number, show: (amount: number) => string, budgetName: string): Standing {
  const over = spent > budget;
  return {
    over,
    text: over
      ? `${show(spent)}, ${percentOff(spent, budget)} over the ${budgetName}`
      : `${show(spent)}, within the ${budgetName} (${show(budget - spent)} left)`,
  };
}

/** The plan's standing against each budget the question gave: GPU-hours, then money (its cost, at the price). */
function budgetStandings(p: AskParameters, spend: Spend): Standing[] {
  const { gpuHours, cost } = spend;
  return [
    ...(p.gpuHours === undefined ? [] : [standing(gpuHours, p.gpuHours, (h) => `${compactCount(h)} GPU-hours`, `${formatCountExact(p.gpuHours)} GPU-hour budget`)]),
    ...(p.costBudget === undefined || cost === undefined ? [] : [standing(cost, p.costBudget, (c) => moneyText(c, p.currency), `${statedMoney(p.costBudget, p.currency)} budget`)]),
  ];
}

/**
 * Whose spend the notes say: the plan answered (bare), the cheapest plan when the budget was no goal of the
 * search ("The cheapest: …", "Even the cheapest: …" when over), or the closest plan when none met the goal
 * ("The closest: …", since the search's own message counts the budget bare).
 */
export type BudgetPlan = 'answered' | 'cheapest' | 'closest';

const lead = (plan: BudgetPlan, over: boolean): string =>
  plan === 'cheapest' ? `${over ? 'Even the cheapest' : 'The cheapest'}: ` : plan === 'closest' ? 'The closest: ' : '';

/** One note per budget: "$1.20M, 20% over the $1M budget."; none without a budget or a spend. */
export function budgetNotes(p: AskParameters, spend: Spend | undefined, { plan = 'answered' }: { plan?: BudgetPlan } = {}): string[] {
  return spend === undefined ? [] : budgetStandings(p, spend).map((s) => `${lead(plan, s.over)}${s.text}.`);
}
