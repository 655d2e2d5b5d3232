import { KV_BLOCK_TOKENS, type InferencePointJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';

/**
 * A serving point's memory per GPU in words: weights and KV cache, with the draft's share of each when it
 * speculates and, with a shared prefix, the KV cache a request holds of its own apart from the prefix's.
 */

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * "199 MiB per request on each GPU", and with a shared prefix "…, plus 160 MiB for the 4,096-token shared prefix, held once".
 * The protocol gives the prefix's cached part per GPU (sharedKvCacheBytesPerGpu, inside kvCacheBytesPerGpu): the rest is
 * the requests' own, never the prefix spread over them.
 */
function perRequestText(x: InferencePointJson): string {
  const shared = x.sharedKvCacheBytesPerGpu ?? 0;
  const perRequest = `${formatBytes((x.kvCacheBytesPerGpu - shared) / x.batch)} per request on each GPU`;
  const prefix = x.sharedPrefixTokens;
  const cached = x.cachedPrefixTokens;
  if (prefix === undefined || cached === undefined) return perRequest;
  // Only whole KV blocks are shared: a prefix shorter than one is each request's own.
  if (cached === 0) return `${perRequest}; the ${n(prefix)}-token shared prefix is shorter than a ${KV_BLOCK_TOKENS}-token KV block, so none of it is cached`;
  const what = cached === prefix ? `the ${n(prefix)}-token shared prefix` : `the ${n(prefix)}-token shared prefix's ${n(cached)} cached tokens`;
  return `${perRequest}, plus ${formatBytes(shared)} for ${what}, held once`;
}

/**
 * A point's memory per GPU: "79.6 GiB of 79.6 GiB: weights 16.4 GiB, KV cache 61.2 GiB (90.0 MiB per request on
 * each GPU, …)"; speculating, the draft's share of each: "weights 33.4 GiB (the draft's 589 MiB), KV cache 44.0 GiB
 * (the draft's 4.00 GiB; 199 MiB per request on each GPU)".
 */
export function memoryText(x: InferencePointJson): string {
  const perRequest = perRequestText(x);
  const spec = x.speculation;
  const whole = `${formatBytes(x.totalBytesPerGpu)} of ${formatBytes(x.capacityBytes)}`;
  if (spec === undefined) return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)}, KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${perRequest})`;
  return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)} (the draft's ${formatBytes(spec.draftWeightsBytesPerGpu)}), `
    + `KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (the draft's ${formatBytes(spec.draftKvCacheBytesPerGpu)}; ${perRequest})`;
}
