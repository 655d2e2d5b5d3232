import { days, hours, minutes, parseBytes } from '@trainplan/units';
import type { AskParameters, CollectiveAlgorithm, CollectiveOp } from '../question.ts';
import type { Match } from './match.ts';
import { COUNT_SCALE, DECIMAL, KILO_NUMBER, LONE_NUMBER_WORD, NUMBER_WORDS, SCALED_COUNT, scaledCount, TOKEN_LENGTH, tokenLength, writtenCount } from './numbers.ts';

/**
 * The numbers a question carries, each found by a phrase pattern and then blanked so that the next
 * pattern cannot read the same digits twice ("2T tokens" is never also a model size).
 */
export class Scanner {
  constructor(public text: string) {}

  /** The first match of `pattern`, blanked out of the text; undefined when there is none. */
  take(pattern: RegExp): RegExpExecArray | undefined {
    const m = pattern.exec(this.text);
    if (m) this.blank({ index: m.index, length: m[0].length });
    return m ?? undefined;
  }

  /** Blanks a span found by another lookup (spaces of the same length keep word boundaries). */
  blank(span: Match): void {
    this.replace(span, ' '.repeat(span.length));
  }

  /** Replaces a span with a marker word, e.g. the hardware name with HW_TOKEN. */
  replace(span: Match, by: string): void {
    this.text = this.text.slice(0, span.index) + by + this.text.slice(span.index + span.length);
  }
}

const NUMBER = String.raw`(${DECIMAL})`;

/** "2T tokens", "300 billion tokens", "1.4e12 tokens". */
export function takeTokens(s: Scanner): number | undefined {
  // Not a batch ("a 4M token batch"), a sequence ("4096 token sequences"), a rate ("20 tokens per parameter"):
  // those are read first (takeTokenPhrases) and never taken as the training budget. A token count alone may
  // take an exponent ("1.4e12 tokens").
  const m = s.take(new RegExp(String.raw`(${DECIMAL}(?:e\d+)?)\s*(${COUNT_SCALE})?\s*(?:training\s+)?(?:tokens?|toks?)\b(?![\s-]*(?:batch|sequences?|seqs?|context|window|per|/))`));
  return m ? scaledCount(m[1], m[2]) : undefined;
}

/** Words a count of sequences, or one at a rate, follows: "a global batch of 2k sequences", "batch at 8k", "a budget at 500k". */
const NOT_A_LENGTH_BEFORE = String.raw`(?<!\b(?:batch(?:[\s-]*size)?|gbs|mbs|budget|costs?|price[sd]?|spend(?:ing)?|rate)\s*(?:of|=|:|is|at)?\s*)`;

/**
 * A length written alone, with no word naming it, as lengths are written: in 4 digits or more ("131072") or in k or M ("128k",
 * "1M"). A shorter number ("at 128") reads no better as tokens than as GPUs or nodes: left for the unread numbers to say.
 */
const LONE_LENGTH = String.raw`(?=\d{4}|[\d.]+\s?(?:k|m|million|thousand)\b)${TOKEN_LENGTH}`;

/**
 * What may follow "at 128k" for it to be a length: the end of the question or of its clause, a word joining the next fact
 * ("on 16 nodes", "with cp 16", "in 30 days", "for 800B tokens"), or a precision. Never a unit: "at 128k tokens/s", "at 128
 * nodes", "at 2k batch", "at 128k steps" stay what they count.
 */
const ENDS_A_LENGTH = String.raw`(?=\s*(?:$|[,;:?!)]|\.(?!\d)|(?:on|onto|with|without|for|using|across|over|in|within|under|and|by|via|from|vs|versus|or|but|if|when|given|fp8|bf16|fp16)\b))`;

/** k and M lengths as contexts are named, powers of two ("8k", "128k", "1M"), before a TOKEN_LENGTH: "50k sequences" counts them. */
const POWER_OF_TWO = String.raw`(?=(?:1|2|4|8|16|32|64|128|256|512)\s?k\b|(?:1|2|4|8)\s?m\b)`;

/**
 * A sequence length written with no word of its own: "at 128k", "at 131072", "at 128k tokens" (the length a run is "at"; a
 * budget is "on" or "for" its tokens), "sequences of 128k (tokens)", "128k sequences", "128k seqs". Group 1 the number, group
 * 2 its scale, as TOKEN_LENGTH's. QA: "llama3-70b at 128k on 16 H100 nodes" was planned at the model's 8,192 tokens, "128k"
 * said not read; "sequences of 128k tokens" was a 128,000-token budget.
 */
