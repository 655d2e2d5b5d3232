import type { Scanner } from './quantities.ts';
import { NEGATION } from './switch-words.ts';

/**
 * Weights kept in FP8 themselves ("fp8 weights", "fp8 params", Megatron's --fp8-param-gather, NeMo's fp8_params): the
 * scenario's training.fp8Params, which needs FP8 arithmetic. Without it Transformer Engine keeps an FP8 copy and its
 * transpose beside each 16-bit weight matrix (protocol scenario-schema.ts). QA: "with fp8 weights" planned FP8 arithmetic
 * with the 16-bit weights, the fp8Params dropped unsaid (38.3 GiB a GPU where the API plans 34.4 GiB). Read before the
 * precision, which would take its "fp8" alone.
 */

/**
 * "fp8 weights", "fp8 params (gather)", never the weights' gradients ("fp8 weight gradients", "fp8 wgrad": the GEMM that
 * computes them, FP8 arithmetic alone; QA: planned FP8 weights).
 */
const FP8_NAMED = String.raw`\bfp8[\s-]*(?:model[\s-]*)?(?:weights?|params?|parameters?)(?:[\s-]*(?:all[\s-]*)?gather)?\b(?![\s-]*(?:grad\w*|wgrad))`;
/**
 * "the weights (kept) in fp8", "weights stored in fp8": the weights named as such, never a model's size ("13 billion parameters
 * in fp8", "13B params in fp8": the model in FP8 arithmetic; QA: planned FP8 weights).
 */
const IN_FP8 = String.raw`(?:\bthe\s(?:model\s)?(?:weights?|params?|parameters?)\s(?:kept\s|stored\s|held\s)?|\b(?:weights?|params?|parameters?)\s(?:kept|stored|held)\s)in\sfp8\b`;
const FP8_WEIGHTS = new RegExp(String.raw`(?:(?<off>${NEGATION})|\b(?:with|using|keep(?:ing)?|store|storing)\s)?(?:${FP8_NAMED}|${IN_FP8})`);

/** The words that keep the weights in FP8, or that say not to ("without fp8 weights": off), taken out of the text. */
export function takeFp8Params(s: Scanner): { on: boolean; written: string } | undefined {
  const m = s.take(FP8_WEIGHTS);
  return m === undefined ? undefined : { on: m.groups?.off === undefined, written: m[0].trim() };
}
