import { takeAttentionKernel } from '../lexicon/attention-kernel.ts';
import { takeCommOverlaps, WHICH_OVERLAP_UNSAID } from '../lexicon/comm-overlap.ts';
import { takeDropout } from '../lexicon/dropout.ts';
import { takeEmulate } from '../lexicon/emulator.ts';
import { takeMemoryFraction } from '../lexicon/memory-fraction.ts';
import { takeSchedule } from '../lexicon/pipeline-schedule.ts';
import { takeRecomputeLayers } from '../lexicon/recompute-layers.ts';
import type { AskParameters } from '../question.ts';
import { BOTH_WAYS, contradicts, type SwitchReading } from '../lexicon/switch-words.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** A switch's field and the words it was read from, as typed: what a note quotes where the answer does not plan it. */
export type SwitchWords = Partial<Record<keyof AskParameters, string>>;

/**
 * What a switch's reader returns (lexicon/pipeline-schedule.ts, attention-kernel.ts, dropout.ts, recompute-layers.ts; the
 * overlaps' and the emulator's as switchFound gives them): the words read; those naming it in another state beside them (one
 * `other`, or several `others`); or the words asking it both ways.
 */
interface SwitchFound {
  written: string;
  other?: string;
  others?: readonly string[];
  both?: string;
}

/** A reading in switch-words.ts's grammar (comm-overlap.ts, emulator.ts) as applySwitch takes it: on or off, or both ways. */
function switchFound(reading: SwitchReading | undefined): (SwitchFound & { on?: boolean }) | undefined {
  if (reading?.both !== undefined) return { written: reading.both, both: reading.both };
  const read = reading?.read;
  return read === undefined ? undefined : { on: read.on, written: read.written, ...(reading?.other !== undefined && { other: reading.other }) };
}

/**
 * The software's switches a question states (the planner's and the search's extensions: overlaps, scatter-gather, the
 * pipeline schedule, the attention kernel, dropout, layers recomputed, the share of memory, the emulator), each set in
 * `stated` and its words kept for switches-planned.ts, which says those the answer does not plan. Read after the hardware
 * and before every other setting: their words hold numbers and names the counts, the collectives and the intent would
 * read ("1f1b", "90% memory", "overlap grad reduce", "recompute 4 layers"). FP8 weights are read with the precision
 * (precision-read.ts).
 */
export function readSwitches(st: ParseState): SwitchWords {
  const { s, text, stated, notRead } = st;
  const typed = (phrase: string): string => asTyped(text, phrase);
  /** A phrase said not read: with and without at once, or another state contradicting the one `planned`. */
  const said = (phrase: string, planned?: string): void => {
    notRead.push({ phrase: `"${typed(phrase)}"`, why: planned === undefined ? BOTH_WAYS : contradicts(typed(planned)) });
  };
  const words: SwitchWords = {};
  /**
   * A switch read into `field` (`valueOf` its value, undefined where its words set nothing, as "not emulated"): another state
   * beside it said, as contradicting it; set, its words kept; asked both ways, said and nothing set. Returns what was read,
   * for what else it holds.
   */
  const applySwitch = <K extends keyof AskParameters, R extends SwitchFound>(field: K, read: R | undefined, valueOf: (r: R) => AskParameters[K] | undefined): R | undefined => {
    if (read?.both !== undefined) said(read.both);
    if (read === undefined || read.both !== undefined) return read;
    for (const other of [read.other, ...(read.others ?? [])]) if (other !== undefined) said(other, read.written);
    const value = valueOf(read);
    if (value === undefined) return read;
    stated[field] = value;
    words[field] = typed(read.written);
    return read;
  };
  // The overlaps, each on or off (comm-overlap.ts); one of no communication named, said.
  const overlaps = takeCommOverlaps(s);
  for (const [field, reading] of overlaps.readings) applySwitch(field, switchFound(reading), (r) => r.on);
  if (overlaps.whichUnsaid !== undefined) notRead.push({ phrase: `"${typed(overlaps.whichUnsaid)}"`, why: WHICH_OVERLAP_UNSAID });
  // "Without gpipe" names no schedule to plan (the plans never take GPipe unasked): its words taken, nothing set.
  const schedule = applySwitch('schedule', takeSchedule(s), (r) => r.schedule);
  // "Interleaved with 2 chunks", "with 2 chunks per stage": the virtual stages, where no "vp" says them (layout-read.ts).
  if (schedule?.chunks !== undefined) stated.virtualStages = schedule.chunks.count;
  applySwitch('attentionKernel', takeAttentionKernel(s), (r) => r.kernel);
  applySwitch('dropout', takeDropout(s), (r) => r.dropout);
  const layers = applySwitch('recomputeLayers', takeRecomputeLayers(s), (r) => ('layers' in r ? r.layers : undefined));
  // Every layer (Megatron's uniform method): no count to set, its words kept as full recompute's (switches-planned.ts).
  if (layers !== undefined && !('layers' in layers)) words.recompute = typed(layers.written);
  const memory = takeMemoryFraction(s);
  // Their "memory" is no memory question ("how long … with 90% memory"): hidden from the intent's words.
  for (const phrase of [memory.read, ...memory.others]) if (phrase !== undefined) st.hideFromIntent(phrase.written);
  if (memory.read !== undefined) {
    if ('fraction' in memory.read) stated.memoryFraction = memory.read.fraction;
    else notRead.push({ phrase: `"${typed(memory.read.written)}"`, why: memory.read.why });
    words.memoryFraction = typed(memory.read.written);
  }
  for (const other of memory.others) {
    if (other.contradicts !== undefined) said(other.written, other.contradicts);
    else notRead.push({ phrase: `"${typed(other.written)}"`, why: other.why ?? '' });
  }
  // "Not emulated", "without the emulator": the closed form, the default; its words taken, nothing set.
  applySwitch('emulate', switchFound(takeEmulate(s)), (r) => (r.on === true ? true : undefined));
  return words;
}