const SEQUENCE_LENGTHS: readonly RegExp[] = [
  new RegExp(String.raw`${NOT_A_LENGTH_BEFORE}\bat\s+(?:a\s+)?${LONE_LENGTH}(?:[\s-]*tok(?:en)?s?)?${ENDS_A_LENGTH}`),
  new RegExp(String.raw`\b(?:sequences?|seqs?)\s+of\s+(?:length\s+)?(?:about\s+|~\s*)?${TOKEN_LENGTH}(?:[\s-]*tok(?:en)?s?)?\b(?![\s-]*(?:per\b|\/))`),
  // A count of sequences in k is a batch ("a batch of 2k sequences", "2k sequences per step") or data trained on ("on 64k
  // sequences"): only a power of two, after none of those words, is a length.
  new RegExp(String.raw`${NOT_A_LENGTH_BEFORE}(?<!\b(?:on|over|from)\s+)\b${POWER_OF_TWO}${TOKEN_LENGTH}[\s-]*(?:sequences?|seqs?)\b`
    + String.raw`(?![\s-]*(?:per|each|an?|in\s+an?)\s+(?:global\s+)?(?:batch|step|iteration)\b)`),
  // A context after its name: "a context of 8,192 tokens", "context window of 32k", "max context 4k", "maximum context length:
  // 8192" (vLLM's max_model_len). The number must read as a length (3 digits or more, k or M, or "tokens" after it), so "context 2"
  // is never a 2-token context, and "context parallel" is CP's (takeParallelism). QA: "with a context of 8,192 tokens" was a
  // budget of 8,192 tokens to generate, and "max context 4k" was not read, a 2k prompt and 3k output planned past it.
  new RegExp(String.raw`\b(?:max(?:imum)?[\s-]+)?context(?:[\s-]*(?:window|length|len|size))?\s*(?:of|=|:|is)?\s*(?:about\s+|~\s*)?`
    + String.raw`(?=\d{3}|[\d.]+\s?(?:k|m|million|thousand)\b|[\d.]+[\s-]*tok)${TOKEN_LENGTH}(?:[\s-]*tok(?:en)?s?)?\b(?![\s-]*(?:per\b|\/))`),
];

/**
 * Token counts that are not the training budget: "a 4M token batch" / "batch of 4M tokens" (tokens per
 * step), "4096 token sequences" (the sequence length), "20 tokens per parameter" (a budget per parameter,
 * as Hoffmann et al. 2022 put it). `lengthRead`: a sequence length read already (a KV cache's "32 requests of 8k tokens"),
 * whose place a second one never takes unsaid, as in takeParallelism.
 */
export function takeTokenPhrases(s: Scanner, lengthRead = false): Pick<AskParameters, 'batchTokens' | 'seqLength' | 'tokensPerParameter'> {
  const out: Pick<AskParameters, 'batchTokens' | 'seqLength' | 'tokensPerParameter'> = {};
  // "a 4M token batch", "batch size of 4M tokens", "batch size 4M tokens", "gbs=4M tokens", "4M tokens per step".
  const batch = s.take(new RegExp(String.raw`\b${SCALED_COUNT}[\s-]*tokens?[\s-]*(?:global[\s-]*)?batch(?:[\s-]*size)?\b`))
    ?? s.take(new RegExp(String.raw`\b(?:(?:global[\s-]*)?batch(?:[\s-]*size)?|gbs)\s*(?:of|=|:|is|at)?\s*${SCALED_COUNT}\s*tokens?\b`))
    // "a step" but not "a batch": "train on 2T tokens a batch of 1024" is a budget, then a batch in sequences.
    ?? s.take(new RegExp(String.raw`\b${SCALED_COUNT}\s*tokens?\s*(?:(?:per|/|each)\s*(?:global\s+)?(?:batch|step|iteration|optimi[sz]er\s+step)|an?\s+(?:step|iteration|optimi[sz]er\s+step))\b`));
  if (batch) out.batchTokens = scaledCount(batch[1], batch[2]);
  // "4096-token sequences", "8k token sequences", "1M-token sequences": k is 1024 for a sequence, as for "8k context".
  const seq = lengthRead ? undefined : s.take(new RegExp(String.raw`\b${TOKEN_LENGTH}[\s-]*tokens?[\s-]*(?:sequences?|seqs?)\b`))
    ?? SEQUENCE_LENGTHS.reduce<RegExpExecArray | undefined>((found, p) => found ?? s.take(p), undefined);
  if (seq) out.seqLength = tokenLength(seq[1], seq[2]);
  const rate = s.take(new RegExp(String.raw`\b(${DECIMAL})\s*tokens?\s*(?:per|\/|a)\s*param(?:eter)?s?\b`));
  if (rate) out.tokensPerParameter = Number(rate[1]);
  return out;
}

/**
 * "1.7M GPU-hours", "a budget of 500k gpu hours": a budget in GPU-hours, never a GPU count. A GPU's name may stand for
 * "GPU" or before it: "600k H100 hours", "600k H100-hours", "600k H100 GPU-hours" are H100 GPU-hours (QA: takeCounts
 * read "600k H100" as 600,000 GPUs, the hours dropped). Read before the counts, which would take the number before the name.
 */
