import { wholeText } from './whole-text.ts';

/**
 * The unit a cost is in. A price is read without its currency ("$2.50" and "€2.5" alike as 2.5: search-flags.ts money),
 * so a cost is in whatever currency --price was given in: said beside a report's first cost figure and in each table's
 * cost header, so that a bare "1,827,568" is not read as dollars, or as GPU-hours.
 */
export const PRICE_CURRENCY = "in --price's currency";

/** A cost with its unit: "1,827,568 (in --price's currency)". */
export const costWithCurrency = (cost: number): string => `${wholeText(cost)} (${PRICE_CURRENCY})`;

/** A table's cost header with its unit: "cost (in --price's currency)". */
export const costHeader = (header: string): string => `${header} (${PRICE_CURRENCY})`;
