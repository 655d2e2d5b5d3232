import type { FrontierSizeJson, NodesResponseJson } from '@trainplan/protocol';
import { countOf, formatCountExact, toDays } from '@trainplan/units';
import { TOKENS_COUNT } from '../classify.ts';
import { restatedKeepingReadings } from './compared-gpus.ts';
import { compactCount, formatDays, nodesGpus, statedMoney } from '../format.ts';
import { DAYS_PER_YEAR } from '../lexicon/quantities.ts';
import { priceText } from '../lexicon/price.ts';
import { modelNameOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { gpuName } from './describe-estimate.ts';

/**
 * "How many tokens can I train llama3-8b on with 100k H100 GPU-hours", "I have 500k GPU-hours of H100, how many tokens can I
 * train a 70B on", "… with $1M at $2/GPU-hour": the tokens the budget buys, headline first. QA: each was planned on the
 * model's published 15T tokens and answered "855% over the budget", the tokens asked never given.
 *
 * The tokens a budget buys are its GPU-hours × a plan's tokens per GPU-hour (its throughput over its GPUs), so they hang on
 * the plan's MFU: on a cluster named, its best plan's; else the size of the time–cost curve (runNodes' frontier, the sizes a
 * cheapest question weighs) that buys the most within a deadline given, or, with none, within a year (a plan past a year
 * is seldom one to run: frontier-notes.ts overAYear). The plan is then run on those tokens, so that its figures (time to
 * train, GPU-hours, cost) are of the tokens said. Whole optimizer steps only (Narayanan et al. SC'21 §2.2: the optimizer
 * steps once a global batch is through), so the GPU-hours never pass the budget.
 */

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** A budget the question gives, as GPU-hours, and in its own words. */
export interface Budget {
  gpuHours: number;
  words: string;
}

/** The question's budget in GPU-hours: the GPU-hours given, or the money at the price; the lesser where both are. */
export function budgetOf(p: AskParameters): Budget | undefined {
  const budgets: Budget[] = [
    ...(p.gpuHours === undefined ? [] : [{ gpuHours: p.gpuHours, words: `${formatCountExact(p.gpuHours)} GPU-hours` }]),
    ...(p.costBudget === undefined || p.pricePerGpuHour === undefined ? [] : [{
      gpuHours: p.costBudget / p.pricePerGpuHour,
      words: `${statedMoney(p.costBudget, p.currency)} at ${priceText(p.pricePerGpuHour, p.currency)}/GPU-hour (${compactCount(p.costBudget / p.pricePerGpuHour)} GPU-hours)`,
    }]),
  ];
  return budgets.reduce<Budget | undefined>((a, b) => (a === undefined || b.gpuHours < a.gpuHours ? b : a), undefined);
}

/** Whether the question asks how many tokens a budget trains ("how many tokens can I train … with 100k GPU-hours"). */
export function asksTokensBought(q: ParsedQuestion): boolean {
  const s = q.stated;
  return q.intent === 'time' && TOKENS_COUNT.test(q.text.toLowerCase()) && s.tokens === undefined && s.tokensPerParameter === undefined
    && budgetOf(q.parameters) !== undefined;
}

/** A size's rate: the tokens a GPU-hour of it trains, its GPUs, and the tokens of one optimizer step there. */
interface Rate {
  nodes: number;
  gpus: number;
  tokensPerGpuHour: number;
  stepTokens: number;
}

/** The GPU-hours a size spends of the budget: all of it, or what its GPUs run within the deadline. */
const hoursSpent = (budget: number, gpus: number, deadlineHours: number | undefined): number =>
  (deadlineHours === undefined ? budget : Math.min(budget, gpus * deadlineHours));

/**
 * The size of the curve that buys the most tokens: within the deadline, or with none within a year of spending the budget
 * (else the fastest). Only its Pareto sizes: any other trains slower for more GPU-hours.
 */
function pickOfCurve(curve: NodesOk, budget: number, deadlineHours: number | undefined): { pick: Rate; cheapest: Rate } | undefined {
  const seq = curve.configuration.estimate.resolved.seqLength;
  const rateOf = (f: FrontierSizeJson): Rate => ({
    nodes: f.nodes, gpus: f.gpus, tokensPerGpuHour: curve.tokens / f.gpuHours, stepTokens: (f.globalBatchSize ?? curve.configuration.estimate.resolved.globalBatchSize) * seq,
  });
  const sizes = (curve.frontier ?? []).filter((f) => f.pareto).map(rateOf);
  if (sizes.length === 0) return undefined;
  const bought = (r: Rate): number => hoursSpent(budget, r.gpus, deadlineHours) * r.tokensPerGpuHour;
  const withinYear = sizes.filter((r) => budget / r.gpus / 24 <= DAYS_PER_YEAR);
  const pool = deadlineHours !== undefined ? sizes : withinYear.length > 0 ? withinYear : [sizes.reduce((a, b) => (b.gpus > a.gpus ? b : a))];
  const pick = pool.reduce((a, b) => (bought(b) > bought(a) ? b : a));
  const cheapest = sizes.reduce((a, b) => (b.tokensPerGpuHour > a.tokensPerGpuHour ? b : a));
  return { pick, cheapest };
}

/** "Llama 3 70B on H100 SXM5 80GB: $1M buy about 1.63T training tokens, on 12 nodes (96 GPUs) in 217 days": the headline. */
export const boughtHeadline = (p: AskParameters, words: string, tokens: number, cluster: string, days: number): string =>
  `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}: ${words} buy about ${compactCount(tokens)} training tokens, on ${cluster} in ${formatDays(days)}`;

/** How the tokens were counted: the GPU-hours spent × the best plan's tokens a GPU-hour, in whole optimizer steps. */
export const tokensNote = (hours: number, rate: { tokensPerGpuHour: number; stepTokens: number }, cluster: string): string =>
  `The tokens: ${compactCount(hours)} GPU-hours × ${compactCount(rate.tokensPerGpuHour)} tokens a GPU-hour, the best plan's throughput on ${cluster} `
    + `over its GPUs, in whole optimizer steps of ${compactCount(rate.stepTokens)} tokens.`;

/** Where no cluster was named: how to count the tokens of another plan. */
export const nameClusterNote = (deadline: boolean): string =>
  `Name a cluster ("on 64 H100")${deadline ? '' : ' or a deadline ("in 30 days")'} to count the tokens of that plan instead.`;

/**
 * The answer: `answerOn` answers a question of nodes, time or cheapest as search-answer.ts does (the rate's run, the
 * curve, and the plan of the tokens bought).
 */
export function answerTokensBought(q: ParsedQuestion, answerOn: (q: ParsedQuestion) => Answer): Answer {
  const p = q.parameters;
  const budget = budgetOf(p);
  if (budget === undefined) return answerOn(q);
  const { gpuHours: _hours, costBudget: _cost, ...unbudgeted } = q.stated;
  const deadlineHours = p.deadlineSeconds === undefined ? undefined : p.deadlineSeconds / 3600;
  const named = q.stated.nodes !== undefined || q.stated.gpus !== undefined;
  // The rate: the named cluster's best plan on the model's default tokens, or the curve's sizes.
  const rateRun = answerOn(restatedKeepingReadings(q, unbudgeted, named ? 'time' : 'cheapest'));
  const data = rateRun.data as NodesResponseJson | undefined;
  if (!rateRun.ok || data === undefined || !data.ok) return rateRun;
  let rate: Rate;
  let cheapest: Rate | undefined;
  if (named) {
    const seq = data.configuration.estimate.resolved.seqLength;
    rate = { nodes: data.nodes, gpus: data.gpus, tokensPerGpuHour: data.tokens / data.gpuHours, stepTokens: data.configuration.estimate.resolved.globalBatchSize * seq };
  } else {
    const picked = pickOfCurve(data, budget.gpuHours, deadlineHours);
    if (picked === undefined) return rateRun;
    rate = picked.pick;
    cheapest = picked.cheapest;
  }
  const hours = hoursSpent(budget.gpuHours, rate.gpus, deadlineHours);
  const tokens = Math.floor((hours * rate.tokensPerGpuHour) / rate.stepTokens) * rate.stepTokens;
  const subject = `${modelNameOf(p)} on ${gpuName(p.gpu ?? '')}`;
  if (tokens <= 0) {
    return { ...rateRun, ok: false, headline: `${subject}: ${budget.words} buy less than one optimizer step (${compactCount(rate.stepTokens)} tokens) on ${nodesGpus(rate)}`, figures: [], notes: [] };
  }
  const sized = named ? {} : { nodes: rate.nodes };
  const plan = answerOn(restatedKeepingReadings(q, { ...q.stated, ...sized, tokens }, 'time'));
  const planned = plan.data as NodesResponseJson | undefined;
  if (!plan.ok || planned === undefined || !planned.ok) return plan;
  const cluster = nodesGpus(planned);
  const headline = boughtHeadline(p, budget.words, tokens, cluster, planned.days);
  const notes = [
    tokensNote(hours, rate, cluster),
    ...(deadlineHours !== undefined && hours < budget.gpuHours
      ? [`The deadline (${formatDays(toDays(p.deadlineSeconds ?? 0))}) ends the run first: ${cluster} spend ${compactCount(hours)} of the ${compactCount(budget.gpuHours)} GPU-hours in it.`] : []),
    ...(cheapest === undefined ? [] : [choiceNote(rate, cheapest, budget.gpuHours, deadlineHours, (data.frontier ?? []).length)]),
    ...(named ? [] : [nameClusterNote(deadlineHours !== undefined)]),
  ];
  return { ...plan, headline, notes: [...notes, ...plan.notes] };
}

/** How the size was chosen among the curve's, and what the cheapest per token would buy where it is another. */
function choiceNote(pick: Rate, cheapest: Rate, budget: number, deadlineHours: number | undefined, searched: number): string {
  const within = deadlineHours === undefined ? 'spending the budget within a year' : `within the deadline (${formatDays(deadlineHours / 24)})`;
  const chosen = `The size that trains the most tokens ${within}, of the ${countOf(searched, 'cluster size')} on the time–cost curve`;
  if (cheapest.nodes === pick.nodes) return `${chosen}.`;
  const days = budget / cheapest.gpus / 24;
  const more = hoursSpent(budget, cheapest.gpus, deadlineHours) * cheapest.tokensPerGpuHour;
  return `${chosen}: fewer GPUs train more tokens a GPU-hour but take longer (${nodesGpus(cheapest)} would train about ${compactCount(more)} tokens`
    + `${deadlineHours === undefined ? ` in ${formatDays(days)}` : ` by the deadline`}).`;
}