export function takeGpuHours(s: Scanner): number | undefined {
  const m = s.take(new RegExp(String.raw`\b${SCALED_COUNT}\s*(?:${HW_TOKEN}[\s-]*(?:gpus?[\s-]*)?|gpu[\s-]*)(?:hours?|hrs?|h)\b`));
  return m ? scaledCount(m[1], m[2]) : undefined;
}

/**
 * "700k node-hours", "a budget of 700k node hours", "700k H100 node-hours": a budget in node-hours, as written, never a count
 * of nodes (QA: takeCounts read "700k node" as 700,000 nodes and planned 5.6M GPUs for 1.1 hours). parse.ts makes it
 * GPU-hours once the node type, and so its GPUs, are known. Read before the counts, as takeGpuHours is.
 */
export function takeNodeHours(s: Scanner): { nodeHours: number; written: string } | undefined {
  const m = s.take(new RegExp(String.raw`\b${SCALED_COUNT}\s*(?:${HW_TOKEN}[\s-]*)?node[\s-]*(?:hours?|hrs?|h)\b`));
  const nodeHours = m === undefined ? undefined : scaledCount(m[1], m[2]);
  return m === undefined || nodeHours === undefined ? undefined : { nodeHours, written: m[0].trim() };
}

/** A month is taken as 30 days (as "3 months" = 90 days); answers say so when a question counts months. */
export const DAYS_PER_MONTH = 30;
/** A year is taken as 365 days; answers say so when a question counts years. */
export const DAYS_PER_YEAR = 365;
const DURATION_UNITS: Record<string, number> = {
  minute: minutes(1), hour: hours(1), day: days(1), week: days(7), month: days(DAYS_PER_MONTH), year: days(DAYS_PER_YEAR),
};


const HALF = String.raw`\s+and\s+a\s+half`;

/** Not a duration: "3D parallel(ism)", "2-way", nor "w/o" (without) read as weeks. */
const NOT_A_DURATION = String.raw`(?![\s-]*(?:parallel\w*|way)\b)(?!\/)`;

export interface Deadline {
  seconds: number;
  /** What the reading assumed, said back in the answer (a month's length). */
  assumed?: string;
}

const unitKey = (unit: string): string => (/^min/.test(unit) ? 'minute'
  : unit.startsWith('h') ? 'hour' : unit.startsWith('d') ? 'day' : unit.startsWith('w') ? 'week' : unit.startsWith('y') ? 'year' : 'month');
/** The days a month or a year is taken as, said back in the answer. */
const CALENDAR_DAYS: Record<string, number> = { month: DAYS_PER_MONTH, year: DAYS_PER_YEAR };
const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A span's units in digits: "30 minutes", "20 min", "36 hours", "14d", "3 months". Minutes before months, so "20 min" is
 * never 20 months; no bare "m", which counts millions ("2m tokens"), nor "ms", a serving latency (serving.ts reads those first).
 */
const DIGIT_UNITS = String.raw`(minutes?|mins?|hours?|hrs?|h|days?|d|weeks?|wks?|months?|mo|years?|yrs?|y)`;

/**
 * A further part of a span written in parts, right after the first: "2 weeks 3 days", "1 day and 12 hours", "2 weeks, 3
 * days", "1 hour 30 minutes". Group 1 the number, group 2 its unit.
 */
const SPAN_PART = new RegExp(String.raw`^\s*(?:,\s*|\s+and\s+|\s*\+\s*)?${NUMBER}\s*${DIGIT_UNITS}\b${NOT_A_DURATION}`);

/**
 * "2 weeks 3 days" is one span of 17 days, its parts summed, as a person counts it (QA: 14 days planned, "3 days" left
 * unread). Only parts in falling units ("2 weeks 3 days", "1 day 12 hours"): "3 days 2 weeks" is no way to write a span,
 * and its second part is left for the unread numbers to say. `m` is the first part's match, already blanked.
 */
function spanParts(s: Scanner, m: RegExpExecArray, first: { count: number; key: string }): { seconds: number; written: string; keys: string[] } {
  let seconds = first.count * (DURATION_UNITS[first.key] ?? days(1));
  let end = m.index + m[0].length;
  let last = DURATION_UNITS[first.key] ?? days(1);
  const keys = [first.key];
  for (let part = SPAN_PART.exec(s.text.slice(end)); part !== null; part = SPAN_PART.exec(s.text.slice(end))) {
    const key = unitKey(part[2] ?? '');
    const unit = DURATION_UNITS[key] ?? days(1);
    if (unit >= last) break;
    seconds += Number(part[1]) * unit;
    s.blank({ index: end, length: part[0].length });
    end += part[0].length;
    last = unit;
    keys.push(key);
  }
  return { seconds, written: m.input.slice(m.index, end).replace(/\s+/g, ' ').trim(), keys };
}

