import type { Scanner } from './quantities.ts';
import { NEGATION } from './switch-words.ts';

/**
 * Asked to run the discrete-event emulator ("emulated", "emulate an all-reduce …", "with the emulator"): a collective's
 * request's emulate (as the CLI's `collective --emulate`), a stated layout's cluster.communicationModel "emulated" (as the
 * CLI's `estimate --emulate`). QA: "all-reduce 1 GB on 64 H100 emulated" answered the closed form with no word that it
 * was not emulated. "Simulated" alone is left: it says nothing of which model, and the closed form is NCCL's own.
 */

/**
 * What is emulated where it is no collective's emulator: a precision ("in emulated fp8": FP8 run in another format) or a
 * batch ("emulating a 4M-token batch with gradient accumulation"). QA: both ran the emulator.
 */
const NOT_THE_EMULATOR = String.raw`(?!\s(?:fp\d+|bf16|int\d|tf32|precision|(?:an?\s|the\s)?(?:[\w.-]+\s){0,2}(?:batch|batches)\b))`;
const EMULATED = new RegExp(String.raw`(?:(?<off>${NEGATION})|\b(?:with|using|via|through|in|on|by)\s(?:the\s)?)?(?:\bdiscrete[\s-]*event\s(?:emulat\w*|simulat\w*)|\bemulat(?:e|es|ed|ing|ion|or)\b)${NOT_THE_EMULATOR}`, 'g');

/**
 * The words that ask for the emulator, or not ("not emulated", "without the emulator": the closed form, the default), taken
 * out of the text (each of them); undefined where none does.
 */
export function takeEmulate(s: Scanner): { on: boolean; written: string } | undefined {
  const found = [...s.text.matchAll(EMULATED)];
  for (const m of found) s.blank({ index: m.index ?? 0, length: m[0].length });
  if (found.length === 0) return undefined;
  return { on: found.some((m) => m.groups?.off === undefined), written: found.map((m) => m[0].trim()).join(', ') };
}
