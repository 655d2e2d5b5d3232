import type { CollectiveCost } from '@trainplan/collectives';

/**
 * The widget's stand-in for @trainplan/collectives' bandwidth-bound.ts, swapped in by the bundle (build.ts): the check
 * that no closed form passes the bandwidth lower bound, which throws only on a modelling error. The same closed forms
 * run it on every answer of the CLI and the API, and the collectives' tests sweep machines, ops and algorithms against
 * it; in the browser it would only turn such a bug into an error message. Its bounds and their messages cost about
 * 0.5 kB of the 80 kB gzip budget.
 */
export const assertWithinBandwidthBound = (_request: unknown, cost: CollectiveCost): CollectiveCost => cost;
