import type { InferencePointJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';

/**
 * A serving point's memory per GPU in words: weights and KV cache, with the draft's share of each when it
 * speculates and, with a shared prefix, the KV cache a request holds of its own apart from the prefix's.
 */

/**
 * A shared prefix's KV cache on each GPU: the protocol reports a point's KV cache whole, b × each request's own
 * part + the prefix's blocks held once for all of them, so the prefix's `bytes` are split out by the caller
 * (serving-answer.ts); undefined where they could not be.
 */
export interface SharedPrefixKv {
  tokens: number;
  bytes?: number;
}

/** "199 MiB per request on each GPU", and with a shared prefix "…, plus 160 MiB for the 4,096-token shared prefix, held once". */
function perRequestText(x: InferencePointJson, prefix: SharedPrefixKv | undefined): string {
  if (prefix === undefined) return `${formatBytes(x.kvCacheBytesPerGpu / x.batch)} per request on each GPU`;
  const shared = `the ${prefix.tokens.toLocaleString('en-US')}-token shared prefix, held once`;
  // Never the prefix spread over the requests: with no split, the whole is said as what it holds.
  if (prefix.bytes === undefined) return `${x.batch.toLocaleString('en-US')} request${x.batch === 1 ? '' : 's'} and ${shared}`;
  return `${formatBytes((x.kvCacheBytesPerGpu - prefix.bytes) / x.batch)} per request on each GPU, plus ${formatBytes(prefix.bytes)} for ${shared}`;
}

/**
 * A point's memory per GPU: "79.6 GiB of 79.6 GiB: weights 16.4 GiB, KV cache 61.2 GiB (90.0 MiB per request on
 * each GPU, …)"; speculating, the draft's share of each: "weights 33.4 GiB (the draft's 589 MiB), KV cache 44.0 GiB
 * (the draft's 4.00 GiB; 199 MiB per request on each GPU)".
 */
export function memoryText(x: InferencePointJson, prefix?: SharedPrefixKv): string {
  const perRequest = perRequestText(x, prefix);
  const spec = x.speculation;
  const whole = `${formatBytes(x.totalBytesPerGpu)} of ${formatBytes(x.capacityBytes)}`;
  if (spec === undefined) return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)}, KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${perRequest})`;
  return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)} (the draft's ${formatBytes(spec.draftWeightsBytesPerGpu)}), `
    + `KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (the draft's ${formatBytes(spec.draftKvCacheBytesPerGpu)}; ${perRequest})`;
}
