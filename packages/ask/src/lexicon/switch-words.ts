import type { Scanner } from './quantities.ts';

/**
 * A software switch as questions turn it on or off: its name alone or after "with", "using", "enable" ("with tp comm
 * overlap"), off after "no", "without", "w/o", "disable", "turn off" ("without flash attention"), and either way after it
 * ("tp comm overlap off", "overlap grad reduce = true"), as Megatron's flags and config files write them.
 */

/** Words that turn the switch off before its name. */
const OFF_BEFORE = String.raw`(?:\b(?:no|not|without|disabl\w*|turn(?:ing|ed)?\s+off|skip\w*)|\bw\/o)\s+(?:using\s+|any\s+)?(?:the\s+)?`;
/** Words that turn it on before its name (taken with it, so that the note quotes "with tp comm overlap"). */
const ON_BEFORE = String.raw`(?:\b(?:with|using|use|enabl\w*|turn(?:ing|ed)?\s+on)\s+(?:the\s+)?)?`;
/** Its state after its name: "off", "= false", ": disabled", "on", "= true". */
const STATE_AFTER = String.raw`(?:\s*(?:=|:)?\s*(?:is\s+|was\s+)?(?:turned\s+|switched\s+|set\s+(?:to\s+)?)?\b(?<after>off|false|disabled|on|true|enabled)\b)?`;

/** A switch read: on or off, and the words it was read from (normalised). */
export interface SwitchRead {
  on: boolean;
  written: string;
}

/** The pattern of one switch named by `name` (a regular expression's source, no groups named). */
export const switchPattern = (name: string): RegExp =>
  new RegExp(String.raw`(?<off>${OFF_BEFORE})?(?:${ON_BEFORE})(?:${name})${STATE_AFTER}`);

/** The first switch `pattern` (switchPattern's) finds, taken out of the text; undefined where the text names none. */
export function takeSwitch(s: Scanner, pattern: RegExp): SwitchRead | undefined {
  const m = s.take(pattern);
  if (m === undefined) return undefined;
  const after = m.groups?.after;
  const offAfter = after === 'off' || after === 'false' || after === 'disabled';
  // "without X off" says off twice, which reads as off still: people write one negation and mean it.
  return { on: m.groups?.off === undefined && !offAfter, written: m[0].trim() };
}