/**
 * "in 30 days", "within 2 weeks", "3 months", "36 hours", "90 minutes", "14d", "1 year"; in words: "in a week", "two weeks",
 * "in a month", "a month and a half", "two and a half weeks", "in a year"; in parts: "2 weeks 3 days" (spanParts).
 * "3D parallel" is not a 3-day deadline. A month is taken as DAYS_PER_MONTH days and a year as DAYS_PER_YEAR, and said so.
 * Minutes are a deadline like any span (QA: "in 30 minutes" was left unread and a default 30 days planned with a confident
 * headline); the answer then says no size meets it, with the closest.
 */
export function takeDeadline(s: Scanner): Deadline | undefined {
  // Never a number inside a word: "p4d" (an AWS instance) is no 4-day deadline, "a3" no 3 years. No bare "w": "700W" is
  // power (unmodelled-settings.ts), never 700 weeks.
  const digits = s.take(new RegExp(String.raw`(?<![A-Za-z\d.])${NUMBER}\s*${DIGIT_UNITS}\b${NOT_A_DURATION}`));
  // "a week" only after a preposition ("in a week", "within a month"), so "1B tokens a day" is no deadline.
  // "and a half" on either side of the unit: "a month and a half", "two and a half weeks".
  const words = digits ?? s.take(new RegExp(String.raw`(?:\b(?:in|within|under|over|for|inside|than|about|around|roughly)\s+(?:an?|one)|\b(${LONE_NUMBER_WORD}))(${HALF})?\s+(minutes?|hours?|days?|weeks?|months?|years?)\b(${HALF})?`));
  const m = digits ?? words;
  if (!m) return undefined;
  const count = digits ? Number(m[1]) : (m[1] === undefined ? 1 : NUMBER_WORDS[m[1]] ?? 1) + (m[2] ?? m[4] ? 0.5 : 0);
  const key = unitKey((digits ? m[2] : m[3]) ?? '');
  const parts = digits ? spanParts(s, m, { count, key }) : undefined;
  if (parts !== undefined && parts.keys.length > 1) {
    // Said back with the sum, and a month's or a year's length where a part counts them.
    const calendar = parts.keys.flatMap((k) => (CALENDAR_DAYS[k] === undefined ? [] : [`a ${k} taken as ${CALENDAR_DAYS[k]} days`]));
    const total = parts.seconds >= days(1) ? plural(Number((parts.seconds / days(1)).toFixed(2)), 'day') : plural(Number((parts.seconds / hours(1)).toFixed(2)), 'hour');
    return { seconds: parts.seconds, assumed: `"${parts.written}" read as one span, its parts summed: ${total}${calendar.length === 0 ? '' : ` (${calendar.join(', ')})`}` };
  }
  const seconds = count * (DURATION_UNITS[key] ?? days(1));
  const perUnit = CALENDAR_DAYS[key];
  if (perUnit === undefined) return { seconds };
  const inDays = count === 1 ? '' : ` (${plural(count, key)} = ${plural(Number((count * perUnit).toFixed(1)), 'day')})`;
  return { seconds, assumed: `a ${key} taken as ${perUnit} days${inDays}` };
}

/* Deadlines given as a date ("by 31 december", "by end of month"): dates.ts, read against the caller's today. */

export type IntegerField = 'tensor' | 'pipeline' | 'context' | 'data' | 'virtualStages' | 'microBatchSize' | 'globalBatchSize' | 'seqLength';

/** Megatron's flag names and the words people use for them: "tp 8", "tp=8", "tp8", "8-way tensor parallel". */
const PARALLEL_WORDS: readonly [IntegerField, string][] = [
  ['tensor', String.raw`tp|tensor(?:[\s-]*model)?(?:[\s-]*parallel(?:ism|\s*size)?)?`],
  ['pipeline', String.raw`pp|pipeline(?:[\s-]*model)?(?:[\s-]*parallel(?:ism|\s*size)?)?(?:[\s-]*stages?)?`],
  ['context', String.raw`cp|context[\s-]*parallel(?:ism|\s*size)?`],
  ['data', String.raw`dp|data[\s-]*parallel(?:ism|\s*size)?`],
  ['virtualStages', String.raw`vp|vpp|virtual[\s-]*(?:pipeline[\s-]*)?stages?|interleav(?:ed|ing)`],
  ['microBatchSize', String.raw`mbs|micro[\s-]*batch(?:[\s-]*size)?`],
  // A bare "batch 1536" is the global batch (a micro-batch is named as one, above; "batch 4M tokens" is takeTokenPhrases').
  ['globalBatchSize', String.raw`gbs|global[\s-]*batch(?:[\s-]*size)?|batch(?:[\s-]*size)?`],
  ['seqLength', String.raw`seq(?:uence)?(?:[\s-]*len(?:gth)?)?|context[\s-]*length|ctx`],
];

