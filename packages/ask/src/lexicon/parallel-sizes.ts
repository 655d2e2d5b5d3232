import type { AskParameters } from '../question.ts';
import { KILO_NUMBER, TOKEN_LENGTH, tokenLength, writtenCount } from './numbers.ts';
import type { Scanner } from './scanner.ts';

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
