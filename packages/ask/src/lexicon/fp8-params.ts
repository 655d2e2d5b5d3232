import type { Scanner } from './quantities.ts';

/**
 * Weights kept in FP8 themselves ("fp8 weights", "fp8 params", Megatron's --fp8-param-gather, NeMo's fp8_params): the
 * scenario's training.fp8Params, which needs FP8 arithmetic. Without it Transformer Engine keeps an FP8 copy and its
 * transpose beside each 16-bit weight matrix (protocol scenario-schema.ts). QA: "with fp8 weights" planned FP8 arithmetic
 * with the 16-bit weights, the fp8Params dropped unsaid (38.3 GiB a GPU where the API plans 34.4 GiB). Read before the
 * precision, which would take its "fp8" alone.
 */
const FP8_WEIGHTS = /(?:\b(?:with|using|keep(?:ing)?|store|storing)\s+(?:the\s+)?)?(?:\bfp8[\s-]*(?:model[\s-]*)?(?:weights?|params?|parameters?)(?:[\s-]*(?:all[\s-]*)?gather)?\b|\b(?:the\s+)?(?:weights?|params?|parameters?)\s+(?:kept\s+|stored\s+|held\s+)?in\s+fp8\b)/;

/** The words that keep the weights in FP8, taken out of the text; undefined where it says none. */
export function takeFp8Params(s: Scanner): string | undefined {
  return s.take(FP8_WEIGHTS)?.[0].trim();
}
