import type { FlagValues } from '../flags.ts';

/**
 * `trainplan nodes --budget M` is money, and money becomes GPU-hours only at a price. The schema's rule sits on the
 * price's field, so it was said as "--price: a budget in money needs --price" (QA): labelled by the flag missing. Said
 * here by the flag given, naming the one to add (a request from --input keeps the schema's words, in its own fields).
 */
export function moneyBudgetProblem(v: FlagValues): string | undefined {
  if (v.budget === undefined || v.price !== undefined || v.input !== undefined) return undefined;
  return '--budget needs --price: a budget in money becomes GPU-hours at the price of one GPU-hour (--price P); '
    + 'or give the budget in GPU-hours (--gpu-hours H)';
}
