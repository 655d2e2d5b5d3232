import type { Scanner } from './quantities.ts';

/**
 * A weight format the protocol has no name for (its precisions are FP16, BF16 and FP8): "int8", "8-bit", "w8a8" are
 * planned as FP8, one byte a weight either way, and said so; a 4-bit one ("int4", "AWQ", "GPTQ", "NF4") or a float format
 * the planner has no name for ("NVFP4", "MXFP8", "FP6": LOW_FLOAT) cannot be planned, and is said back rather than silently
 * planned in BF16 at up to four times its memory. Read after the KV cache's format ("int8 kv cache" is the cache's) and the
 * named precisions.
 */

type WeightFormat = { precision: 'fp8'; reading: string } | { problem: string };

const EIGHT_BIT = /\b(int8|8[\s-]*bits?|w8a8|w8a16)\b/;
const FOUR_BIT = /\b(int4|4[\s-]*bits?|awq|gptq|nf4|w4a16|w4a8)\b/;
/**
 * Floating-point formats below FP8 and block-scaled ones, which train as well as serve: NVFP4 (FP4 in blocks of 16 with FP8
 * scales: NVIDIA 2025, "Pretraining Large Language Models with NVFP4", arXiv:2509.25149), the OCP Microscaling formats MXFP8,
 * MXFP6 and MXFP4 (blocks of 32 with power-of-two scales: OCP MX specification v1.0, 2023), FP6, FP4. The planner's
 * precisions are FP16, BF16 and FP8 (per-tensor scaled, Transformer Engine's default recipe on Hopper): a question in one of
 * these was planned in BF16 with "BF16" said as assumed (QA), and FP8, the nearest the planner has, is named instead.
 * Read in a training question as in a serving one: these formats train (NVIDIA's NVFP4 run was a pretraining).
 */
const LOW_FLOAT = /\b(nvfp4|mxfp[468]|fp[46](?:[\s-]*e\dm\d)?|6[\s-]*bits?)\b/;

/** "NVFP4", "MXFP8", "FP6", "6-bit": a format as its specification writes it. */
const formatName = (written: string): string => written.toUpperCase().replace(/(\d)[\s-]*BITS?$/, '$1-bit').replace(/\s+/g, '-');

/**
 * Reads (and blanks) a float format the planner does not model (LOW_FLOAT), with why; undefined when there is none. Read
 * beside a precision named too ("is nvfp4 faster than fp8"), never dropped for it.
 */
export function takeLowFloat(s: Scanner): { problem: string } | undefined {
  const float = s.take(LOW_FLOAT);
  if (float === undefined) return undefined;
  return { problem: `${formatName(float[1] ?? '')} is not modelled: the precisions planned are FP16, BF16 and FP8; FP8 is the nearest (say "fp8")` };
}

/** Reads (and blanks) a weight format given by no precision the protocol names; undefined when there is none. */
export function takeWeightFormat(s: Scanner): WeightFormat | undefined {
  const float = takeLowFloat(s);
  if (float !== undefined) return float;
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
