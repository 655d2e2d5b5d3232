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
 * A runEstimate plan's spend: its GPU-hours, costed at the question's price (GPU-hours × the price per
 * GPU-hour, as the protocol's planJson computes `cost`), with no cost when it states none.
 */
export function estimateSpend(p: AskParameters, gpuHours: number | undefined): Spend | undefined {
  if (gpuHours === undefined) return undefined;
  return { gpuHours, ...(p.pricePerGpuHour !== undefined && { cost: gpuHours * p.pricePerGpuHour }) };
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
