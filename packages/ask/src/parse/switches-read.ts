import { takeAttentionKernel } from '../lexicon/attention-kernel.ts';
import { takeCommOverlaps } from '../lexicon/comm-overlap.ts';
import { takeDropout } from '../lexicon/dropout.ts';
import { takeEmulate } from '../lexicon/emulator.ts';
import { takeMemoryFraction } from '../lexicon/memory-fraction.ts';
import { takeSchedule } from '../lexicon/pipeline-schedule.ts';
import { takeRecomputeLayers } from '../lexicon/recompute-layers.ts';
import type { AskParameters } from '../question.ts';
import { BOTH_WAYS, contradicts } from '../lexicon/switch-words.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** A switch's field and the words it was read from, as typed: what a note quotes where the answer does not plan it. */
export type SwitchWords = Partial<Record<keyof AskParameters, string>>;

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
  const overlaps = takeCommOverlaps(s, typed);
  Object.assign(stated, overlaps.settings);
  for (const [field, written] of Object.entries(overlaps.written)) words[field as keyof AskParameters] = typed(written);
  notRead.push(...overlaps.notRead);
  const schedule = takeSchedule(s);
  // "Without gpipe" names no schedule to plan (the plans never take GPipe unasked): its words taken, nothing set.
  if (schedule?.schedule !== undefined) {
    stated.schedule = schedule.schedule;
    words.schedule = typed(schedule.written);
    for (const other of schedule.others) said(other, schedule.written);
  }
  // "Interleaved with 2 chunks", "with 2 chunks per stage": the virtual stages, where no "vp" says them (layout-read.ts).
  if (schedule?.chunks !== undefined) stated.virtualStages = schedule.chunks.count;
  const kernel = takeAttentionKernel(s);
  if (kernel?.both !== undefined) said(kernel.both);
  else if (kernel?.kernel !== undefined) {
    stated.attentionKernel = kernel.kernel;
    words.attentionKernel = typed(kernel.written);
    if (kernel.other !== undefined) said(kernel.other, kernel.written);
  }
  const dropout = takeDropout(s);
  if (dropout?.both !== undefined) said(dropout.both);
  else if (dropout?.dropout !== undefined) {
    stated.dropout = dropout.dropout;
    words.dropout = typed(dropout.written);
    if (dropout.other !== undefined) said(dropout.other, dropout.written);
  }
  const layers = takeRecomputeLayers(s);
  if (layers !== undefined && 'layers' in layers) {
    stated.recomputeLayers = layers.layers;
    words.recomputeLayers = typed(layers.written);
  } else if (layers !== undefined) words.recompute = typed(layers.written);
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
  const emulate = takeEmulate(s);
  // "Not emulated", "without the emulator": the closed form, the default; its words taken, nothing set.
  if (emulate?.on === true) {
    stated.emulate = true;
    words.emulate = typed(emulate.written);
  }
  return words;
}
