import type { AskParameters } from '../question.ts';
import { NUMBER_WORD, NUMBER_WORDS } from './numbers.ts';
import type { Scanner } from './quantities.ts';
import { NEGATION } from './switch-words.ts';

/**
 * The pipeline schedule a question names: the scenario's parallelism.schedule. GPipe runs every micro-batch's forward
 * before any backward, so each stage holds all m micro-batches' activations (Huang et al. 2019); 1F1B holds at most p
 * (Narayanan et al. SC'21 §2.2.1), and the interleaved 1F1B splits each stage into v model chunks (§2.2.2). QA: "with gpipe
 * schedule" was planned 1F1B at 38.8 GiB a GPU, where the API with schedule "gpipe" needs 201 GiB (out of memory).
 * Read before the counts: "1f1b" holds a 1, and "interleaved 2" is the chunks' count (parallel-sizes.ts), never taken here.
 */

type Schedule = NonNullable<AskParameters['schedule']>;

/** "(pipeline) schedule = …", "schedule: …" before the name; "(pipeline) schedule" after it. */
const BEFORE = String.raw`(?:\b(?:with|using|use|on|in)\s+)?(?:an?\s+|the\s+)?(?:(?:pp|pipeline)[\s-]*)?(?:schedul\w*\s*(?:=|:|is|of)?\s*)?`;
const AFTER = String.raw`(?:[\s-]+(?:pp|pipeline))?(?:[\s-]+(?:schedul\w*|parallelism|pipelining))?`;
/** A word of the pipeline's before "interleaved" ("pipeline schedule: interleaved", "pp interleaved"). */
const PIPELINE_BEFORE = String.raw`(?:\b(?:pp|pipeline)[\s-]*(?:schedul\w*\s*(?:=|:|is)?\s*)?|\bschedul\w*\s*(?:=|:|is)?\s*)`;
/** One after it ("interleaved 1f1b", "interleaved schedule", "interleaved pipeline", "interleaved with 2 chunks", "interleaved, v 2"). */
const PIPELINE_AFTER = String.raw`(?=[\s-]+(?:1f[\s-]*1b|pp\b|pipelin\w*|schedul\w*|(?:with\s+|of\s+)?(?:\d+|${NUMBER_WORD})\s+(?:model\s+|virtual\s+)?chunks?\b|virtual)|,?\s(?:v|vp|vpp)\s?=?\s?\d)`;

/**
 * The interleaved schedule's names, with the pipeline said (QA: "eval interleaved every 1000 steps" and "code and text data
 * interleaved" were read as the schedule): "interleaving" (a schedule's word in a plan's question), "interleaved" before or
 * after a word of the pipeline, and Megatron's "virtual pipeline" (never "interleaved 2", its chunks: parallel-sizes.ts).
 */
const INTERLEAVED = String.raw`(?:${PIPELINE_BEFORE}interleav(?:ed|ing)|\binterleav(?:ed|ing)${PIPELINE_AFTER}|\binterleaving|\bvirtual[\s-]*pipelin\w*(?![\s-]*(?:stages?|size|parallel\w*)?\s*(?:=|:|of|is)?\s*\d))(?:[\s-]+1f[\s-]?1b)?`;
const GPIPE = String.raw`(?:\bg[\s-]?pipe(?:[\s-]*style)?|\bafab\b|\ball[\s-]*forward[\s-]*(?:then[\s-]*)?all[\s-]*backward)`;
const ONE_F_ONE_B = String.raw`(?:\b1f[\s-]?1b|\bone[\s-]*forward[\s-]*one[\s-]*backward)`;

const NAMES: readonly [Schedule, string][] = [['interleaved', INTERLEAVED], ['gpipe', GPIPE], ['1f1b', ONE_F_ONE_B]];

/** A schedule's pattern, named group `off` its negation ("without gpipe", "non-interleaved", "no interleaved schedule"). */
const patternOf = (name: string): RegExp =>
  new RegExp(String.raw`(?:(?<off>${NEGATION})|${BEFORE})${name}${AFTER}\b(?!\s*(?:=|:|is)?\s*\d)`, 'g');
