import type { AskParameters } from '../question.ts';
import type { Scanner } from './quantities.ts';

/**
 * The pipeline schedule a question names: the scenario's parallelism.schedule. GPipe runs every micro-batch's forward
 * before any backward, so each stage holds all m micro-batches' activations (Huang et al. 2019); 1F1B holds at most p
 * (Narayanan et al. SC'21 §2.2.1), and the interleaved 1F1B splits each stage into v model chunks (§2.2.2). QA: "with gpipe
 * schedule" was planned 1F1B at 38.8 GiB a GPU, where the API with schedule "gpipe" needs 201 GiB (out of memory).
 * Read before the counts: "1f1b" holds a 1, and "interleaved 2" is the chunks' count (quantities.ts), never taken here.
 */

type Schedule = NonNullable<AskParameters['schedule']>;

/** "(pipeline) schedule = …", "schedule: …" before the name; "(pipeline) schedule" after it. */
const BEFORE = String.raw`(?:\b(?:with|using|use|on|in)\s+)?(?:an?\s+|the\s+)?(?:(?:pp|pipeline)[\s-]*)?(?:schedul\w*\s*(?:=|:|is|of)?\s*)?`;
const AFTER = String.raw`(?:[\s-]+(?:pp|pipeline))?(?:[\s-]+(?:schedul\w*|parallelism|pipelining))?`;

const SCHEDULES: readonly [Schedule, RegExp][] = [
  // "Interleaved 1F1B" is the interleaved one; never "interleaved 2" (its chunks: quantities.ts).
  ['interleaved', new RegExp(String.raw`${BEFORE}\binterleav(?:ed|ing)(?:[\s-]+1f1b)?${AFTER}\b(?!\s*(?:=|:|of|is)?\s*\d)`)],
  ['gpipe', new RegExp(String.raw`${BEFORE}(?:\bgpipe(?:[\s-]*style)?|\bafab\b|\ball[\s-]*forward[\s-]*(?:then[\s-]*)?all[\s-]*backward)${AFTER}\b`)],
  ['1f1b', new RegExp(String.raw`${BEFORE}(?:\bnon[\s-]*interleaved[\s-]+)?(?:\b1f1b|\bone[\s-]*forward[\s-]*one[\s-]*backward)${AFTER}\b`)],
];

/** The schedule read and its words; `others`, the words of another schedule named beside it (said, never planned). */
export interface ScheduleRead {
  schedule: Schedule;
  written: string;
  others: string[];
}

/** The schedule the text names, taken out of it (every one named, the first in the text planned); undefined where none is. */
export function takeSchedule(s: Scanner): ScheduleRead | undefined {
  const found: { schedule: Schedule; written: string; at: number }[] = [];
  for (const [schedule, pattern] of SCHEDULES) {
    for (let m = s.take(pattern); m !== undefined; m = s.take(pattern)) found.push({ schedule, written: m[0].trim(), at: m.index });
  }
  const [first, ...rest] = found.sort((a, b) => a.at - b.at);
  if (first === undefined) return undefined;
  return { schedule: first.schedule, written: first.written, others: rest.filter((r) => r.schedule !== first.schedule).map((r) => r.written) };
}
