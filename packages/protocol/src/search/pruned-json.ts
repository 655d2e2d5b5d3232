import { PRUNE_REASON_TEXT, type PruneTally } from '@trainplan/search';
import type { PrunedJson } from './wire.ts';

/**
 * The search's tally of what it ruled out, one entry per reason with its count, its text (PRUNE_REASON_TEXT) and one
 * example. A module of its own: the browser widget, which shows no tally, builds without it (apps/widget build.ts).
 */
export function prunedJson(tally: PruneTally): PrunedJson[] {
  return (Object.keys(tally.counts) as (keyof typeof tally.counts)[])
    .filter((reason) => tally.counts[reason] > 0)
    .map((reason) => ({
      reason,
      count: tally.counts[reason],
      description: PRUNE_REASON_TEXT[reason],
      ...(tally.examples[reason] !== undefined && { example: tally.examples[reason] }),
    }));
}