/**
 * A size written by name: after its name ("tp 8", "tp=8", "pipeline parallel size of 4") or before it ("8-way tensor
 * parallel", "4 pp"); group 1 the number, group 2 its "k" (or a sequence length's scale).
 */
export function sizePatterns(field: IntegerField): { after: RegExp; before: RegExp } {
  const words = PARALLEL_WORDS.find(([f]) => f === field)?.[1] ?? '';
  // A sequence length is a length in tokens ("seq 1M"); the sizes are counts, read with a fraction if one is written
  // ("global batch 1.5"), which answer/whole-counts.ts refuses: never its digits before the point (a batch of 1) unsaid.
  const number = field === 'seqLength' ? TOKEN_LENGTH : KILO_NUMBER;
  return {
    // One space at most each side of "=" ("seq len 1T tokens 64 H100": "1T tokens" blanked, the 64 beyond its blank
    // is the GPUs' count, never the sequence's length).
    after: new RegExp(String.raw`\b(?:${words}) ?(?:(?:=|:|of|is) ?)?${number}\b`),
    before: new RegExp(String.raw`\b${number}(?:[\s-]*way)?[\s-]*(?:${words})\b`),
  };
}

/**
 * Parallel sizes, batch sizes and sequence length, by name before or after the number. `lengthRead`: a sequence length
 * takeTokenPhrases read already ("at 128k"), whose place a second one ("seq 8k") never takes unsaid: it is left in the
 * text, for the unread numbers to say.
 */
export function takeParallelism(s: Scanner, lengthRead = false): Partial<Pick<AskParameters, IntegerField>> {
  const out: Partial<Pick<AskParameters, IntegerField>> = {};
  // "8k context", "128k-token context window": a sequence length (a number before "context" not followed by
  // "parallel"; "context parallel 2" and "cp 2" are context parallelism, below).
  const window = lengthRead ? undefined : s.take(new RegExp(String.raw`\b${TOKEN_LENGTH}[\s-]*(?:tokens?[\s-]*)?context(?:[\s-]*(?:window|length))?\b(?![\s-]*parallel)`));
  if (window) out.seqLength = tokenLength(window[1], window[2]);
  for (const [field] of PARALLEL_WORDS) {
    if (out[field] !== undefined || (field === 'seqLength' && lengthRead)) continue;
    const { after, before } = sizePatterns(field);
    // A number directly before "seq len" / "seq" / "ctx" is the length ("8192 seq len 64 H100"); "seq 8192" after it reads next.
    const m = field === 'seqLength' ? s.take(before) ?? s.take(after) : s.take(after) ?? s.take(before);
    // "8k context" / "32k sequence": k is 1024 here (4k = 4096, as Llama 2 says).
    if (m) out[field] = field === 'seqLength' ? tokenLength(m[1], m[2]) : writtenCount(m[1], m[2]);
  }
  return out;
}

export function takePrecision(s: Scanner): AskParameters['precision'] {
  const m = s.take(/\b(fp8|bf16|fp16)\b/);
  return m ? (m[1] as AskParameters['precision']) : undefined;
}

/** "sequence parallel", "with SP", "no sequence parallelism". */
export function takeSequenceParallel(s: Scanner): boolean | undefined {
  if (s.take(/(?:\b(?:no|without)|\bw\/o)\s*(?:sequence[\s-]*parallel\w*|sp)\b/)) return false;
  if (s.take(/\bsequence[\s-]*parallel\w*|\bsp\b/)) return true;
  return undefined;
}

/** "distributed optimizer", "dist opt", "without the distributed optimizer" (Megatron's --use-distributed-optimizer). */
export function takeDistributedOptimizer(s: Scanner): boolean | undefined {
  const name = String.raw`(?:the\s+)?(?:distributed[\s-]*optimi[sz]er|dist[\s-]*opt)`;
  if (s.take(new RegExp(String.raw`(?:\b(?:no|without)|\bw\/o)\s*${name}\b`))) return false;
  if (s.take(new RegExp(String.raw`\b${name}\b`))) return true;
  return undefined;
}

/** How a ZeRO stage was named: "FSDP" is read as stage 3, and the answer says so. */
export interface ZeroStage {
  stage: 1 | 2 | 3;
  assumed?: string;
}

/**
 * "zero-3", "ZeRO stage 2", "deepspeed zero3" (Rajbhandari et al. 2020); "FSDP" is PyTorch's full sharding,
 * which shards parameters, gradients and optimizer states as ZeRO-3 does (Zhao et al. 2023).
 */
export function takeZeroStage(s: Scanner): ZeroStage | undefined {
  const zero = s.take(/\b(?:deepspeed[\s-]*)?zero[\s-]*(?:stage[\s-]*)?([1-3])\b/);
  if (zero) return { stage: Number(zero[1]) as 1 | 2 | 3 };
  if (s.take(/\b(?:pytorch[\s-]*)?fsdp2?\b|\bfully[\s-]*sharded[\s-]*data[\s-]*parallel\w*/)) {
    return { stage: 3, assumed: 'FSDP read as ZeRO-3 (parameters, gradients and optimizer states sharded over data parallelism, as its full sharding does)' };
  }
  return undefined;
}

