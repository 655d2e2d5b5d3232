import type { Scanner } from './quantities.ts';

/**
 * Dropout on or off ("with dropout", "no dropout", "dropout 0.1", "dropout=0"): the scenario's training.dropout (hidden
 * and attention dropout, whose masks are kept for the backward pass). Its rate is not an input: a mask takes a byte an
 * element and its kernel the same time at any rate, so any rate above 0 plans it on. QA: "with dropout" was said "not
 * modelled" while the planner models it (the API's training.dropout).
 */
const NAME = String.raw`(?:(?:hidden|attention|attn|residual)(?:\s+and\s+(?:hidden|attention|attn))?[\s-]+)?dropout`;
const OFF = new RegExp(String.raw`(?:\b(?:no|without|disabl\w*|turn(?:ing|ed)?\s+off)|\bw\/o)\s+(?:the\s+|any\s+)?${NAME}\b|\b${NAME}\s*(?:=|:|of|at|is)?\s*(?:0(?:\.0+)?(?![\d.])\s*%?|off\b|none\b|false\b|disabled\b)`);
const ON = new RegExp(String.raw`(?:\b(?:with|using)\s+)?\b${NAME}\b(?:\s*(?:=|:|of|at|is)?\s*(?:0?\.\d+|\d+(?:\.\d+)?\s*%|on\b|true\b|enabled\b))?`);

/** Dropout stated on or off, with the words read, taken out of the text; undefined where the text says none. */
export function takeDropout(s: Scanner): { dropout: boolean; written: string } | undefined {
  const off = s.take(OFF);
  if (off !== undefined) return { dropout: false, written: off[0].trim() };
  const on = s.take(ON);
  return on === undefined ? undefined : { dropout: true, written: on[0].trim() };
}
