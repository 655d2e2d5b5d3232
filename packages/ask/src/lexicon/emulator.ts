import type { Scanner } from './quantities.ts';
import { switchPattern, takeSwitchReading, type SwitchReading } from './switch-words.ts';

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
/**
 * The emulator's names, with the places it is run in ("via", "through", "in", "on", "by" it; "with" and "using" are every
 * switch's): "emulated", "the emulator", "discrete-event simulation".
 */
const EMULATOR = String.raw`(?:\b(?:via|through|in|on|by)\s(?:the\s)?)?(?:\bdiscrete[\s-]*event\s(?:emulat\w*|simulat\w*)|\bemulat(?:e|es|ed|ing|ion|or)\b)${NOT_THE_EMULATOR}`;
const EMULATED = switchPattern(EMULATOR);

/**
 * The words that ask for the emulator, or not ("not emulated", "without the emulator", "emulation off": the closed form, the
 * default), every mention taken out of the text and read as every switch's (switch-words.ts): the first planned, one in the
 * other state said, "with and without the emulator" said with nothing planned (read apart, "emulation off" ran the
 * emulator, and "not emulated … emulated" ran it with no word of the contradiction). Undefined where no words name it.
 */
export function takeEmulate(s: Scanner): SwitchReading | undefined {
  return takeSwitchReading(s, EMULATED);
}