const OPS: readonly [CollectiveOp, RegExp][] = [
  ['all-reduce', /\ball[\s-]*reduce\b|\ballreduce\b/],
  ['all-gather', /\ball[\s-]*gather\b|\ballgather\b/],
  ['reduce-scatter', /\breduce[\s-]*scatter\b|\breducescatter\b/],
  ['all-to-all', /\ball[\s-]*to[\s-]*all\b|\balltoall\b|\ba2a\b/],
  ['broadcast', /\bbroadcast\b|\bbcast\b/],
  ['reduce', /\breduce\b/],
];

/** The NCCL collective a question names, if any. */
export function takeCollectiveOp(s: Scanner): CollectiveOp | undefined {
  for (const [op, pattern] of OPS) if (s.take(pattern)) return op;
  return undefined;
}

export function takeAlgorithm(s: Scanner): CollectiveAlgorithm | undefined {
  const m = s.take(/\b(ring|tree|nvls)\b/);
  return m ? (m[1] as CollectiveAlgorithm) : undefined;
}

/** A message size with an explicit byte unit ("1 GB", "256MiB", "4096 bytes"); a bare "B" is billions elsewhere. */
export function takeBytes(s: Scanner): number | undefined {
  const m = s.take(new RegExp(String.raw`(${DECIMAL})\s*(kib|mib|gib|tib|pib|kb|mb|gb|tb|pb|bytes?)\b`));
  if (!m) return undefined;
  return parseBytes(`${m[1]}${m[2]?.startsWith('byte') === true ? '' : m[2] ?? ''}`);
}

/** The ASCII words used for a hardware name once it is found (so counts can sit next to it). */
export const HW_TOKEN = 'HW';

/** Nouns that count machines ("16 nodes", "2 DGX boxes"). */
// A bare "DGX" is one node ("16 DGX" = 16 nodes of the GPU named, DGX H100 when none is); "DGX H100" is a system (hardware.ts).
const NODE_NOUN = String.raw`(?:nodes?|machines?|servers?|boxes|hosts?|trays?|systems?|dgx(?:e?s)?)`;
/** Nouns for a group of GPUs, not one: "an H100 cluster" is no count of one. */
const GROUP_NOUN = String.raw`(?:clusters?|pods?|superpods?|racks?|fleets?|farms?|partitions?|generation|family|series)`;

/**
 * Spelled-out counts before a GPU or node noun become digits: "one node", "a single H100", "two DGX H100",
 * "a GPU", "an H100" (never "an H100 cluster"), so the count patterns below read them.
 */
function spelledCounts(s: Scanner, notBeforeHardware: boolean): void {
  const hardware = notBeforeHardware ? '' : String.raw`|${HW_TOKEN}\b(?!\s*${GROUP_NOUN}\b)`;
  // "one 8xH100 node", "two 8x A100 nodes": a count of nodes before the GPUs each holds (QA: "one" was left a word, and 128
  // nodes planned as "no cluster size given").
  const perNodeX = String.raw`|\d+x\s*(?:${HW_TOKEN}\s*)?(?:gpus?\s*)?${NODE_NOUN}\b`;
  const noun = String.raw`(?=\s*(?:(?:${HW_TOKEN}\s*)?(?:gpus?|${NODE_NOUN})\b${hardware}${perNodeX}))`;
  s.text = s.text.replace(new RegExp(String.raw`\b(?:(a\s+single|single|an?)|(${LONE_NUMBER_WORD}))\b${noun}`, 'g'), (_m, single: string | undefined, word: string | undefined) =>
    String(single !== undefined ? 1 : NUMBER_WORDS[word ?? ''] ?? 1));
}

/** What a count beside the hardware name counts, by what the name is (parse.ts reads it from the hardware matched). */
export interface CountContext {
  /** The name is a node type ("DGX A100"): a bare count before it is nodes ("280 DGX A100"), not GPUs. */
  nodeNamed: boolean;
  /**
   * The name is a rack-scale system (GB200 NVL72): `gpus` in one rack (one NVLink domain), and `named` when the
   * rack's own name was used ("GB200 NVL72", so "8 GB200 NVL72" counts racks; "72 GB200" counts GPUs).
   */
  rack?: { gpus: number; named: boolean };
  /** GPUs in one node of the hardware named, for "half a DGX H100" (half of them); undefined when no hardware is named. */
  nodeGpus?: number;
}

