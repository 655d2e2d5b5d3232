import type { EstimateOk } from '@trainplan/protocol';
import { compactCount } from '../format.ts';
import { priceText } from '../lexicon/price.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';

/**
 * What GPU-hours cost at the question's price: GPU-hours × the price per GPU-hour, as the protocol's
 * planJson and runNodes compute `cost` (so the figure matches the answer's data). Nothing without a price.
 */

/** "$1.14M", "€952k", "480" with no currency given. */
export const moneyText = (amount: number, currency: string | undefined): string => `${currency ?? ''}${compactCount(amount)}`;

/** The cost of `gpuHours` at the question's price; undefined when it states none. */
export const costOf = (p: AskParameters, gpuHours: number): number | undefined =>
  p.pricePerGpuHour === undefined ? undefined : gpuHours * p.pricePerGpuHour;

/** " for $1.14M" to end a headline with; "" without a price. */
export function forCost(p: AskParameters, gpuHours: number | undefined): string {
  const cost = gpuHours === undefined ? undefined : costOf(p, gpuHours);
  return cost === undefined ? '' : ` for ${moneyText(cost, p.currency)}`;
}

/** The Cost figure of a plan with a time to train, at the question's price; none without a price. */
export function costFigures(p: AskParameters, e: EstimateOk): AnswerFigure[] {
  const hours = e.timeToTrain?.gpuHours;
  const cost = hours === undefined ? undefined : costOf(p, hours);
  if (hours === undefined || cost === undefined) return [];
  const currency = p.currency === undefined ? ' (in the currency given)' : '';
  return [{ label: 'Cost', value: `${moneyText(cost, p.currency)}${currency}: ${compactCount(hours)} GPU-hours at ${priceText(p.pricePerGpuHour ?? 0, p.currency)}/GPU-hour` }];
}
