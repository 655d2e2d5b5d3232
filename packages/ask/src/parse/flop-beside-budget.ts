import { formatCountExact } from '@trainplan/units';
import { compactCount, statedMoney } from '../format.ts';
import { asksWhatBudgetTrains } from '../lexicon/model-size-asked.ts';
import { priceText } from '../lexicon/price.ts';
import type { DefaultUsed } from '../question.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/**
 * A compute in FLOPs beside a budget in money or GPU-hours, in a question asking what a budget trains ("what can I train with
 * 1e24 FLOPs and $2M on H100 at $2/GPU-hour"). The model is sized from the FLOPs: the compute-optimal size is read from a
 * compute in closed form, N = √(C / 120) (answer/flop-budget-size.ts), where money or GPU-hours are a compute only through a
 * plan's MFU, which differs with each size planned (answer/compute-optimal.ts plans up to three sizes to settle it). The other
 * budget is not dropped: it stays a budget of the plan, whose answer says its cost within it or over it (the cheapest and
 * time answers' budget verdicts), so the user sees whether it binds; and the question that sizes from it alone is named.
 * QA: "… with 1e24 FLOPs and $2M …" planned the FLOPs and said the $2M "neither a price nor a budget".
 */
export function flopBesideBudgetReadings(st: ParseState, read: Reads, { intent, facts }: Plan): DefaultUsed[] {
  const { flopBudget } = read.settings;
  if (flopBudget === undefined || !asksWhatBudgetTrains(st.normal, intent, facts)) return [];
  const sized = `the model is sized from the ${flopBudget.written} (the compute-optimal size read from the compute itself)`;
  const { costBudget, gpuHours, pricePerGpuHour, currency } = facts;
  if (costBudget !== undefined && pricePerGpuHour !== undefined) {
    const money = statedMoney(costBudget, currency);
    const bought = `${compactCount(costBudget / pricePerGpuHour)} GPU-hours at ${priceText(pricePerGpuHour, currency)}/GPU-hour`;
    return [{
      field: 'costBudget', value: costBudget,
      text: `two budgets given: ${sized}; the ${money} budget, ${bought}, is held against the plan's cost, said within it or over it in the notes; for the size ${money} buys instead, ask again without the FLOPs`,
    }];
  }
  if (gpuHours !== undefined) {
    const hours = `${formatCountExact(gpuHours)} GPU-hours`;
    return [{
      field: 'gpuHours', value: gpuHours,
      text: `two budgets given: ${sized}; the ${hours} are held against the plan's GPU-hours, said within them or over them in the notes; for the size ${hours} buy instead, ask again without the FLOPs`,
    }];
  }
  return [];
}
