import { DECIMAL } from './numbers.ts';
import type { Scanner } from './quantities.ts';

/**
 * The share of GPU memory a plan may use, as a question states it: "with 90% memory", "using 90% of GPU memory", "memory
 * fraction 0.9", vLLM's "gpu_memory_utilization 0.9". The search's constraints.memoryFraction (default 0.95, the share past
 * which an estimate warns memory is tight). QA: "how long … on 64 H100 nodes with 90% memory" was read as a memory question
 * (its "memory"), and the 90 as 90 GPUs a node. Read before the uptime, the counts and the settings no plan models; its words
 * are kept from the intent's (ParseState intentText), whose "memory" they hold.
 */

/** The memory's names: "memory", "gpu memory", "hbm (memory)", "vram". */
const MEMORY = String.raw`(?:(?:gpu|device|hbm)[\s-]*)?(?:memory|mem|hbm|vram)`;
/** What a share is called after the memory: "memory fraction", "memory utilization", "memory share". */
const SHARE = String.raw`(?:fraction|util(?:i[sz]ation)?|share)`;
/** A serving engine's name before it ("vllm gpu_memory_utilization 0.9"): said with it. */
const ENGINE = String.raw`(?:(?:vllm|sglang)\s)?`;
/** A percentage, group `n`. */
const PERCENT = String.raw`(?<![\d.])(?<n>${DECIMAL})\s?%\s?(?:of\s(?:the\s)?(?:its\s)?(?:each\s)?)?`;

/**
 * After "90% memory", words that make it another figure than a share to plan within ("90% memory bandwidth", "20% memory
 * fragmentation", "at 90% memory pressure", "10% memory headroom", "50% memory savings"). QA: each was planned as a share,
 * and "90% memory bandwidth" as 90 GPUs a node.
 */
const NOT_A_SHARE = String.raw`(?:bandwidth|pressure|efficien\w*|headroom|fragmentation|sav\w*|reduc\w*|overhead|increase|decrease|growth|less|more|left|free|spare|footprint|wast\w*|bound|traffic|throughput|errors?)\b`;
/** Verbs of what a part takes or saves, before a percentage of memory that is then no share to plan within (QA). */
const AMOUNT_VERB = String.raw`(?:sav\w*|tak\w*|took|cut\w*|reduc\w*|free\w*|eat\w*|consum\w*|need\w*|requir\w*|occup\w*|fill\w*|uses|used|is|are|was|were|by|over|under|than|about|another|extra|additional)`;
/** Words a share to use follows: "with", "at", "using", "use", "at most", "up to", "capped at". */
const TO_USE = String.raw`(?:\b(?:with|at|using|use|max(?:imum)?|at\smost|up\sto|only|capped\sat|limited\sto)\s)+`;

/** A share stated, its number a percentage (`percent`) or a fraction; `left`: the share kept free ("leave 10% memory"). */
const SHARES: readonly { pattern: RegExp; percent: boolean; left?: boolean }[] = [
  // "Leave 10% memory for fragmentation", "reserve 10% memory", "keep 10% memory free": the share used is 1 − N.
  {
    pattern: new RegExp(String.raw`\b(?:leave|leaving|reserve|reserving|set(?:ting)?\saside|hold(?:ing)?\sback|keep(?:ing)?(?=\s[\d.]+\s?%\s?(?:of\s(?:the\s)?)?${MEMORY}\s(?:free|spare|unused|in\sreserve|as\s|for\s)))\s${PERCENT}${MEMORY}(?:\s(?:free|spare|unused|in\sreserve|as\s(?:a\s)?(?:headroom|buffer|reserve)|for\s[\w-]+))?`),
    percent: true, left: true,
  },
  // "with 90% memory", "at 90% of GPU memory", "using 90% of the memory", "at 90% memory utilization".
  { pattern: new RegExp(String.raw`${TO_USE}${PERCENT}${MEMORY}\b(?:[\s-]${SHARE}\b)?(?![\s-]${NOT_A_SHARE})`), percent: true },
  // "90% memory utilization", "90% hbm fraction".
  { pattern: new RegExp(String.raw`${PERCENT}${MEMORY}[\s-]${SHARE}\b`), percent: true },
  // A setting in a list: "at 95% uptime, 90% memory", "with 45% MFU and 80% memory" — never after a verb of what a part
  // takes or saves ("optimizer takes 50% memory", "save 40% memory"), nor before a figure's name (NOT_A_SHARE).
  { pattern: new RegExp(String.raw`(?<!\b${AMOUNT_VERB}\s)${PERCENT}${MEMORY}\b(?![\s-]${NOT_A_SHARE})`), percent: true },
  // "memory fraction 0.9", "gpu memory utilization of 90%", "a memory limit of 80%" — never "a memory cap of 70 GB", an amount.
  {
    pattern: new RegExp(String.raw`${ENGINE}\b${MEMORY}[\s-]?(?:${SHARE}|limit|cap|budget)\s?(?:=|:|of|at|to|is)?\s?(?<n>\d*\.?\d+)(?![\d.])\s?(?<pct>%)?(?!\s?(?:[kmgtp]i?b|bytes?|gigabytes?|terabytes?)\b)`),
    percent: false,
  },
  // "using 0.9 of memory", "with 0.9 of the GPU memory".
  { pattern: new RegExp(String.raw`${TO_USE}(?<![\d.])(?<n>0?\.\d+)\sof\s(?:the\s)?${MEMORY}\b(?![\s-]${NOT_A_SHARE})`), percent: false },
  // "at 0.9 memory utilization".
  { pattern: new RegExp(String.raw`(?:\bat\s)?(?<![\d.])(?<n>0?\.\d+|1(?:\.0+)?)\s${MEMORY}[\s-]${SHARE}\b`), percent: false },
];
/** Any other percentage of memory, taken out (never GPUs a node, nor a memory question: QA) and said not read. */
const OTHER_PERCENT = new RegExp(String.raw`(?:\b(?:with|at)\s)?${PERCENT}${MEMORY}\b(?:[\s-]${NOT_A_SHARE})?`);

