import { takeAttentionKernel } from '../lexicon/attention-kernel.ts';
import { takeCommOverlaps } from '../lexicon/comm-overlap.ts';
import { takeDropout } from '../lexicon/dropout.ts';
import { takeEmulate } from '../lexicon/emulator.ts';
import { takeMemoryFraction } from '../lexicon/memory-fraction.ts';
import { takeSchedule } from '../lexicon/pipeline-schedule.ts';
import { takeRecomputeLayers } from '../lexicon/recompute-layers.ts';
import type { AskParameters } from '../question.ts';
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
  const words: SwitchWords = {};
  const overlaps = takeCommOverlaps(s, typed);
  Object.assign(stated, overlaps.settings);
  for (const [field, written] of Object.entries(overlaps.written)) words[field as keyof AskParameters] = typed(written);
  notRead.push(...overlaps.notRead);
  const schedule = takeSchedule(s);
  if (schedule !== undefined) {
    stated.schedule = schedule.schedule;
    words.schedule = typed(schedule.written);
    for (const other of schedule.others) notRead.push({ phrase: `"${typed(other)}"`, why: `contradicts "${words.schedule}", which is planned; say one` });
  }
  const kernel = takeAttentionKernel(s);
  if (kernel !== undefined) {
    stated.attentionKernel = kernel.kernel;
    words.attentionKernel = typed(kernel.written);
  }
  const dropout = takeDropout(s);
  if (dropout !== undefined) {
    stated.dropout = dropout.dropout;
    words.dropout = typed(dropout.written);
  }
  const layers = takeRecomputeLayers(s);
  if (layers !== undefined) {
    stated.recomputeLayers = layers.layers;
    words.recomputeLayers = typed(layers.written);
  }
  const memory = takeMemoryFraction(s);
  if (memory !== undefined) {
    // Its "memory" is no memory question ("how long … with 90% memory"): hidden from the intent's words.
    st.hideFromIntent(memory.written);
    if ('fraction' in memory) stated.memoryFraction = memory.fraction;
    else notRead.push({ phrase: `"${typed(memory.written)}"`, why: memory.why });
    words.memoryFraction = typed(memory.written);
  }
  const emulate = takeEmulate(s);
  if (emulate !== undefined) {
    stated.emulate = true;
    words.emulate = typed(emulate);
  }
  return words;
}
