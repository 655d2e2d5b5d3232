import { flopText } from '../format.ts';
import type { Scanner } from './quantities.ts';

/**
 * A training compute given in FLOPs: "what can I train with 5.76e23 FLOPs on H100", "the compute-optimal model for 1e24
 * FLOPs of compute". A count of floating-point operations, not a rate: "989 TFLOP/s", "1e15 flops per second" and "TFLOPS"
 * are a GPU's speed (gpu-facts.ts). The compute-optimal size is then read from it directly, N = √(C/120) and D = 20·N
 * (answer/flop-budget-size.ts). QA: the question was answered with the H100's datasheet, its "FLOPs" read as a peak asked.
 * Read on the normalised text, where "5.76e23" and "5.76 × 10^23" are written in digits (numbers.ts writtenNumbers).
 */

/** A count of FLOPs, group 1 the count: not one a second, an hour or a GPU ("flop/s", "flops per gpu"). */
const FLOPS = /(?<![\w.$€£])(\d+(?:\.\d+)?)\s*(?:total\s+)?(?:training\s+)?(?:compute\s+)?flops?\b(?!\s*(?:\/\s*|(?:per|a|an|each)\s+)(?:s|sec|second|hour|h|gpu|node|day)\b)(?:\s+of\s+(?:training\s+)?compute\b)?/;

/**
 * A compute stated: its FLOPs, its words as papers write them ("5.76e23 FLOPs"; the question's own are in digits once
 * normalised), and where those words end in the text read, for money joined to them ("… FLOPs and $2M": price.ts).
 */
export interface FlopBudget {
  flops: number;
  written: string;
  end: number;
}

const budgetOf = (m: RegExpExecArray | null | undefined): FlopBudget | undefined =>
  (m === null || m === undefined ? undefined : { flops: Number(m[1]), written: `${flopText(Number(m[1]))} FLOPs`, end: m.index + m[0].length });

/** The compute a (normalised) question gives in FLOPs, without taking it; undefined where none is given. */
export const flopBudgetOf = (normal: string): FlopBudget | undefined => budgetOf(FLOPS.exec(normal));

/** Reads (and blanks) the compute a question gives in FLOPs, so that no count reads its digits. */
export const takeFlopBudget = (s: Scanner): FlopBudget | undefined => budgetOf(s.take(FLOPS));

/** Why a compute in FLOPs is not read where no compute-optimal size is asked (a model named, or a token count fixed). */
export const FLOP_BUDGET_NOT_READ = 'a compute in FLOPs sizes the compute-optimal model, asked with no model and no tokens named '
  + '("what can I train with 5.76e23 FLOPs on H100"); a plan of a model takes a budget in GPU-hours or money at a price';
