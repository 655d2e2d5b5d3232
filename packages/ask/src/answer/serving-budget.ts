import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatCountExact, HOURS_PER_DAY } from '@trainplan/units';
import { compactCount, formatDays, moneyText, statedMoney } from '../format.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { budgetClause, planVerdict } from './budget-verdict.ts';
import { periodOf, spanServed } from './serving-cost.ts';

/**
 * A budget a serving question states ("is $5k enough to serve … for a week", "… for under $10k a month"), held to what
 * the plan's GPUs cost over the period served, as the training answers hold theirs (budget-verdict.ts): "No: " first
 * where the question asks whether it is enough, and ", $1.72k over the $5k budget" after the cost. The period is the
 * one the cost is asked per ("a month": serving-cost.ts's PERIODS, a month taken as 30 days), else the span the
 * question serves for ("for 3 months", read as its deadline: 90 days). With no period, what the budget pays for.
 */

/** The span a budget is spent over: its hours and how the answer names it ("a week", "90 days"). */
interface Period {
  readonly hours: number;
  readonly words: string;
}


/** The period asked per ("a month"), else the stated span served ("for 3 months": the deadline the parser read, in days). */
function periodServed(q: Pick<ParsedQuestion, 'text' | 'stated'>): Period | undefined {
  const asked = periodOf(q.text);
  if (asked !== undefined) return { hours: asked.hours, words: `a ${asked.name}` };
  return spanServed(q.stated.deadlineSeconds);
}

/**
 * The GPUs paid for while serving: those the rate takes (the protocol's load), else the GPUs named, else one replica's;
 * and their cost an hour: the protocol's (cost.perHour, at a rate), else those GPUs at the question's price.
 */
function paidGpus(x: InferencePointJson, p: AskParameters, gpus: number | undefined): { gpus: number; perHour: number | undefined } {
  const paid = x.load?.gpus ?? gpus ?? x.gpus;
  return { gpus: paid, perHour: x.cost?.perHour ?? (p.pricePerGpuHour === undefined ? undefined : paid * p.pricePerGpuHour) };
}

/**
 * "No: " (or "Yes: ") to lead a serving answer's headline, and the clause to end its cost with: ", $1.72k over the $5k
 * budget" where the period's cost was said already (the question asks per a period), ", $86.4k for 90 days (2,160
 * hours), $36.4k over the $50k budget" where it was not, or with no period ", the $5k budget pays for 125 hours (5.2
 * days) of the 20 GPUs". Empty where the question states no budget, or no price makes GPUs money for a money budget.
 */
export function servingBudget(
  q: Pick<ParsedQuestion, 'text' | 'stated'>, p: AskParameters, x: InferencePointJson, gpus: number | undefined,
): { verdict: string; clause: string } {
  const { costBudget, gpuHours: hoursBudget } = q.stated;
  if (costBudget === undefined && hoursBudget === undefined) return { verdict: '', clause: '' };
  const paid = paidGpus(x, p, gpus);
  const period = periodServed(q);
  if (period === undefined) {
    // Hours the budget pays for: money over the GPUs' cost an hour, GPU-hours over the GPUs.
    const hours = costBudget !== undefined && paid.perHour !== undefined ? costBudget / paid.perHour
      : hoursBudget !== undefined ? hoursBudget / paid.gpus : undefined;
    if (hours === undefined) return { verdict: '', clause: '' };
    const budget = costBudget !== undefined ? statedMoney(costBudget, p.currency) : `${formatCountExact(hoursBudget ?? 0)} GPU-hour`;
    return { verdict: '', clause: `, the ${budget} budget pays for ${compactCount(hours)} hours (${formatDays(hours / HOURS_PER_DAY)}) of the ${countOf(paid.gpus, 'GPU')}` };
  }
  const cost = paid.perHour === undefined ? undefined : paid.perHour * period.hours;
  const gpuHours = paid.gpus * period.hours;
  // The tokens a budget buys (budget-verdict.ts's budgetBuys) are a training run's: none here.
  const held = budgetClause(q.stated, { ...p, tokens: undefined }, { cost, gpuHours });
  if (held === '') return { verdict: '', clause: '' };
  // The period's cost is said in the headline already where the question asks per a period and the protocol costs an hour
  // (at a rate: serving-cost.ts's perPeriod); else here, with the GPU-hours where the budget counts them.
  const spent = [...(cost === undefined ? [] : [moneyText(cost, p.currency)]), ...(hoursBudget === undefined && cost !== undefined ? [] : [`${compactCount(gpuHours)} GPU-hours`])];
  // So is the span served's ("for 3 months"): the headline's hour's cost is followed by its total over the span (serving-cost.ts).
  const said = x.cost?.perHour !== undefined && hoursBudget === undefined ? ''
    : `, ${spent.join(' and ')} for ${period.words} (${Math.round(period.hours).toLocaleString('en-US')} hours of ${countOf(paid.gpus, 'GPU')})`;
  // A deadline is no limit a serving plan is held to: it is the span served, so the verdict weighs the budgets alone.
  const verdict = planVerdict({ text: q.text, stated: { ...q.stated, deadlineSeconds: undefined } }, { cost, gpuHours });
  return { verdict, clause: `${said}${held}` };
}
