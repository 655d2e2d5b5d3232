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
/** Words that say it is off: "no", "without", "w/o", "disable(d)", "turn off", "skip". */
const OFF = String.raw`(?:\bno|\bwithout|\bw\/o|\bdisabl\w*|\bturn(?:ing|ed)?\s+off|\bskip\w*)`;

/** "without activation checkpointing", "no full recompute", "w/o gradient checkpointing", "recompute=none", "activation checkpointing off". */
const NONE = new RegExp(String.raw`${OFF}\s*(?:the\s+|any\s+)?(?:${MODE}\s+)?${NAME}|\brecompute\s*(?:=|:)?\s*(?:none|off)\b|\b${NAME}\s*(?:=|:)?\s*(?:off|disabled|false)\b`);
const SELECTIVE = /\bselective(?:\s+(?:activation\s+)?recomput\w*)?|\brecompute\s*(?:=|:)?\s*selective\b/;
const FULL = new RegExp(String.raw`\bfull(?:\s+(?:activation\s+)?recomput\w*)|\brecompute\s*(?:=|:)?\s*full\b|\b${CHECKPOINTING}\b`);

/**
 * Whether the recompute is asked about rather than set: "should I use activation checkpointing", "do I need gradient
 * checkpointing", "is activation checkpointing worth it", "with or without recompute", "activation checkpointing or not".
 */
const ASKED = new RegExp(String.raw`\b(?:should|do|does|would|could|can|must|shall)\s+(?:i|we|you|it|one)\s+(?:\w+\s+){0,2}?(?:use|need|enable|turn\s+on|apply|want|try|add|bother\s+with)\s+(?:the\s+|any\s+)?(?:${MODE}\s+)?${NAME}`
  + String.raw`|\b(?:is|does|would|will)\s+(?:${MODE}\s+)?${NAME}\s+(?:\w+\s+)?(?:worth|help|needed|necessary|required|faster|slower|better|make|pay|matter|save)`
  + String.raw`|\bwhether\s+(?:or\s+not\s+)?(?:to\s+)?(?:use\s+)?(?:${MODE}\s+)?${NAME}|\bwith\s+or\s+without\s+(?:${MODE}\s+)?${NAME}|\b${NAME}\s+or\s+not\b`
  + String.raw`|\b(?:need|use)\s+(?:${MODE}\s+)?${NAME}\s*\?|\b(?:which|what)\s+(?:kind\s+of\s+)?${NAME}`);

/** The recompute a question states, or, where it asks whether to use one, the phrase that asks (the search then tries each mode). */
export interface RecomputeRead {
  recompute?: AskParameters['recompute'];
  /** The words that ask whether to recompute ("should i use activation checkpointing"): no mode is fixed. */
  asked?: string;
}

/** The recompute stated, taken out of the text; a question whether to recompute fixes none. */
export function takeRecompute(s: Scanner): RecomputeRead {
  const asked = s.take(ASKED);
  if (asked !== undefined) return { asked: asked[0].trim() };
  const none = NONE.exec(s.text);
  // "without full recompute, selective only": the mode named beside the negation is the one meant.
  if (none !== null) {
    s.blank({ index: none.index, length: none[0].length });
    return { recompute: s.take(SELECTIVE) === undefined ? 'none' : 'selective' };
  }
  if (s.take(SELECTIVE)) return { recompute: 'selective' };
  if (s.take(FULL)) return { recompute: 'full' };
  return {};
}
