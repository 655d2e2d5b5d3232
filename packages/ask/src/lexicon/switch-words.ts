import type { Scanner } from './quantities.ts';

/**
 * A software switch as questions turn it on or off, the one grammar every switch reader takes (comm-overlap.ts,
 * pipeline-schedule.ts, attention-kernel.ts, dropout.ts, fp8-params.ts, emulator.ts): its name alone or after "with", "using",
 * "enable" ("with tp comm overlap"); off after a negation, "no", "not", "never", "without", "w/o", "don't (use)", "disable",
 * "turn off", "non-", Megatron's store_false flags ("--no-overlap-p2p-communication"); off or on after it ("tp comm overlap
 * off", "tp comm overlap: no", "overlap grad reduce = 0", "FA2 disabled", "dropout set to 0"), as Megatron's flags and config
 * files write them; and both at once ("with and without flash attention"), which no one plan can take. QA: "don't use flash
 * attention", "not emulated", "tp comm overlap: no" and "--no-overlap-p2p-communication" each planned the switch on.
 */

/**
 * A negation and what may stand between it and the name: "not using the", "don't use any", "never use", "non-", "--no-".
 * Its words are adjacent (one space or a hyphen): a normalised question has single spaces, and a longer run is a phrase
 * another reader took out, never a word of this one (QA: a note quoted "with           fp8 params").
 */
export const NEGATION = String.raw`(?:\b(?:no|not|never|without|non|disabl\w*|turn(?:ing|ed)?\s(?:it\s)?off|switch(?:ing|ed)?\soff|skip\w*|(?:do|does|did)\s?n[o']?t|sans)|\bw\/o)`
  + String.raw`[\s-](?:(?:use|using|with|enable|enabling|run|running|apply|applying|want|need|turn\son)\s)?(?:the\s|any\s|an?\s)?`;
/** Words that turn it on before its name (taken with it, so that the note quotes "with tp comm overlap"). */
export const AFFIRMATION = String.raw`\b(?:with|using|use|enabl\w*|turn(?:ing|ed)?\son)\s(?:the\s)?`;
/** "With and without", "with or without", "on and off" before the name: both said at once. */
export const BOTH = String.raw`\b(?:with\s(?:and|or)\swithout|without\s(?:and|or)\swith|on\s(?:and|or)\soff|off\s(?:and|or)\son)\s(?:the\s)?`;
/** An off value: "off", "false", "disabled", "none", "no" ending its clause (never "no flash attention"), "0" (never "0.1"). */
export const OFF_VALUE = String.raw`(?:off|false|disabled?|none|no(?!\s?[a-z])|0(?:\.0+)?(?![\d.%]))`;
/** An on value: "on", "true", "enabled", "yes", "1" — never "on 64 nodes", whose "on" is the cluster's. */
export const ON_VALUE = String.raw`(?:(?:on|true|enabled?|yes)\b(?!\s?[\w$]))`;
/** What joins a name to its value: "=", ":", "is", "turned", "set to", "was switched". */
const TO_VALUE = String.raw`\s?(?:=|:)?\s?(?:is\s|was\s)?(?:turned\s|switched\s|set\s(?:to\s)?)?`;
/** Its state after its name, named group `after`; "-free" ("dropout-free") is off. */
const STATE_AFTER = String.raw`(?:${TO_VALUE}\b(?<after>${OFF_VALUE}|${ON_VALUE})\b|(?<free>-free)\b)?`;

/** Whether an "after" state turns the switch off. */
const OFF_ONLY = new RegExp(String.raw`^${OFF_VALUE}$`);
export const offAfter = (after: string | undefined): boolean => after !== undefined && OFF_ONLY.test(after);

/** A switch read: on or off, and the words it was read from (normalised). */
interface SwitchRead {
  on: boolean;
  written: string;
}

/** A switch's reading: the one planned, or `both` where the words turn it on and off at once (nothing to plan). */
export interface SwitchReading {
  read?: SwitchRead;
  /** Another phrase naming it in the other state ("with dropout and no dropout"): said, never planned. */
  other?: string;
  /** The words that ask for it both ways at once ("with and without tp comm overlap"). */
  both?: string;
}

/** Options of a switch's pattern: `bare`, whether its name alone turns it on ("FA2" alone may name anything). */
interface SwitchOptions {
  bare?: boolean;
}

/** The pattern of one switch named by `name` (a regular expression's source, no groups named). */
export const switchPattern = (name: string): RegExp =>
  new RegExp(String.raw`(?:(?<both>${BOTH})|(?<off>${NEGATION})|(?<on>${AFFIRMATION}))?(?:${name})${STATE_AFTER}`, 'g');

/** One match's reading: off after a negation, an off value or "-free" ("without X off" says off twice: off still). */
function readOf(m: RegExpExecArray): SwitchRead {
  const g = m.groups ?? {};
  return { on: g.off === undefined && !offAfter(g.after) && g.free === undefined, written: m[0].trim() };
}

/** Whether a match carries a word that turns the switch on or off (before or after its name). */
const worded = (m: RegExpExecArray): boolean => {
  const g = m.groups ?? {};
  return g.both !== undefined || g.off !== undefined || g.on !== undefined || g.after !== undefined || g.free !== undefined;
};

/**
 * Every mention `pattern` (a global one: switchPattern's, or a reader's own with the same groups, as dropout.ts's) finds in
 * the text, in order, each taken out of it; those `options` refuse left in.
 */
export function takeMentions(s: Scanner, pattern: RegExp, options: SwitchOptions = {}): RegExpExecArray[] {
  const found = [...s.text.matchAll(pattern)].filter((m) => options.bare !== false || worded(m));
  for (const m of found) s.blank({ index: m.index, length: m[0].length });
  return found;
}

/** The words of the first mention that asks a switch both ways ("with and without …", group `both`); undefined where none does. */
export const bothWays = (found: readonly RegExpExecArray[]): string | undefined => found.find((m) => m.groups?.both !== undefined)?.[0].trim();

/**
 * The switch `pattern` (switchPattern's) names, every mention taken out of the text: the first planned, one in the other
 * state said (as the schedules: pipeline-schedule.ts), "with and without" said with nothing planned; undefined where none.
 */
export function takeSwitchReading(s: Scanner, pattern: RegExp, options: SwitchOptions = {}): SwitchReading | undefined {
  const found = takeMentions(s, pattern, options);
  if (found.length === 0) return undefined;
  const both = bothWays(found);
  if (both !== undefined) return { both };
  const [first, ...rest] = found.map(readOf);
  const other = rest.find((r) => r.on !== first!.on);
  return { read: first, ...(other !== undefined && { other: other.written }) };
}

/** The first switch `pattern` finds, read (a contradiction or "with and without" reads as none); undefined where none. */
export function takeSwitch(s: Scanner, pattern: RegExp, options: SwitchOptions = {}): SwitchRead | undefined {
  return takeSwitchReading(s, pattern, options)?.read;
}

/** Why a switch asked both on and off at once is not read. */
export const BOTH_WAYS = 'asks it both on and off, and one answer plans one: ask each way in its own question; planned as by default';
/** Why a second mention in the other state is not read. */
export const contradicts = (planned: string): string => `contradicts "${planned}", which is planned; say one`;