/**
 * An amount of memory ("a memory cap of 70 GB", "memory usage 0.5 TB"): no share, and no advice to write its number as one
 * (QA: "memory cap of 70" was said "for 70% write 70% memory"). Taken out: its "memory" is no memory question.
 */
const AMOUNT = new RegExp(String.raw`\b${MEMORY}[\s-](?:usage|use|cap|limit|budget|footprint)\s?(?:=|:|of|at|to|is)?\s?(?:an?\s)?${DECIMAL}\s?(?:[kmgtp]i?b|gigabytes?|terabytes?)\b`);
/** Why an amount of memory is not read. */
const AMOUNT_WHY = 'an amount of memory is not read as a limit: say the share of each GPU\'s memory a plan may use, e.g. "with 90% memory"';

/** Why a share stated is no share of memory: another figure. */
const NOT_A_SHARE_WHY = 'no share of memory a plan may use (a saving, a bandwidth, a share taken by one part, …): not modelled; '
  + 'say "with 90% memory" for the share every plan must fit in';


/** A share read, with its words; or the words and why it cannot be one. */
type MemoryFractionRead = { fraction: number; written: string } | { written: string; why: string };

/** Why a share past 100% (or of nothing) is not read. */
const OUT_OF_RANGE = 'a memory fraction is a share of the GPU\'s memory, above 0% and at most 100%';

/** One share matched, as a fraction or why it is none. */
function shareOf(m: RegExpExecArray, percent: boolean, left: boolean): MemoryFractionRead {
  const written = m[0].trim();
  const number = Number(m.groups?.n);
  // A number after "fraction" is a fraction ("0.9"); one above 1 with no "%" is refused with what to write, never guessed a
  // percentage ("1.5"), as an uptime's is (uptime.ts).
  if (!percent && m.groups?.pct === undefined && number > 1) {
    return { written, why: `a memory fraction is a share of the GPU's memory, at most 1; for ${number}% write "${number}% memory" (or ${number / 100})` };
  }
  const share = percent || m.groups?.pct !== undefined ? number / 100 : number;
  const fraction = left ? Number((1 - share).toFixed(6)) : share;
  return fraction > 0 && fraction <= 1 && share <= 1 ? { fraction, written } : { written, why: OUT_OF_RANGE };
}

/** The shares of memory the text states, each taken out: the first planned, the rest said; words of another figure, said. */
interface MemoryShares {
  read?: MemoryFractionRead;
  /** Figures no share, each with why; a share beside the one read, with `contradicts` (that one's words). */
  others: { written: string; why?: string; contradicts?: string }[];
}

/** The share of memory the text states, and every other percentage of memory, taken out of it. */
export function takeMemoryFraction(s: Scanner): MemoryShares {
  const reads: (MemoryFractionRead & { at: number })[] = [];
  for (const { pattern, percent, left } of SHARES) {
    for (let m = s.take(pattern); m !== undefined; m = s.take(pattern)) reads.push({ ...shareOf(m, percent, left === true), at: m.index });
  }
  const others: MemoryShares['others'] = [];
  for (let m = s.take(AMOUNT); m !== undefined; m = s.take(AMOUNT)) others.push({ written: m[0].trim(), why: AMOUNT_WHY });
  for (let m = s.take(OTHER_PERCENT); m !== undefined; m = s.take(OTHER_PERCENT)) others.push({ written: m[0].trim(), why: NOT_A_SHARE_WHY });
  const [read, ...rest] = reads.sort((a, b) => a.at - b.at).map(({ at: _, ...r }) => r);
  if (read === undefined) return { others };
  // "With 90% memory, 80% memory": two shares, the first planned and the other said (as the schedules: pipeline-schedule.ts).
  for (const r of rest) {
    const same = 'fraction' in r && 'fraction' in read && r.fraction === read.fraction;
    if (!same) others.push({ written: r.written, contradicts: read.written });
  }
  return { read, others };
}
