import { toDays } from '@trainplan/units';
import { TOKENS_COUNT } from '../classify.ts';
import { compactCount, formatDays } from '../format.ts';
import { DAYS_PER_MONTH } from '../lexicon/quantities.ts';
import type { ParsedQuestion } from '../question.ts';
import { PER_GPU } from './asked-metric.ts';

/** A period a rate of tokens is asked over: its unit's words ("tokens per day", "tokens a day", "tokens/day"), its adverb ("tokens daily"), its days. */
const PERIODS: readonly { unit: string; adverb: string; days: number; text: string }[] = [
  { unit: 'seconds?|secs?|s', adverb: 'every second', days: 1 / (24 * 60 * 60), text: 'a second' },
  { unit: 'hours?|hrs?|h', adverb: 'hourly', days: 1 / 24, text: 'an hour' },
  { unit: 'days?|d', adverb: 'daily', days: 1, text: 'a day' },
  { unit: 'weeks?|wks?', adverb: 'weekly', days: 7, text: 'a week' },
  { unit: 'months?|mo', adverb: 'monthly', days: DAYS_PER_MONTH, text: `a month (${DAYS_PER_MONTH} days)` },
];

/** The period a (lower-case) "how many tokens" question asks a rate over, if any. */
function ratePeriod(text: string): { days: number; text: string } | undefined {
  return PERIODS.find(({ unit, adverb }) => new RegExp(String.raw`\btokens?\s*(?:(?:per|an?|each|every|/)\s*(?:${unit})|${adverb})\b`).test(text));
}

/** The cluster a plan runs on: as the headline counts it ("64 nodes (512 GPUs)"), and its GPUs. */
export interface PlanCluster {
  text: string;
  gpus: number;
}

/**
 * "How many tokens can I train llama 3 8b on in 2 weeks on 64 h100": the tokens the plan trains in the time given, and "how
 * many tokens per day can 1024 h100 train for llama 3 70b": the tokens it trains in that period; both at the rate it trains
 * the tokens taken (its figures are for those, as the assumptions say). Asked per GPU ("tokens per second per gpu"), one
 * GPU's share first, the cluster's after: every GPU of a data-parallel plan trains the same share. Undefined for any other question.
 */
export function tokensInTime(q: ParsedQuestion, days: number, cluster: PlanCluster, subject: string): string | undefined {
  const p = q.parameters;
  const text = q.text.toLowerCase();
  if (!TOKENS_COUNT.test(text) || p.tokens === undefined || !(days > 0)) return undefined;
  const perDay = p.tokens / days;
  const below = `${formatDays(days)} for the ${compactCount(p.tokens)} below`;
  // "about 434 tokens a second per GPU; ": one GPU's share of `tokens` in `period`, when the question asks per GPU.
  const perGpu = (tokens: number, period: string): string => (PER_GPU.test(text) ? `about ${compactCount(tokens / cluster.gpus)} tokens ${period} per GPU; ` : '');
  if (p.deadlineSeconds !== undefined) {
    const deadline = toDays(p.deadlineSeconds);
    const tokens = perDay * deadline;
    return `${subject}: ${perGpu(tokens, `in ${formatDays(deadline)}`)}${cluster.text} train about ${compactCount(tokens)} tokens in ${formatDays(deadline)} (${compactCount(perDay)} a day; ${below})`;
  }
  const period = ratePeriod(text);
  if (period === undefined) return undefined;
  const tokens = perDay * period.days;
  return `${subject}: ${perGpu(tokens, period.text)}${cluster.text} train about ${compactCount(tokens)} tokens ${period.text} (${below})`;
}
