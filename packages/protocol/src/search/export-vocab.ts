import { formatGrouped } from '@trainplan/units';
import type { PresetTokenizer } from '@trainplan/presets';

/**
 * Megatron's vocabulary padding: megatron/training/tokenizer/tokenizer.py _vocab_size_with_padding pads the
 * tokenizer's vocabulary to a multiple of --make-vocab-size-divisible-by (default 128, arguments.py) × TP, and NeMo
 * does the same with make_vocab_size_divisible_by (128 in megatron_gpt_config.yaml). Padding rows are embedding and
 * output-layer rows the plan does not count, so where the model's vocabulary allows, a smaller divisor avoids them.
 */
export const DEFAULT_VOCAB_DIVISOR = 128;

export interface VocabPadding {
  /** The divisor to set: DEFAULT_VOCAB_DIVISOR, or the one that makes the tokenizer's vocabulary the model's rows. */
  readonly divisor: number;
  /** Rows of the embedding (and an untied output layer) Megatron builds with that divisor. */
  readonly padded: number;
  /** What the divisor means here, for a comment. */
  readonly note: string;
}

const roundUp = (n: number, multiple: number): number => Math.ceil(n / multiple) * multiple;

/**
 * The divisor that makes Megatron build exactly `rows` from `tokens` at TP `tensor` (ceil(tokens / (d·t)) · d·t =
 * rows, _vocab_size_with_padding): the default 128 where it does; else the largest power of two below it (fewer rows
 * of alignment lost); else the smallest larger divisor, which a padded preset vocabulary needs at a smaller TP than it
 * was padded at (GPT-2's 50,257 → 51,200 at TP 2: 512, as 1,024 / 2). Undefined where none does: d·t must divide rows.
 */
function divisorFor(tokens: number, rows: number, tensor: number): number | undefined {
  const makes = (d: number): boolean => roundUp(tokens, d * tensor) === rows;
  for (let d = DEFAULT_VOCAB_DIVISOR; d >= 1; d /= 2) if (makes(d)) return d;
  // d·t ≤ rows: a larger multiple pads any vocabulary past them.
  for (let d = DEFAULT_VOCAB_DIVISOR + 1; d * tensor <= rows; d++) if (makes(d)) return d;
  return undefined;
}

/**
 * The vocabulary divisor for a model of `vocab` rows at tensor-parallel size t, and the rows Megatron then builds.
 * Without `tokenizer` the rows are the tokenizer's own vocabulary (Llama 3's 128,256) and the divisor pads them not at
 * all where it can; with it (a preset that records its tokenizer's vocabulary padded: export-tokenizer.ts) the divisor
 * pads the tokenizer's tokens to exactly those rows, the model the plan counts.
 */
export function vocabPadding(vocab: number, tensor: number, tokenizer?: PresetTokenizer): VocabPadding {
  const multiple = DEFAULT_VOCAB_DIVISOR * tensor;
  if (tokenizer !== undefined && tokenizer.tokens < vocab) return paddedTokenizer(vocab, tensor, tokenizer);
  const padded = roundUp(vocab, multiple);
  if (padded === vocab) {
    return { divisor: DEFAULT_VOCAB_DIVISOR, padded, note: `vocabulary padding: to a multiple of 128 × TP ${tensor} = ${formatGrouped(multiple)}, which this model's ${formatGrouped(vocab)} rows are` };
  }
  const d = divisorFor(vocab, vocab, tensor);
  if (d !== undefined) {
    return {
      divisor: d,
      padded: vocab,
      note: `vocabulary padding: divisor ${d}, not the default 128, whose 128 × TP ${tensor} = ${formatGrouped(multiple)} would make this model's `
        + `${formatGrouped(vocab)} rows ${formatGrouped(padded)}; ${d} × ${tensor} = ${formatGrouped(d * tensor)} divides ${formatGrouped(vocab)}`,
    };
  }
  return {
    divisor: DEFAULT_VOCAB_DIVISOR,
    padded,
    note: `vocabulary padding: to a multiple of 128 × TP ${tensor} = ${formatGrouped(multiple)}, so this model's ${formatGrouped(vocab)} rows become `
      + `${formatGrouped(padded)} (${formatGrouped(padded - vocab)} rows the plan does not count; no divisor avoids them at TP ${tensor})`,
  };
}

/**
 * One line where the rows kept (a divisor below the default, so the plan's rows are built unpadded) are not a multiple of
 * 128: the output layer's GEMM then has a dimension off the 128 alignment Megatron's default padding is there to give
 * (arguments.py --make-vocab-size-divisible-by: 'Pad the vocab size to be divisible by this value.' 'This is added for
 * computational efficieny reasons.', sic). Says the rows the default would build at this TP (128 × TP, the padding rows the
 * plan does not count) and `how` to ask for them.
 */
export function unpaddedRowsNote(vocab: VocabPadding, rows: number, tensor: number, how: string): string[] {
  if (vocab.divisor >= DEFAULT_VOCAB_DIVISOR || rows % DEFAULT_VOCAB_DIVISOR === 0) return [];
  const padded = roundUp(rows, DEFAULT_VOCAB_DIVISOR * tensor);
  return [`speed: the output layer's ${formatGrouped(rows)} rows are not a multiple of 128; Megatron's default pads them to a multiple of 128 × TP ${tensor}, `
    + `${formatGrouped(padded)} rows (${formatGrouped(padded - rows)} the plan does not count), usually faster: ${how}`];
}

/** A preset's rows as its tokenizer's tokens padded: the divisor that makes exactly those rows at this TP. */
function paddedTokenizer(rows: number, tensor: number, tokenizer: PresetTokenizer): VocabPadding {
  const multiple = DEFAULT_VOCAB_DIVISOR * tensor;
  const byDefault = roundUp(tokenizer.tokens, multiple);
  const from = `${tokenizer.name} has ${formatGrouped(tokenizer.tokens)} tokens`;
  if (byDefault === rows) {
    return { divisor: DEFAULT_VOCAB_DIVISOR, padded: rows, note: `vocabulary padding: ${from}, which the default 128 × TP ${tensor} = ${formatGrouped(multiple)} pads to this model's ${formatGrouped(rows)} rows` };
  }
  const d = divisorFor(tokenizer.tokens, rows, tensor);
  if (d !== undefined) {
    return {
      divisor: d,
      padded: rows,
      note: `vocabulary padding: divisor ${d}, not the default 128: ${from}, which 128 × TP ${tensor} = ${formatGrouped(multiple)} would pad to `
        + `${formatGrouped(byDefault)} rows, not this model's ${formatGrouped(rows)}; ${d} × ${tensor} = ${formatGrouped(d * tensor)} pads them to ${formatGrouped(rows)}`,
    };
  }
  return {
    divisor: DEFAULT_VOCAB_DIVISOR,
    padded: byDefault,
    note: `vocabulary padding: ${from}, which 128 × TP ${tensor} = ${formatGrouped(multiple)} pads to ${formatGrouped(byDefault)} rows, not the `
      + `${formatGrouped(rows)} this plan counts; no divisor makes ${formatGrouped(rows)} at TP ${tensor} (divisor × ${tensor} must divide it)`,
  };
}
