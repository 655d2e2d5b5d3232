import type { Scanner } from './quantities.ts';

/**
 * Asked to run the discrete-event emulator ("emulated", "emulate an all-reduce …", "with the emulator"): a collective's
 * request's emulate (as the CLI's `collective --emulate`), a stated layout's cluster.communicationModel "emulated" (as the
 * CLI's `estimate --emulate`). QA: "all-reduce 1 GB on 64 H100 emulated" answered the closed form with no word that it
 * was not emulated. "Simulated" alone is left: it says nothing of which model, and the closed form is NCCL's own.
 */
const EMULATED = /(?:\b(?:with|using|via|through|in|on|by)\s+(?:the\s+)?)?(?:\bdiscrete[\s-]*event\s+(?:emulat\w*|simulat\w*)|\bemulat(?:e|es|ed|ing|ion|or)\b)/;

/** The words that ask for the emulator, taken out of the text (each of them); undefined where none does. */
export function takeEmulate(s: Scanner): string | undefined {
  const written: string[] = [];
  for (let m = s.take(EMULATED); m !== undefined; m = s.take(EMULATED)) written.push(m[0].trim());
  return written.length === 0 ? undefined : written.join(', ');
}