/** The counts read, and whether one was written in thousands ("16k H100s"), whose reading the answer says. */
export interface CountsRead {
  counts: Pick<AskParameters, 'nodes' | 'gpus' | 'gpusPerNode'>;
  kilo: boolean;
  /** Racks of a rack-scale system as written ("2 GB200 racks"): `counts.gpus` holds their GPUs, so a fraction shows only here. */
  racks?: number;
  /** How nodes are racked, as written ("2 nodes per rack"): no count of the cluster, and nothing the fabric presets model. */
  perRack?: string;
  /** "2x H100 nodes" read as 2 nodes of the GPU's usual node, as written (HW_TOKEN for the GPU), for parse.ts to say. */
  timesNodes?: { written: string; nodes: number };
  /** "8x H100 nodes", "8-gpu nodes": GPUs a node with no count of nodes before, as written (HW_TOKEN for the GPU), for parse.ts to say. */
  perNodeOnly?: { written: string; gpusPerNode: number };
}

/**
 * Node and GPU counts around the hardware name: "128 nodes", "280 DGX A100", "64 H100 nodes",
 * "1,024 GPUs", "64 H100s", "nodes of 8 GPUs", "16 nodes of 8x A100", "16 8xH100 nodes", "one node",
 * "a single H100", "2 GB200 racks".
 */
