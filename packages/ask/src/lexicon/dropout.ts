import type { Scanner } from './quantities.ts';
import { AFFIRMATION, BOTH, bothWays, NEGATION, OFF_VALUE, ON_VALUE, offAfter, takeMentions } from './switch-words.ts';

/**
 * Dropout on or off ("with dropout", "no dropout", "dropout 0.1", "dropout=0"): the scenario's training.dropout (hidden
 * and attention dropout, whose masks are kept for the backward pass). Its rate is not an input: a mask takes a byte an
 * element and its kernel the same time at any rate, so any rate above 0 plans it on. QA: "with dropout" was said "not
 * modelled" while the planner models it (the API's training.dropout); "don't use dropout", "dropout set to 0" and
 * "dropout-free" then planned it on, and "--hidden-dropout 0.1 --attention-dropout 0.0" planned it off, "0.1" not understood.
 */

/** Which dropout: hidden, attention or residual, or none named. */
const KIND = String.raw`(?<kind>hidden|attention|attn|residual)`;
/**
 * The name: "dropout", "drop-out", "hidden dropout", "attention and hidden dropout". Never a node's or a GPU's ("5% node
 * dropout", "GPUs dropout 2% of the time": machines lost, QA) nor dropout over time.
 */
const NAME = String.raw`(?<!\b(?:nodes?|gpus?|workers?|machines?|hosts?|ranks?|servers?|devices?|hw)\s)(?:${KIND}(?:\s(?:and|&)\s(?:hidden|attention|attn))?[\s-])?\bdrop[\s-]?outs?\b(?![\s-]?(?:rates?\s)?\d+(?:\.\d+)?\s?%\s(?:of\s(?:the\s)?time|of\s(?:nodes|gpus)))`;
/** Its rate's words before the value: "rate", "probability", "p", "ratio", "prob". */
const RATE = String.raw`(?:\s(?:rates?|probability|prob|ratio|p))?`;
/** A rate: "0.1", ".1", "10%". */
const NUMBER = String.raw`(?<rate>\d*\.?\d+)\s?(?<percent>%)?(?![\d.])`;
/** Between the name and its value: "=", ":", "of", "at", "is", "set to", "turned". */
const TO_VALUE = String.raw`\s?(?:=|:)?\s?(?:is\s|was\s|of\s|at\s)?(?:turned\s|switched\s|set\s(?:to\s)?)?`;
/** Every mention, with what turns it on or off; groups name which. */
const MENTION = new RegExp(String.raw`(?:(?<both>${BOTH})|(?<off>${NEGATION})|${AFFIRMATION})?${NAME}(?:${RATE}${TO_VALUE}(?:\b(?<after>${OFF_VALUE}|${ON_VALUE})\b|${NUMBER})|(?<free>-free)\b)?`, 'g');

/** The dropout stated, with the words read; `other`, a mention of the same dropout saying the other; `both`, "with and without". */
interface DropoutRead {
  dropout?: boolean;
  written: string;
  other?: string;
  both?: string;
}

/** One mention on or off: off after a negation, an off value, "-free" or a rate of 0. */
function onOf(g: Record<string, string | undefined>): boolean {
  if (g.off !== undefined || g.free !== undefined) return false;
  if (g.after !== undefined) return !offAfter(g.after);
  return g.rate === undefined || Number(g.rate) > 0;
}

/**
 * Dropout stated on or off, every mention taken out of the text; undefined where the text says none. Hidden and attention
 * dropout are one switch: on where either is on (a rate above 0), so "--hidden-dropout 0.1 --attention-dropout 0.0" is on;
 * the same dropout said on and off is a contradiction, the first planned.
 */
export function takeDropout(s: Scanner): DropoutRead | undefined {
  // Its mentions are taken as every switch's are (switch-words.ts); read here for the rate and the kind of dropout each names.
  const found = takeMentions(s, MENTION);
  if (found.length === 0) return undefined;
  const both = bothWays(found);
  if (both !== undefined) return { written: both, both };
  const mentions = found.map((m) => ({ kind: (m.groups?.kind ?? '').replace('attn', 'attention'), on: onOf(m.groups ?? {}), written: m[0].trim() }));
  const first = mentions.find((m) => m.on) ?? mentions[0]!;
  const other = mentions.find((m) => m.kind === first.kind && m.on !== first.on);
  // Planned as its first mention where the same dropout is said both ways; else on where any is.
  const planned = other !== undefined ? mentions[0]! : first;
  const contradicting = mentions.find((m) => m.kind === planned.kind && m.on !== planned.on);
  return { dropout: planned.on, written: planned.written, ...(contradicting !== undefined && { other: contradicting.written }) };
}
