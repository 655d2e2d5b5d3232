import type { AskParameters } from '../question.ts';
import { COUNT_SCALE, DECIMAL, SCALED_COUNT, scaledCount, TOKEN_LENGTH, tokenLength } from './numbers.ts';
import { HW_TOKEN, type Scanner } from './scanner.ts';

/*
 * The token counts and GPU- and node-hours a question carries, and its bare precision. The scanner every reader takes, the
 * deadline's span, the parallel sizes, the memory settings, the collective's words and the cluster's counts have files of
 * their own, exported here as well, as they were before.
 */
export { HW_TOKEN, Scanner } from './scanner.ts';
export { DAYS_PER_MONTH, DAYS_PER_YEAR, takeDeadline, type Deadline } from './deadline.ts';
export { sizePatterns, takeParallelism, type IntegerField } from './parallel-sizes.ts';
export { takeDistributedOptimizer, takeSequenceParallel, takeZeroStage, type ZeroStage } from './memory-settings.ts';
export { takeAlgorithm, takeBytes, takeCollectiveOp } from './collective-words.ts';
export { takeCounts, type CountContext, type CountsRead } from './counts.ts';

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

export function takePrecision(s: Scanner): AskParameters['precision'] {
  const m = s.take(/\b(fp8|bf16|fp16)\b/);
  return m ? (m[1] as AskParameters['precision']) : undefined;
}
