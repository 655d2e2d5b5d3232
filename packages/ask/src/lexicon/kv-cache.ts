import type { AskParameters } from '../question.ts';
import type { Scanner } from './quantities.ts';

/**
 * The KV cache's own number format in a serving question (the protocol's kvCachePrecision, vLLM's kv_cache_dtype):
 * "fp8 kv cache", "kv cache in fp8", "kv_cache_dtype=fp8", "8-bit kv cache", "quantized kv cache (fp8)". Read before
 * the precision, so "fp8" of the cache is never the weights' ("serve 70b in fp8" still is).
 */

export interface KvCacheFacts {
  kvCachePrecision?: NonNullable<AskParameters['kvCachePrecision']>;
  /** How a format the protocol has no name for was read ("8-bit", "int8", "quantized": FP8, one byte a value). */
  reading?: string;
  /** A format that cannot be planned (a 4-bit cache). */
  problem?: string;
}

const KV = String.raw`kv[\s-]*cache`;
/** A format as written: FP8 (with its variant), FP16, BF16, INT8/INT4, "8-bit"/"4-bit". */
const FORMAT = String.raw`(fp8(?:[\s-]*e[45]m[23])?|fp16|bf16|int[48]|[48][\s-]*bits?)`;

/** "fp8 kv cache", "8-bit quantized kv-cache", "quantized kv cache (fp8)", "a quantized kv cache in fp8". */
const BEFORE = new RegExp(String.raw`\b(?:${FORMAT}(?:[\s-]*quanti[sz]ed)?|(quanti[sz]ed))[\s-]*${KV}\b(?:\s*(?:\(\s*|(?:in|to|as)\s+)${FORMAT}\b\s*\)?)?`);
/** "kv cache in fp8", "kv-cache fp8", "kv cache dtype=fp8", "kv cache quantized to fp8", "kv cache (fp8)", "kv cache quantized". */
const AFTER = new RegExp(String.raw`\b${KV}(?:[\s-]*(?:dtype|data[\s-]*type|precision|format|type|quanti[sz](?:ed|ation)))?\s*(?:\(\s*|(?:in|to|as|at|of|=|:|is|with)\s*)?${FORMAT}\b\s*\)?|\b${KV}[\s-]*(quanti[sz]ed)\b`);

function factsOf(written: string): KvCacheFacts {
  if (/^fp8/.test(written)) return { kvCachePrecision: 'fp8' };
  if (written === 'fp16' || written === 'bf16') return { kvCachePrecision: written };
  if (/4/.test(written)) return { problem: `${written === 'int4' ? 'an INT4' : 'a 4-bit'} KV cache is not modelled: the KV cache is planned in FP16, BF16 or FP8 (say "fp8 kv cache")` };
  if (written === 'int8') return { kvCachePrecision: 'fp8', reading: 'an INT8 KV cache planned as FP8: one byte a value either way (TensorRT-LLM\'s INT8 KV cache; vLLM\'s kv_cache_dtype is FP8)' };
  const what = /^quanti/.test(written) ? 'a quantized' : 'an 8-bit';
  return { kvCachePrecision: 'fp8', reading: `${what} KV cache taken as FP8, one byte a value (vLLM's kv_cache_dtype "fp8")` };
}

/** Reads (and blanks) the KV cache's format; undefined when the question names none. */
export function takeKvCachePrecision(s: Scanner): KvCacheFacts | undefined {
  const m = s.take(BEFORE) ?? s.take(AFTER);
  if (m === undefined) return undefined;
  // A format named after "quantized" is the one meant ("quantized kv cache (fp8)"); else the one before or after the cache.
  const written = [m[3], m[1], m[2]].find((x) => x !== undefined);
  return written === undefined ? undefined : factsOf(written);
}