export function takeCounts(s: Scanner, { nodeNamed, rack, nodeGpus }: CountContext): CountsRead {
  // A rack-scale system's preset node is one tray, which no bare count means: "8 GB200 NVL72" is never 8 trays.
  const systemNamed = nodeNamed && rack === undefined;
  let kilo = false;
  let rackCount: number | undefined;
  const out: Pick<AskParameters, 'nodes' | 'gpus' | 'gpusPerNode'> = {};
  // Never a number glued inside a word: "a3 nodes" (GCP's A3 family) is no 3 nodes, as "p4d" is no 4 days.
  const num = String.raw`(?<![a-z\d.])${KILO_NUMBER}`;
  // "16k H100s" is 16,000 GPUs, k a thousand as the CLI reads it (numbers.ts COUNT_KILO); `kilo` lets parse.ts say so.
  const value = (whole: string, k: string | undefined): number => {
    if (k === 'k') kilo = true;
    return writtenCount(whole, k);
  };
  // "a rack of GB200", "2 GB200 racks", "two racks of GB200": racks of rack.gpus GPUs (one NVLink domain each).
  if (rack !== undefined) {
    s.text = s.text.replace(new RegExp(String.raw`\b(?:(a\s+single|single|an?)|(${LONE_NUMBER_WORD}))\b(?=\s*(?:${HW_TOKEN}\s*)?racks?\b)`, 'g'),
      (_m, single: string | undefined, word: string | undefined) => String(single !== undefined ? 1 : NUMBER_WORDS[word ?? ''] ?? 1));
    const racks = s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?racks?\b(?:\s+of\s+${HW_TOKEN}\b)?`));
    if (racks) {
      rackCount = value(racks[1] ?? '', racks[2]);
      out.gpus = rack.gpus * rackCount;
    }
  }
  // "2 nodes per rack", "4 servers in each rack": how the nodes are racked, never the cluster's size (QA: "512 H100 … with 2 nodes
  // per rack" was planned on 2 nodes). Taken out and said back: the fabric presets fix the topology.
  const perRack = s.take(new RegExp(String.raw`(?<![\d.])\d+(?:\.\d+)?\s*(?:${HW_TOKEN}\s*)?(?:nodes?|servers?|machines?|boxes|gpus?)\s+(?:per|a|each|in\s+(?:each|every|a)|/)\s*racks?\b`));
  // "8 GPUs per node", "8 H100 a node" (before spelled counts, so "a node" stays per node here).
  const perNode = s.take(new RegExp(String.raw`(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?(?:gpus?\s*)?(?:per|a|each|/)\s*(?:node|server|machine|box)\b`));
  if (perNode) out.gpusPerNode = Number(perNode[1]);
  // "half a DGX H100", "a quarter of a node": half (a quarter of) its GPUs (before spelled counts, which would read "a node" as one).
  const part = nodeGpus === undefined ? undefined : s.take(new RegExp(String.raw`\b(half|(?:an?\s+|one\s+)?quarter)\s+(?:of\s+)?an?\s+(?:${HW_TOKEN}\s*)?(?:${NODE_NOUN}|${HW_TOKEN})\b`));
  if (part !== undefined && nodeGpus !== undefined) out.gpus = Math.max(1, Math.round(nodeGpus / (part[1] === 'half' ? 2 : 4)));
  // "a GB200 NVL72" is a rack of 18 trays, never one tray (the preset's node): no spelled count for it.
  spelledCounts(s, rack !== undefined);
  // "16 nodes of 8x A100", "one node with 8 GPUs": the count before is nodes, the one after GPUs per node.
  const nodesOf = out.gpusPerNode === undefined
    ? s.take(new RegExp(String.raw`(?:${num}\s*)?${NODE_NOUN}\s+(?:of|with)\s+(\d+)(?:\s*x\b|(?![\w.]))\s*(?:${HW_TOKEN}\s*)?(?:gpus?)?`))
    : undefined;
  if (nodesOf) {
    out.gpusPerNode = Number(nodesOf[3]);
    if (nodesOf[1] !== undefined) out.nodes = value(nodesOf[1], nodesOf[2]);
  }
  // "16 8xH100 nodes", "8xA100 nodes": 8 GPUs per node; a count before is nodes. "8xH100" alone counts GPUs.
  const perNodeX = systemNamed || out.gpusPerNode !== undefined
    ? undefined
    // "2 x 8xH100 nodes" and "4 8-gpu H100 nodes" too: the count before, "x" or none, is nodes (QA: "2 x" and "4 8" were
    // left unread and 128 nodes planned as "no cluster size given").
    : s.take(new RegExp(String.raw`(?:${num}(?:\s*x)?\s+)?(\d+)(?:x\s*(?:${HW_TOKEN}\s*(?:gpus?\s*)?|gpus?\s*)|-gpus?\s*(?:${HW_TOKEN}\s*)?)(${NODE_NOUN})\b`));
  let timesNodes: CountsRead['timesNodes'];
  let perNodeOnly: CountsRead['perNodeOnly'];
  if (perNodeX) {
    const times = Number(perNodeX[3]);
    // "2x H100 nodes", no count before and a multiplier no node of the GPU holds: two nodes, each the GPU's usual node (QA:
    // read as nodes of 2 GPUs). "8xH100 nodes" (the node's own count) stays nodes of 8, and "a 4xA100 node" (one node)
    // nodes of 4, which parse.ts says no preset has; "4-gpu nodes" says its GPUs a node, never a count of nodes.
    const multiplier = !new RegExp(String.raw`${perNodeX[3]}-gpu`).test(perNodeX[0]);
    if (multiplier && perNodeX[1] === undefined && nodeGpus !== undefined && times !== nodeGpus && /s$/.test(perNodeX[4] ?? '')) {
      out.nodes = times;
      timesNodes = { written: perNodeX[0].trim(), nodes: times };
    } else {
      out.gpusPerNode = times;
      if (perNodeX[1] !== undefined) out.nodes = value(perNodeX[1], perNodeX[2]);
      else perNodeOnly = { written: perNodeX[0].trim(), gpusPerNode: times };
    }
  }
  // "16x8 H100", "16 x 8 GPUs": nodes × the GPUs in each, as a cluster is written (QA: "on 16x8 H100" was read as no cluster
  // at all, and 128 nodes planned as "no cluster size given"). A node holds 1, 2, 4, 8 or 16 GPUs (the presets' nodes).
  const grid = systemNamed || rack !== undefined || out.gpusPerNode !== undefined || out.nodes !== undefined || out.gpus !== undefined
    ? undefined
    : s.take(new RegExp(String.raw`${num}\s*x\s*(1|2|4|8|16)\s*(?:x\s*)?(?:${HW_TOKEN}\s*(?:gpus?)?|gpus?)(?![\w])`));
  if (grid) {
    out.nodes = value(grid[1] ?? '', grid[2]);
    out.gpusPerNode = Number(grid[3]);
  }
  const nodes = out.nodes === undefined ? s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*)?${NODE_NOUN}\b`)) : undefined;
  if (nodes) out.nodes = value(nodes[1] ?? '', nodes[2]);
  // "64 H100", "8x H100"; else "H100 x 512", "H100 * 512" (the count after the name, as a bill of materials writes it).
  const next = out.gpus !== undefined ? undefined : s.take(new RegExp(String.raw`${num}\s*(?:x\s*)?(?:${HW_TOKEN}\s*(?:gpus?)?|gpus?)(?![\w])`))
    ?? (out.nodes === undefined ? s.take(new RegExp(String.raw`\b${HW_TOKEN}\s*(?:gpus?\s*)?[x*]\s*(\d+(?:\.\d+)?)(k?)(?![\w.])`)) : undefined);
  if (next) {
    // "280 DGX A100" counts nodes; "64 H100" counts GPUs.
    if (systemNamed && !/gpu/.test(next[0]) && out.nodes === undefined) out.nodes = value(next[1] ?? '', next[2]);
    // "8 GB200 NVL72": racks, each one NVLink domain of rack.gpus (72) GPUs.
    else if (rack?.named === true && !/gpu/.test(next[0])) out.gpus = rack.gpus * value(next[1] ?? '', next[2]);
    else out.gpus = value(next[1] ?? '', next[2]);
  }
  return {
    counts: out, kilo, ...(rackCount !== undefined && { racks: rackCount }), ...(perRack !== undefined && { perRack: perRack[0].trim() }),
    ...(timesNodes !== undefined && { timesNodes }), ...(perNodeOnly !== undefined && { perNodeOnly }),
  };
}
