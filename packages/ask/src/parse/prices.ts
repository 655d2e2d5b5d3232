import { gpusPerNodeOf } from '../defaults.ts';
import {
  type PriceReading, type StatedPrice, findUnreadPrice, otherPricesNotRead, UNPRICED_BUDGET, UNREAD_MONEY, unreadConversion, moneyBudgetProblem,
  resolvePrice, takeJoinedMoneyBudget, takeMoneyBudget, takePrice, unreadPriceProblem,
} from '../lexicon/price.ts';
import type { AskParameters } from '../question.ts';
import { asTyped } from './as-typed.ts';
import type { DeadlineRead } from './deadline-read.ts';
import type { HardwareNamed } from './hardware-named.ts';
import type { SettingsRead } from './settings-read.ts';
import type { ParseState } from './state.ts';

/**
 * A price for each GPU compared, in the order the GPUs and the prices are written ("which is cheaper: A100 at $1.5/hr or
 * H100 at $2.5/hr"): the first GPU's read as the question's price, the others' per GPU-hour of each, each on its own node
 * (a node-hour's price over that node's GPUs). QA: both GPUs were priced at the first, and "$2.5/hr" said not read.
 * Undefined unless there are as many prices as GPUs, in one currency, each within range: then one price is planned, the
 * others said not read, as before.
 */
function pricesOfGpus(price: PriceReading, stated: AskParameters): { first: Extract<StatedPrice, { ok: true }>; others: number[] } | undefined {
  const gpus = stated.comparedGpus;
  const each = price.each;
  if (gpus === undefined || each === undefined || each.length !== gpus.length + 1 || new Set(each.map((e) => e.currency)).size > 1) return undefined;
  const resolved = each.map((e, k) => {
    const gpu = k === 0 ? stated : gpus[k - 1]!;
    return resolvePrice(e, gpusPerNodeOf({ gpu: gpu.gpu, ...(gpu.system !== undefined && { system: gpu.system }) }));
  });
  const [first, ...others] = resolved;
  if (first?.ok !== true || !others.every((o): o is Extract<StatedPrice, { ok: true }> => o.ok)) return undefined;
  return { first, others: others.map((o) => o.perGpuHour) };
}

/** A price and a money budget as written, before the node is known. */
export type PricesTaken = ReturnType<typeof takePrices>;

/**
 * The price and the money budget written, taken before any count or duration; each made per GPU-hour by resolvePrices.
 * `flopBudget`: a compute in FLOPs read before (settings-read.ts), to which money may be joined ("1e24 FLOPs and $2M").
 */
export function takePrices(st: ParseState, { instance }: HardwareNamed, { flopBudget }: Pick<SettingsRead, 'flopBudget'>) {
  const { s, text, problems, notRead } = st;
  // Before any count or duration: "$3 an hour per GPU" holds an hour and a GPU of its own. An hour's price beside an
  // instance type ("128 p4d nodes at $32.77/hr") is the instance's, a node-hour, as cloud providers list it.
  const taken = takePrice(s);
  const price = taken?.per === 'hour' && instance !== undefined ? { ...taken, per: 'node-hour' as const, of: instance.instance.name } : taken;
  // "With 1e24 FLOPs and $2M": the money a second budget beside the compute, as "with $2M" is one (lexicon/price.ts).
  const moneyBudget = takeMoneyBudget(s) ?? (flopBudget === undefined ? undefined : takeJoinedMoneyBudget(s, flopBudget.end));
  // Money or a rate per hour neither took ("2 per hour"): said, never ignored (a cost question would lose its cost unsaid).
  // With a price read, the money left is said not read instead (QA: "with 5M GPU hours and $1M at $2/GPU-hour" dropped the $1M).
  const unreadPrice = findUnreadPrice(s.text);
  if (unreadPrice !== undefined && price === undefined) problems.push(unreadPriceProblem(asTyped(text, unreadPrice)));
  else if (unreadPrice !== undefined) notRead.push({ phrase: `"${asTyped(text, unreadPrice)}"`, why: UNREAD_MONEY });
  // A compute with no model named is the question's goal, sized with no price (answer/flop-budget-size.ts): money beside it
  // with no price is then said not weighed, never the whole question refused (resolvePrices). With a model named, the compute
  // is no goal (final-problems.ts says it not read) and the money, refused for want of a price, says what to give.
  return { price, moneyBudget, besideFlops: flopBudget !== undefined && st.stated.model === undefined };
}

/** The price planned per GPU-hour (each GPU compared's own, where written), and the money budget weighed against it. */
export type PricesResolved = ReturnType<typeof resolvePrices>;

/** The prices per GPU-hour, once the counts say the node: stated, or refused; the money budget stated, said not weighed, or refused. */
export function resolvePrices(st: ParseState, { price, moneyBudget, besideFlops }: PricesTaken, { date }: DeadlineRead) {
  const { s, text, stated, problems, notRead } = st;
  // GPUs compared, a price each ("A100 at $1.5/hr or H100 at $2.5/hr"): each GPU at its own, in the order written.
  const pricedEach = price === undefined ? undefined : pricesOfGpus(price, stated);
  // Per GPU-hour once the node is known ("$98 per node-hour" over its GPUs).
  const priced = price === undefined ? undefined : pricedEach?.first ?? resolvePrice(price, gpusPerNodeOf(stated));
  if (priced?.ok === true) {
    stated.pricePerGpuHour = priced.perGpuHour;
    stated.currency = priced.currency;
    if (pricedEach !== undefined) pricedEach.others.forEach((perGpuHour, k) => Object.assign(stated.comparedGpus?.[k] ?? {}, { pricePerGpuHour: perGpuHour }));
    // Prices beside the one planned: said not read, never dropped (QA: "$20 an hour at $2/GPU-hour").
    else notRead.push(...otherPricesNotRead(price!, priced.perGpuHour, (phrase) => asTyped(text, phrase)));
  } else if (priced !== undefined) problems.push(priced.problem);
  // "$2.1/gpu-h in EUR": no conversion, said.
  const conversion = price === undefined ? undefined : unreadConversion(s.text, price.currency, (phrase) => asTyped(text, phrase));
  if (conversion !== undefined) notRead.push(conversion);
  const budgetProblem = moneyBudget === undefined ? undefined : moneyBudgetProblem(moneyBudget, priced);
  // A money budget with no price beside another goal (a deadline, GPU-hours, a compute in FLOPs): that goal answered, the
  // budget said not weighed (QA: "… in 30 days, budget 3M dollars" refused the whole question for want of a price). Alone,
  // it is the question's only goal, and the problem says what to give.
  const unpricedBudget = moneyBudget !== undefined && price === undefined && budgetProblem !== undefined && moneyBudget.amount > 0
    && (stated.deadlineSeconds !== undefined || stated.gpuHours !== undefined || date !== undefined || besideFlops);
  if (unpricedBudget) notRead.push({ phrase: `"${asTyped(text, moneyBudget.written)}"`, why: UNPRICED_BUDGET });
  else if (budgetProblem !== undefined) problems.push(budgetProblem);
  else if (moneyBudget !== undefined) {
    stated.costBudget = moneyBudget.amount;
    stated.currency ??= moneyBudget.currency;
  }
  return { pricedEach, priced };
}
