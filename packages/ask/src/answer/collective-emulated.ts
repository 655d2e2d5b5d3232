import { runCollective, type CollectiveResponseJson, type CollectiveRowJson, type EmulatedRowJson } from '@trainplan/protocol';
import { formatGrouped, formatSeconds } from '@trainplan/units';
import type { AnswerFigure } from './answer-types.ts';

/**
 * A collective asked "emulated" ("with the emulator"): the protocol's runCollective with emulate, as the CLI's `collective
 * --emulate` runs it, the discrete-event emulator over the machine's topology graph beside NCCL's closed form. Cheap on a
 * server: runCollective caps a request at 256 node-sizes (protocol emulation-limit.ts), one size on 256 nodes in about a
 * second at most, so the answer stays inline. QA: "all-reduce 1 GB on 64 H100 emulated" answered the closed form with no
 * word that it was not emulated.
 */

/** Where past the server's cap: the CLI, which spends its user's own CPU, lifts it (apps/cli collective.ts). */
const UNCAPPED = 'the CLI\'s "trainplan collective --emulate" emulates past it (its event budget bounds the work)';

/**
 * runCollective of `request`, emulated; past the emulation's limit (reason "event-budget"), the closed form with a note
 * saying why it was not emulated and where it can be: never the closed form unsaid, never a refusal of what the closed
 * form answers.
 */
export function runEmulated(request: Record<string, unknown>): { result: CollectiveResponseJson; notes: string[] } {
  const emulated = runCollective({ ...request, emulate: true });
  if (emulated.ok || emulated.reason !== 'event-budget') return { result: emulated, notes: [] };
  return { result: runCollective(request), notes: [`Not emulated, the closed form answered: ${emulated.message}; ${UNCAPPED}.`] };
}

/**
 * The busiest link and its share of the time; under half the time, no link sets the pace (latency and pipeline fill do),
 * as the CLI's collective table says it (apps/cli collective.ts bottleneckText).
 */
export function bottleneckWords(link: EmulatedRowJson['bottleneckLink']): string {
  const pct = Math.round(link.utilisation * 100);
  if (pct === 0) return 'none (latency-bound)';
  return pct < 50 ? `none saturated (busiest ${link.link}, ${pct}%)` : `${link.link} (${pct}%)`;
}

/** The emulator's time against the closed form's, signed to 0.1% ("+0.0%" never "-0.0%"). */
const difference = (fraction: number): string => {
  const tenths = Math.round(fraction * 1000);
  return `${tenths > 0 ? '+' : ''}${(tenths === 0 ? 0 : tenths / 10).toFixed(1)}%`;
};

/** The emulator's figures, after the closed form's. */
export const emulatedFigures = (e: EmulatedRowJson): AnswerFigure[] => [
  { label: 'Emulated time', value: `${formatSeconds(e.seconds)} (${difference(e.differenceFromClosedForm)} against the closed form; ${e.algorithm} / ${e.protocol}, ${e.events} events)` },
  { label: 'Emulated bus bandwidth', value: `${formatGrouped(e.busbwGBps)} GB/s` },
  { label: 'Bottleneck link', value: bottleneckWords(e.bottleneckLink) },
];

/** The headline's figures when emulated: the emulator's time and bus bandwidth first, the closed form's beside them. */
export const emulatedHeadline = (e: EmulatedRowJson, closed: CollectiveRowJson): string =>
  `${formatSeconds(e.seconds)} emulated, bus bandwidth ${formatGrouped(e.busbwGBps)} GB/s (closed form ${formatSeconds(closed.seconds)}, ${formatGrouped(closed.busbwGBps)} GB/s)`;
