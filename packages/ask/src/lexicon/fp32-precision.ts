import type { Scanner } from './quantities.ts';

/**
 * FP32 or TF32 asked as the precision a model trains or serves in: "in fp32", "in FP32", "full fp32", "in TF32", "single
 * precision", "float32". The planner's precisions are FP16, BF16 and FP8 (the protocol's PrecisionId): no GPU rate or memory
 * of FP32 matrix math is modelled, so such a question is planned in the 16-bit precision and said so, never planned in BF16
 * unsaid (QA: "train llama3-8b in fp32 on 64 H100" planned BF16 with no word of FP32). The 16-bit plan keeps FP32 where mixed
 * precision keeps it: Megatron's mixed precision holds fp32 main params (master weights), fp32 gradients and Adam's fp32
 * moments beside its 16-bit weights (Micikevicius et al. 2018, "Mixed Precision Training"; ../shared/docs/model-reference.md
 * §3: 18 bytes a parameter), which its memory counts. Read on the normalised text, after the KV cache's format ("fp32 kv
 * cache" is the cache's, kv-cache.ts).
 *
 * Not the FP32 parts of a mixed-precision run, which ask no precision of the run: "fp32 master weights", "fp32 gradients",
 * "fp32 accumulation", "optimizer states in fp32", "softmax in fp32". Nor "full precision" alone, which a serving question
 * says of unquantized weights (BF16 as released) as often as of FP32.
 */

/** The names of FP32 and TF32 as a run's precision. */
const NAME = String.raw`(?:full[\s-]+)?(?:fp32|float32|tf32|single[\s-]*precision)`;
/** What mixed precision keeps in FP32, after the name: "fp32 master weights", "fp32 gradients", "fp32 optimizer states". */
const PART = String.raw`(?:master|main|gradients?|grads?|accumulat\w*|optimi[sz]ers?|states?|moments?|adam|all[\s-]*reduces?|reduc\w*|softmax|logits?|loss|norms?)`;
/** The same parts before "in fp32": "optimizer states in fp32", "accumulate in fp32", "master weights kept in fp32". */
const PART_BEFORE = String.raw`(?<!\b${PART}(?:\s+weights?|\s+params?)?\s+(?:(?:kept|held|stored|done|computed|run)\s+)?(?:in|as|at)\s+)`;
const FP32_ASKED = new RegExp(String.raw`${PART_BEFORE}\b(${NAME})\b(?![\s-]+${PART}\b)`);

/** An FP32 or TF32 precision asked: its words as normalised, and the name the answer says ("FP32", "TF32"). */
interface Fp32Asked {
  written: string;
  name: 'FP32' | 'TF32';
}

/** Reads (and blanks) FP32 or TF32 asked as a run's precision; undefined where none is. */
export function takeFp32(s: Scanner): Fp32Asked | undefined {
  const m = s.take(FP32_ASKED);
  if (m === undefined) return undefined;
  return { written: m[0], name: /tf32/.test(m[0]) ? 'TF32' : 'FP32' };
}

/** "BF16", "FP16", "FP8": a planned precision as the answer names it. */
const precisionName = (precision: string): string => precision.toUpperCase();

/**
 * Why FP32 or TF32 asked is not planned, and what is: a training plan in its 16-bit (or FP8) mixed precision, which keeps
 * FP32 master weights, gradients and moments; a serving plan in 16-bit weights, half FP32's bytes.
 */
export function fp32NotPlanned(asked: Fp32Asked, planned: string, serving: boolean): string {
  const only = 'only FP16, BF16 and FP8 are';
  if (serving) return `${asked.name} weights are not modelled, ${only}: served in ${precisionName(planned)} weights, half the bytes of FP32's`;
  return `${asked.name} training is not modelled, ${only}: planned in ${precisionName(planned)} mixed precision, which keeps FP32 master weights, `
    + 'gradients and Adam moments as Megatron\'s mixed precision keeps fp32 main params (Micikevicius et al. 2018), so its memory counts them; '
    + `${asked.name} matrix math itself, at a lower peak than ${precisionName(planned)}'s, is not`;
}
