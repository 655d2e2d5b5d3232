import { parseCount } from '@trainplan/units';

/**
 * The pieces numbers are written with, shared by the count patterns (tokens, GPU-hours, batches, cluster
 * sizes: quantities.ts), the money patterns (prices, budgets: price.ts) and model sizes (models.ts), so that
 * each reads "2.5", "1.5M" and "2 million" as the others do.
 */

/** A decimal without sign or exponent: "2", "2.5". Not a group: a pattern captures it where it needs it. */
export const DECIMAL = String.raw`\d+(?:\.\d+)?`;

/** The word for each scale letter units' parseCount reads ("2T" = "2 trillion"). */
const SCALE_WORDS = { k: 'thousand', m: 'million', b: 'billion', t: 'trillion' } as const;

/** Alternatives for the scales given, letters first then words ("k|m|thousand|million"), as parseCount reads them. */
const scales = (...letters: (keyof typeof SCALE_WORDS)[]): string => [...letters, ...letters.map((l) => SCALE_WORDS[l])].join('|');

/** A count's scales: "4k", "2T tokens", "300 billion tokens", "1.7M GPU-hours". */
export const COUNT_SCALE = scales('k', 'm', 'b', 't');
/** A sum of money's: "$500k", "2 million dollars"; no trillions, which no training budget runs to. */
export const MONEY_SCALE = scales('k', 'm', 'b');
/** A model size's: "350M", "70B", "1T" (never thousands: "4k" is a context or a count, no model). */
export const SIZE_SCALE = scales('m', 'b', 't');

/** A count as two groups, its number and its optional scale ("1.7", "m"): read with scaledCount. */
export const SCALED_COUNT = String.raw`(${DECIMAL})\s*(${COUNT_SCALE})?`;

/** A count read from its number and scale groups ("1.7" and "m": 1.7 million), by units' parseCount. */
export const scaledCount = (number: string | undefined, scale: string | undefined): number | undefined =>
  parseCount(`${number}${scale ?? ''}`);

/** A count of GPUs, nodes or prompt tokens, as two groups: its number and a "k" ("16k", "2k"), whose size the reader decides. */
export const KILO_NUMBER = String.raw`(${DECIMAL})(k?)`;