const SCHEDULES: readonly [Schedule, RegExp][] = NAMES.map(([schedule, name]) => [schedule, patternOf(name)]);

/**
 * A schedule negated: not interleaving is 1F1B ("non-interleaved", "without interleaving": Megatron's one chunk a stage);
 * not GPipe is the default the plans take anyway (1F1B, or interleaved where the search picks it), nothing to set; not 1F1B
 * says which not to run, not which to run.
 */
const NEGATED: Record<Schedule, Schedule | undefined> = { interleaved: '1f1b', gpipe: undefined, '1f1b': undefined };

/** A count of chunks, in digits or a word ("four"). */
const N = String.raw`(\d+|${NUMBER_WORD})`;
/** After the interleaved schedule's words, which stay for the schedule read. */
const AFTER_INTERLEAVED = String.raw`(?<=\binterleav(?:ed|ing)(?:[\s-]+(?:1f1b|schedule|pipeline))?\s)`;
/**
 * The model chunks a stage (Megatron's virtual pipeline size): "4 model chunks", "with 2 chunks per stage", "interleaved with 2
 * chunks", "interleaved schedule of 2" (QA: each said "2 chunks" not understood). "Chunks" alone is no stage's (chunked
 * prefill): only with "model", "per stage" or after "interleaved". A group holds the count.
 */
const CHUNKS = new RegExp(String.raw`(?:\bwith\s)?\b${N}\s(?:model|virtual)\schunks?(?:\s(?:per|a|each)\s(?:pipeline\s)?stage)?\b`
  + String.raw`|(?:\bwith\s)?\b${N}\schunks?\s(?:per|a|each)\s(?:pipeline\s)?stage\b`
  + String.raw`|${AFTER_INTERLEAVED}(?:with\s)?${N}\schunks?\b|${AFTER_INTERLEAVED}of\s(\d+)\b(?!\s?[a-z%])`);

/** The schedule read and its words; `others`, the words of another schedule named beside it (said, never planned). */
interface ScheduleRead {
  schedule?: Schedule;
  written: string;
  others: string[];
  /** The model chunks a stage said beside it ("with 2 chunks per stage"), and their words. */
  chunks?: { count: number; written: string };
}

/**
 * The schedule the text names, taken out of it (every one named, the first in the text planned); a negated schedule that
 * sets none (NEGATED) is taken and its words kept with no schedule; undefined where none is named.
 */
export function takeSchedule(s: Scanner): ScheduleRead | undefined {
  // The chunks found first, taken last: the schedule's words before them are read with them in view ("interleaved with 2 chunks").
  const chunks = CHUNKS.exec(s.text) ?? undefined;
  const found: { schedule?: Schedule; written: string; at: number }[] = [];
  for (const [schedule, pattern] of SCHEDULES) {
    for (const m of [...s.text.matchAll(pattern)]) {
      s.blank({ index: m.index, length: m[0].length });
      found.push({ schedule: m.groups?.off === undefined ? schedule : NEGATED[schedule], written: m[0].trim(), at: m.index });
    }
  }
  if (chunks !== undefined) s.blank({ index: chunks.index, length: chunks[0].length });
  const count = chunks?.slice(1).find((g) => g !== undefined);
  const read = count === undefined ? {} : { chunks: { count: NUMBER_WORDS[count] ?? Number(count), written: chunks![0].trim() } };
  const sorted = found.sort((a, b) => a.at - b.at);
  const first = sorted.find((f) => f.schedule !== undefined) ?? sorted[0];
  if (first === undefined) return count === undefined ? undefined : { written: '', others: [], ...read };
  const others = sorted.filter((r) => r.schedule !== undefined && r.schedule !== first.schedule).map((r) => r.written);
  return { schedule: first.schedule, written: first.written, others, ...read };
}
