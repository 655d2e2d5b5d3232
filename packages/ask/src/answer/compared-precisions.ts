import { restated } from './compared-gpus.ts';
import type { ParsedQuestion } from '../question.ts';

/**
 * A question comparing precisions ("is fp8 faster than bf16 for llama3-70b on 512 H100", "does fp8 help …"): the question
 * asked in each precision, each planned on its own, set side by side as GPUs compared are (compared-gpus.ts' sideBySide),
 * with the MFU (its denominator said: describe-estimate.ts' mfuText) and memory beside the time, what FP8 changes.
 */

/** The figures a precision's line adds to its time and GPU-hours. */
export const PRECISION_FIGURES = ['MFU', 'Memory per GPU'] as const;

/** The question asked in each precision, the first as asked, with each one's label; undefined for a question of one. */
export function comparedPrecisionsOf(q: ParsedQuestion): { names: string[]; questions: ParsedQuestion[] } | undefined {
  const { comparedPrecisions: others, fp8Params, ...stated } = q.stated;
  if (others === undefined || stated.precision === undefined) return undefined;
  const precisions = [stated.precision, ...others];
  // FP8 weights asked ("with fp8 weights") are the FP8 plan's: a 16-bit plan keeps 16-bit weights (the protocol refuses fp8Params beside them).
  const questions = precisions.map((precision) => restated(q, { ...stated, precision, ...(precision === 'fp8' && fp8Params !== undefined && { fp8Params }) }));
  return { names: precisions.map((p) => p.toUpperCase()), questions };
}
