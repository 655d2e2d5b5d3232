import { defaultPrecision } from '@trainplan/protocol';
import { ASKS_FP64 } from '../lexicon/gpu-facts.ts';
import { takeFp32 } from '../lexicon/fp32-precision.ts';
import { takeFp8Params } from '../lexicon/fp8-params.ts';
import { takeComparedPrecisions } from '../lexicon/precisions.ts';
import { takePrecision } from '../lexicon/quantities.ts';
import { takeLowFloat, takeWeightFormat } from '../lexicon/weight-format.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';
import type { ServingRead } from './serving-read.ts';

/** The precision written: planned, compared with another, FP64 or FP32 asked, or a weight format no plan runs in. */
export type PrecisionRead = ReturnType<typeof readPrecision>;

/**
 * The precision, read after the layouts and the KV cache's format ("fp8 kv cache" is no weights' format); `kvGpu`, the
 * GPU planned, gives the 16-bit format a comparison is planned against where none is written.
 */
export function readPrecision(st: ParseState, { kvGpu }: ServingRead) {
  const { s, text, normal, stated, problems, notRead } = st;
  // "With fp8 weights": FP8 arithmetic with the weights kept in FP8 (lexicon/fp8-params.ts), before the precision alone.
  // "Without fp8 weights" keeps the 16-bit weights, the default: its words taken, nothing set.
  const fp8Said = takeFp8Params(s);
  const fp8Weights = fp8Said?.on === true ? fp8Said.written : undefined;
  const named = takePrecision(s);
  stated.precision = named;
  if (fp8Weights !== undefined && (named === undefined || named === 'fp8')) {
    stated.precision = 'fp8';
    stated.fp8Params = true;
  } else if (fp8Weights !== undefined && named !== undefined) {
    // FP8 weights feed FP8 GEMMs only (the protocol refuses fp8Params beside another precision): the precision named is planned.
    notRead.push({ phrase: `"${asTyped(text, fp8Weights)}"`, why: `FP8 weights need FP8 arithmetic, and the plan is in ${named.toUpperCase()} as asked; say "fp8" for both` });
  }
  // "in fp64", "double precision": a precision no plan runs in (lexicon/gpu-facts.ts FP64_NOT_KEPT), said not read below
  // where a run is planned, never planned in BF16 unsaid (QA: "train llama3-8b in fp64 on 64 H100").
  const fp64 = s.take(ASKS_FP64);
  // "in fp32", "in tf32", "single precision": no precision the planner has (lexicon/fp32-precision.ts), said with the one
  // planned where a run is (default-notes.ts), never BF16 unsaid (QA: "train llama3-8b in fp32 on 64 H100").
  const fp32 = takeFp32(s);
  // "is fp8 faster than bf16", "does fp8 help": both precisions planned, side by side (lexicon/precisions.ts).
  // Not beside GPUs compared ("fp8 on H100 vs A100"): one comparison a question, the GPUs'.
  if (stated.comparedGpus === undefined) stated.comparedPrecisions = takeComparedPrecisions(s, stated.precision, normal, kvGpu === undefined ? 'bf16' : defaultPrecision(kvGpu));
  // "is nvfp4 faster than fp8": a format not modelled beside one that is, said rather than dropped for it.
  const weightFormat = stated.precision === undefined ? takeWeightFormat(s) : takeLowFloat(s);
  if (weightFormat !== undefined && 'problem' in weightFormat) problems.push(weightFormat.problem);
  else if (weightFormat !== undefined) stated.precision = weightFormat.precision;
  return { fp64, fp32, weightFormat, fp8Weights };
}
