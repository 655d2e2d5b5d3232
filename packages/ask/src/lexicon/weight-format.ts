import type { Scanner } from './quantities.ts';

/**
 * A weight format the protocol has no name for (its precisions are FP16, BF16 and FP8): "int8", "8-bit", "w8a8" are
 * planned as FP8, one byte a weight either way, and said so; a 4-bit one ("int4", "AWQ", "GPTQ", "NF4", "FP4") cannot
 * be planned, and is said back rather than silently planned in BF16 at four times its memory. Read after the KV
 * cache's format ("int8 kv cache" is the cache's) and the named precisions.
 */

export type WeightFormat = { precision: 'fp8'; reading: string } | { problem: string };

const EIGHT_BIT = /\b(int8|8[\s-]*bits?|w8a8|w8a16)\b/;
const FOUR_BIT = /\b(int4|4[\s-]*bits?|awq|gptq|nf4|fp4|mxfp4|w4a16|w4a8)\b/;

/** Reads (and blanks) a weight format given by no precision the protocol names; undefined when there is none. */
export function takeWeightFormat(s: Scanner): WeightFormat | undefined {
  const four = s.take(FOUR_BIT);
  if (four !== undefined) {
    return { problem: `${four[1]?.toUpperCase().replace(/(\d)[\s-]*BITS?$/, '$1-bit')} weights are not modelled: the weights are planned in FP16, BF16 or FP8 (say "fp8" for one byte a weight)` };
  }
  const eight = s.take(EIGHT_BIT);
  if (eight === undefined) return undefined;
  return { precision: 'fp8', reading: `${eight[1]?.toUpperCase().replace(/(\d)[\s-]*BITS?$/, '$1-bit')} weights planned as FP8: one byte a weight either way` };
}

/**
 * "A quantized llama 3 70b", "quantised weights": quantized with no format named, in a serving question (parse.ts reads it
 * only there: a training question's "quantized gradients" are no weight format). Taken as FP8, one byte a weight, the
 * 8-bit format the protocol plans (as FP8 and SmoothQuant's W8A8 serve), and said so: never planned in BF16 unsaid, as if
 * "quantized" had not been written. "Quantized kv cache" is read before, as the cache's (kv-cache.ts).
 */
export function takeQuantizedWeights(s: Scanner): Extract<WeightFormat, { precision: 'fp8' }> | undefined {
  const m = s.take(/\bquanti[sz]ed\b/);
  if (m === undefined) return undefined;
  return {
    precision: 'fp8',
    reading: `"${m[0]}" with no format named taken as FP8, one byte a weight (8-bit, as FP8 and W8A8 serving quantize; 4-bit formats such as AWQ and GPTQ are not modelled): say "bf16" for unquantized weights`,
  };
}
