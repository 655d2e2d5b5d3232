import type { AskParameters } from '../question.ts';
import type { Scanner } from './quantities.ts';

/**
 * Activation recompute as a question states it: Megatron's names ("full recompute", "selective", "recompute=none") and the
 * names other frameworks give full recompute, "activation checkpointing" and "gradient checkpointing" (Chen et al. 2016,
 * arXiv:1604.06174, checkpoints each layer's input and recomputes the rest in the backward pass, as Megatron's full
 * recompute does: Korthikanti et al. 2022, §4). QA: "without activation checkpointing" forced full recompute (the negation
 * read "recompute" alone), and so did "should I use activation checkpointing?", a question, not a setting.
 */

/**
 * Other frameworks' names for full recompute: "activation checkpointing", "gradient checkpointing" (never "checkpointing" alone,
 * which saves a model to disk).
 */
const CHECKPOINTING = String.raw`(?:activation|act|gradient|grad)[\s-]*(?:checkpointing|checkpoints?|ckpt)`;
/** Every name of the recompute: "recompute", "activation recomputation", and CHECKPOINTING. */
const NAME = String.raw`(?:${CHECKPOINTING}|(?:activation\s+)?recomput\w*)`;
/** A mode before the name ("full recompute", "selective activation recompute"). */
const MODE = String.raw`(?:full|selective)`;
/**
 * Words that say it is off: "no", "not", "never", "without", "w/o", "don't", "disable(d)", "turn off", "skip", "sans", German
 * "ohne", Spanish "sin", with a verb or a determiner between ("not using", "don't use any", "without using the").
 */
const OFF = String.raw`(?:\bno|\bnot|\bnever|\bwithout|\bw\/o|\b(?:do|does|did)\s*n[o']?t|\bdisabl\w*|\bturn(?:ing|ed)?\s+off|\bskip\w*|\bsans|\bohne|\bsin)(?![\w'])`;
/** Between a negation and the name: a verb of use and a determiner ("using", "use any", "doing the"). */
const FILLER = String.raw`(?:(?:use|using|doing|do|apply|applying|enable|enabling|turn\s+on|with|want|need|needing|require)\s+)?(?:the\s+|any\s+)?`;
/** The name's state said after it: "activation checkpointing off", "recompute: no", "gradient checkpointing turned off". */
const OFF_AFTER = String.raw`\s*(?:=|:)?\s*(?:is\s+|was\s+)?(?:turned\s+|switched\s+|set\s+)?(?:off|disabled|false|no|none)\b`;

/**
 * "without activation checkpointing", "no full recompute", "not using gradient checkpointing", "recompute=none", "activation
 * checkpointing turned off". "not without" is no negation (matched first, NOT_WITHOUT).
 */
const NONE = new RegExp(String.raw`${OFF}\s*${FILLER}(?:${MODE}\s+)?${NAME}|\brecompute\s*(?:=|:)?\s*(?:none|off)\b|\b${NAME}${OFF_AFTER}`);
/** "not without activation checkpointing": two negations, so on. */
const NOT_WITHOUT = new RegExp(String.raw`\bnot\s+without\s+(?:the\s+|any\s+)?(?:(?<mode>${MODE})\s+)?${NAME}`);
/** "selective", unless negated ("not selective", "no selective recompute": the mode refused, not the one meant). */
const SELECTIVE = /(?<!\b(?:not|no|without)\s+)\bselective(?:\s+(?:activation\s+)?recomput\w*)?|\brecompute\s*(?:=|:)?\s*selective\b/;
/** A negated "selective", taken out before FULL is looked for. */
const NOT_SELECTIVE = /\b(?:not|no|without)\s+selective(?:\s+(?:activation\s+)?recomput\w*)?/;
// Megatron's "--recompute-granularity full" too (QA: "--recompute-granularity full --recompute-method uniform" planned none).
const FULL = new RegExp(String.raw`\bfull(?:\s+(?:activation\s+)?recomput\w*)|\brecompute(?:[\s-]*granularity)?\s*(?:=|:)?\s*full\b|\b${CHECKPOINTING}\b`);

/**
 * Whether the recompute is asked about rather than set: "should I use activation checkpointing", "do I need gradient
 * checkpointing", "is activation checkpointing worth it", "with or without recompute", "activation checkpointing or not".
 */
const ASKED = new RegExp(String.raw`\b(?:should|do|does|would|could|can|must|shall)\s+(?:i|we|you|it|one)\s+(?:\w+\s+){0,2}?(?:use|need|enable|turn\s+on|apply|want|try|add|bother\s+with)\s+(?:the\s+|any\s+)?(?:${MODE}\s+)?${NAME}`
  + String.raw`|\b(?:is|does|would|will)\s+(?:${MODE}\s+)?${NAME}\s+(?:\w+\s+)?(?:worth|help|needed|necessary|required|faster|slower|better|make|pay|matter|save)`
  + String.raw`|\bwhether\s+(?:or\s+not\s+)?(?:to\s+)?(?:use\s+)?(?:${MODE}\s+)?${NAME}|\bwith\s+or\s+without\s+(?:${MODE}\s+)?${NAME}|\b${NAME}\s+or\s+not\b`
  + String.raw`|\b(?:need|use)\s+(?:${MODE}\s+)?${NAME}\s*\?|\b(?:which|what)\s+(?:kind\s+of\s+)?${NAME}`);

/** The recompute a question states, or, where it asks whether to use one, the phrase that asks (the search then tries each mode). */
interface RecomputeRead {
  recompute?: AskParameters['recompute'];
  /** The words that ask whether to recompute ("should i use activation checkpointing"): no mode is fixed. */
  asked?: string;
  /** A second phrase that states the opposite of the one read ("without recompute but with activation checkpointing"). */
  conflict?: { read: string; other: string };
}

/** The recompute stated, taken out of the text; a question whether to recompute fixes none. */
export function takeRecompute(s: Scanner): RecomputeRead {
  const asked = s.take(ASKED);
  if (asked !== undefined) return { asked: asked[0].trim() };
  const notWithout = s.take(NOT_WITHOUT);
  if (notWithout !== undefined) return { recompute: notWithout.groups?.mode === 'selective' ? 'selective' : 'full' };
  const none = NONE.exec(s.text);
  // "without full recompute, selective only": the mode named beside the negation is the one meant.
  if (none !== null) {
    s.blank({ index: none.index, length: none[0].length });
    if (s.take(SELECTIVE) !== undefined) return { recompute: 'selective' };
    // "without recompute but with activation checkpointing": both said; the negation is planned, the other said back.
    const other = s.take(FULL);
    return { recompute: 'none', ...(other !== undefined && { conflict: { read: none[0].trim(), other: other[0].trim() } }) };
  }
  s.take(NOT_SELECTIVE);
  if (s.take(SELECTIVE)) return { recompute: 'selective' };
  if (s.take(FULL)) return { recompute: 'full' };
  return {};
}
