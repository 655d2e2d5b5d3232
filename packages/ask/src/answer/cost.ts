import { compactCount, moneyText } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';

/**
 * A plan's GPU-hours and what they cost. runNodes and runSearch, given the question's price, return the
 * cost with every size and plan (`cost`): answers from them say that figure. Only runEstimate answers
 * have no cost of their own, and estimateSpend prices their GPU-hours the way the protocol does.
 */
export interface Spend {
  gpuHours: number;
  /** In the question's currency; undefined without a price. */
  cost?: number;
}

/**
 * The cost of `gpuHours` at the question's price (GPU-hours × the price per GPU-hour, as the protocol's
 * planJson computes `cost`); undefined when it states none. For runEstimate answers only.
 */
export const costOf = (p: AskParameters, gpuHours: number): number | undefined =>
  p.pricePerGpuHour === undefined ? undefined : gpuHours * p.pricePerGpuHour;

/** A runEstimate plan's spend: its GPU-hours, costed at the question's price (costOf). */
export function estimateSpend(p: AskParameters, gpuHours: number | undefined): Spend | undefined {
  if (gpuHours === undefined) return undefined;
  const cost = costOf(p, gpuHours);
  return { gpuHours, ...(cost !== undefined && { cost }) };
}

/** " for $1.14M" to end a headline with; "" without a cost. */
export const forCost = (p: AskParameters, cost: number | undefined): string =>
  cost === undefined ? '' : ` for ${moneyText(cost, p.currency)}`;

/** The Cost figure of a plan's spend, with the price it is at; none without a cost or a price. */
export function costFigures(p: AskParameters, spend: Spend | undefined): AnswerFigure[] {
  if (spend?.cost === undefined || p.pricePerGpuHour === undefined) return [];
  const currency = p.currency === undefined ? ' (in the currency given)' : '';
  return [{ label: 'Cost', value: `${moneyText(spend.cost, p.currency)}${currency}: ${compactCount(spend.gpuHours)} GPU-hours at ${priceText(p.pricePerGpuHour, p.currency)}/GPU-hour` }];
}
