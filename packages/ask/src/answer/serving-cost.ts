import type { InferencePointJson } from '@trainplan/protocol';
import { countOf } from '@trainplan/units';
import { moneyText } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import { rateVerb, requestsPerSecondText } from './serving-text.ts';

/**
 * What serving costs at the question's price, in words: the protocol's `cost` of a point (runInference with
 * pricePerGpuHour): a million generated tokens, their GPUs' time with the prompts' prefill in it, and with a
 * request rate an hour of the GPUs the rate needs, idle slots paid too. The bot reckons none of it itself.
 */

/** "$0.124" in the question's currency; with none given, the bare amount. */
const money = (amount: number, p: AskParameters): string => moneyText(amount, p.currency);

/** ", $0.124 per million output tokens" (at a rate "…, $1.95 per million output tokens and $36 an hour") to end a headline's plan with; "" without a price. */
export function costHeadline(x: InferencePointJson, p: AskParameters): string {
  const cost = x.cost;
  if (cost === undefined) return '';
  const hour = cost.perHour === undefined ? '' : ` and ${money(cost.perHour, p)} an hour`;
  return `, ${money(cost.perMillionOutputTokens, p)} per million output tokens${hour}`;
}

/**
 * The Cost figure: "$0.124 per million output tokens at $2.50/GPU-hour (the GPUs' time over the tokens they generate,
 * the prompts' prefill included)"; at a rate "…; $30 an hour for the 12 GPUs 10 requests/s take, idle slots paid too".
 */
export function costFigure(x: InferencePointJson, p: AskParameters): AnswerFigure[] {
  const cost = x.cost;
  if (cost === undefined || p.pricePerGpuHour === undefined) return [];
  const currency = p.currency === undefined ? ' (in the currency given)' : '';
  const perMillion = `${money(cost.perMillionOutputTokens, p)}${currency} per million output tokens at ${priceText(p.pricePerGpuHour, p.currency)}/GPU-hour`;
  const hour = cost.perHour === undefined || x.load === undefined ? ''
    : `; ${money(cost.perHour, p)} an hour for the ${countOf(x.load.gpus, 'GPU')} ${requestsPerSecondText(x.load.requestsPerSecond)} ${rateVerb(x.load.requestsPerSecond, 'take')}, idle slots paid too`;
  const why = cost.perHour === undefined ? " (the GPUs' time over the tokens they generate, the prompts' prefill included)" : '';
  return [{ label: 'Cost', value: `${perMillion}${why}${hour}` }];
}

/** Words of a serving question that asks what it costs. */
const ASKS_COST = /\b(?:cost|costs|price|pricing|cheap\w*|expensive|dollars?|\$\s*\/|per million tokens)\b/;

/** A note when the question asks a cost but gives no price to cost it at. */
export const noPriceNote = (p: AskParameters, text: string): string[] =>
  (p.pricePerGpuHour === undefined && ASKS_COST.test(text.toLowerCase())
    ? ['No price given, so no cost: say one ("at $2.50/GPU-hour") for the cost per million output tokens.'] : []);
