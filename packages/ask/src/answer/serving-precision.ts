import type { AskParameters } from '../question.ts';

/**
 * The number formats of a serving answer: the weights' precision and the KV cache's own (the protocol's
 * kvCachePrecision, vLLM's kv_cache_dtype), which defaults to the weights'.
 */

type Format = NonNullable<AskParameters['precision']>;

const weightsOf = (p: AskParameters): Format => p.precision ?? 'bf16';
const upper = (f: Format): string => f.toUpperCase();

/** "BF16", or with a KV cache of its own format "BF16 weights · FP8 KV cache" (both named: "FP8 weights and KV cache"). */
export function precisionConfiguration(p: AskParameters): string {
  const weights = weightsOf(p);
  const kv = p.kvCachePrecision;
  if (kv === undefined) return upper(weights);
  return kv === weights ? `${upper(weights)} weights and KV cache` : `${upper(weights)} weights · ${upper(kv)} KV cache`;
}

/**
 * The KV cache's format said where it is not the 16-bit default: one stated beside other weights, or an FP8 cache
 * that follows FP8 weights unstated (the protocol's default, where vLLM keeps a 16-bit cache unless told).
 */
export function kvCacheAssumption(p: AskParameters): string[] {
  const weights = weightsOf(p);
  const kv = p.kvCachePrecision;
  if (kv === undefined) {
    return weights === 'fp8' ? ['the KV cache in FP8 too, as the weights (vLLM keeps a 16-bit cache unless its kv_cache_dtype is "fp8": say "bf16 kv cache" for that)'] : [];
  }
  if (kv === weights) return [];
  if (kv === 'fp8') {
    return [`an FP8 KV cache beside ${upper(weights)} weights (vLLM's kv_cache_dtype "fp8"): each cached token takes half the bytes, so about twice the requests fit, `
      + 'and a decode step reads half as much of the cache; attention still computes in 16 bits'];
  }
  return weights === 'fp8'
    ? [`a ${upper(kv)} KV cache beside FP8 weights: each cached token takes twice an FP8 cache's bytes`]
    : [`a ${upper(kv)} KV cache beside ${upper(weights)} weights: the same two bytes a value`];
}
