import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, HOURS_PER_DAY, million, toDays, toHours } from '@trainplan/units';
import { formatDays, moneyText } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import { costUnit, unitWord } from '../lexicon/serving.ts';
import { DAYS_PER_MONTH, DAYS_PER_YEAR } from '../lexicon/quantities.ts';
import { normalize } from '../parse.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import { rateVerb, requestsPerSecondText } from './serving-text.ts';

/**
 * What serving costs at the question's price, in words: the protocol's `cost` of a point (runInference with
 * pricePerGpuHour): a million generated tokens, their GPUs' time with the prompts' prefill in it, and with a
 * request rate an hour of the GPUs the rate needs, idle slots paid too. The bot reckons none of it itself.
 */

/** The tokens the protocol prices: a million output tokens (InferencePointJson cost.perMillionOutputTokens). */
const MILLION = million(1);

/** "$0.124" in the question's currency; with none given, the bare amount. */
const money = (amount: number, p: AskParameters): string => moneyText(amount, p.currency);

/**
 * Hours in a period a cost is asked per: a month is DAYS_PER_MONTH (30) days, 720 hours, and a year DAYS_PER_YEAR (365)
 * days, 8,760 hours, as every answer takes them (a deadline "in a month" is 30 days: lexicon/deadline.ts), so that a
 * month's cost and "a month taken as 30 days" said beside it are one month (cloud bills' 730-hour month, 8,760 over
 * 12, is 1.4% longer).
 */
const PERIODS: Readonly<Record<string, { hours: number; words: string }>> = {
  day: { hours: HOURS_PER_DAY, words: '24 hours' },
  week: { hours: 7 * HOURS_PER_DAY, words: '168 hours' },
  month: { hours: DAYS_PER_MONTH * HOURS_PER_DAY, words: `${DAYS_PER_MONTH * HOURS_PER_DAY} hours, a month taken as ${DAYS_PER_MONTH} days` },
  year: { hours: DAYS_PER_YEAR * HOURS_PER_DAY, words: `${(DAYS_PER_YEAR * HOURS_PER_DAY).toLocaleString('en-US')} hours, ${DAYS_PER_YEAR} days` },
};
const PERIOD = /(?<!\b(?:requests?|reqs?|queries|query|tokens?)\s*)\b(?:per|a|an|each|every|\/)\s*(day|week|month|year)\b|\b(daily|weekly|monthly|yearly|annual(?:ly)?)\b/;
const ADVERB: Readonly<Record<string, string>> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year', annual: 'year', annually: 'year' };

/** The period a (question's) text asks a cost per ("per month", "monthly"); undefined when it asks none. */
export function periodOf(text: string): { name: string; hours: number; words: string } | undefined {
  const m = PERIOD.exec(text.toLowerCase());
  const name = m?.[1] ?? ADVERB[m?.[2] ?? ''];
  const period = name === undefined ? undefined : PERIODS[name];
  return name === undefined || period === undefined ? undefined : { name, ...period };
}

/**
 * " ($28.8k a month: 720 hours, a month taken as 30 days)" after an hour's cost when the question asks per a period;
 * else, with a span served stated ("for 3 months": the deadline the parser read, its reading of a month said in the
 * assumptions), the total over it, the hour's cost times its hours: " ($86.4k for 90 days: 2,160 hours)"; "" otherwise.
 */
function perPeriod(perHour: number, p: AskParameters, text: string, spanSeconds: number | undefined): string {
  const period = periodOf(text);
  if (period !== undefined) return ` (${money(perHour * period.hours, p)} a ${period.name}: ${period.words})`;
  const span = spanServed(spanSeconds);
  return span === undefined ? '' : ` (${money(perHour * span.hours, p)} for ${span.words}: ${Math.round(span.hours).toLocaleString('en-US')} hours)`;
}

/** A span served stated ("for 10 days", "for 3 months"), its hours and how the answer names it ("90 days"); undefined with none. */
export function spanServed(seconds: number | undefined): { hours: number; words: string } | undefined {
  return seconds === undefined || !(seconds > 0) ? undefined : { hours: toHours(seconds), words: formatDays(toDays(seconds)) };
}

/**
 * ", $0.124 per million output tokens" (at a rate "…, $1.95 per million output tokens and $36 an hour", with the period
 * asked or the span served after it: perPeriod) to end a headline's plan with; "" without a price.
 */
export function costHeadline(x: InferencePointJson, p: AskParameters, text = '', spanSeconds?: number): string {
  const cost = x.cost;
  if (cost === undefined) return '';
  const hour = cost.perHour === undefined ? '' : ` and ${money(cost.perHour, p)} an hour${perPeriod(cost.perHour, p, text, spanSeconds)}`;
  return `, ${perUnitAsked(cost.perMillionOutputTokens, p, text)}${hour}`;
}

/**
 * The cost per million output tokens, per the thousand or billion the question asks first where it asks one ("cost per 1k
 * output tokens": "$0.000954 per thousand output tokens ($0.954 per million)"): the protocol prices a million, and a
 * thousand is that ÷ 1,000, a billion × 1,000. QA: "per 1k output tokens" was read as a 1,024-token output.
 */
function perUnitAsked(perMillion: number, p: AskParameters, text: string, currency = ''): string {
  const asked = `${money(perMillion, p)}${currency} per million output tokens`;
  const tokens = costUnit(normalize(text))?.tokens ?? MILLION;
  return tokens === MILLION ? asked : `${money(perMillion * (tokens / MILLION), p)}${currency} per ${unitWord(tokens)} output tokens (${money(perMillion, p)} per million)`;
}

/**
 * The Cost figure: "$0.124 per million output tokens at $2.50/GPU-hour (the GPUs' time over the tokens they generate,
 * the prompts' prefill included)"; at a rate "…; $30 an hour for the 12 GPUs 10 requests/s take, idle slots paid too".
 */
export function costFigure(x: InferencePointJson, p: AskParameters, text = '', spanSeconds?: number): AnswerFigure[] {
  const cost = x.cost;
  if (cost === undefined || p.pricePerGpuHour === undefined) return [];
  const currency = p.currency === undefined ? ' (in the currency given)' : '';
  const perMillion = `${perUnitAsked(cost.perMillionOutputTokens, p, text, currency)} at ${priceText(p.pricePerGpuHour, p.currency)}/GPU-hour`;
  const hour = cost.perHour === undefined || x.load === undefined ? ''
    : `; ${money(cost.perHour, p)} an hour${perPeriod(cost.perHour, p, text, spanSeconds)} for the ${countOf(x.load.gpus, 'GPU')} ${requestsPerSecondText(x.load.requestsPerSecond)} ${rateVerb(x.load.requestsPerSecond, 'take')}, idle slots paid too`;
  const why = cost.perHour === undefined ? " (the GPUs' time over the tokens they generate, the prompts' prefill included)" : '';
  return [{ label: 'Cost', value: `${perMillion}${why}${hour}` }];
}

/** Words of a serving question that asks what it costs. */
const ASKS_COST = /\b(?:cost|costs|price|pricing|cheap\w*|expensive|dollars?|\$\s*\/|per million tokens)\b/;

/** A note when the question asks a cost but gives no price to cost it at. */
export const noPriceNote = (p: AskParameters, text: string): string[] =>
  (p.pricePerGpuHour === undefined && ASKS_COST.test(text.toLowerCase())
    ? ['No price given, so no cost: say one ("at $2.50/GPU-hour") for the cost per million output tokens.'] : []);
