import { formatGrouped } from '@trainplan/units';

/**
 * Megatron's vocabulary padding: megatron/training/tokenizer/tokenizer.py _vocab_size_with_padding pads the
 * tokenizer's vocabulary to a multiple of --make-vocab-size-divisible-by (default 128, arguments.py) × TP, and NeMo
 * does the same with make_vocab_size_divisible_by (128 in megatron_gpt_config.yaml). Padding rows are embedding and
 * output-layer rows the plan does not count, so where the model's vocabulary allows, a smaller divisor avoids them.
 */
export const DEFAULT_VOCAB_DIVISOR = 128;

export interface VocabPadding {
  /** The divisor to set: DEFAULT_VOCAB_DIVISOR, or a smaller power of two that pads this vocabulary not at all. */
  readonly divisor: number;
  /** Rows of the embedding (and an untied output layer) Megatron builds with that divisor. */
  readonly padded: number;
  /** What the divisor means here, for a comment. */
  readonly note: string;
}

const roundUp = (n: number, multiple: number): number => Math.ceil(n / multiple) * multiple;

/** The vocabulary divisor for a model's vocabulary V at tensor-parallel size t, and the rows Megatron then builds. */
export function vocabPadding(vocab: number, tensor: number): VocabPadding {
  const multiple = DEFAULT_VOCAB_DIVISOR * tensor;
  const padded = roundUp(vocab, multiple);
  if (padded === vocab) {
    return { divisor: DEFAULT_VOCAB_DIVISOR, padded, note: `vocabulary padding: to a multiple of 128 × TP ${tensor} = ${formatGrouped(multiple)}, which this model's ${formatGrouped(vocab)} rows are` };
  }
  for (let d = DEFAULT_VOCAB_DIVISOR / 2; d >= 1; d /= 2) {
    if (vocab % (d * tensor) === 0) {
      return {
        divisor: d,
        padded: vocab,
        note: `vocabulary padding: divisor ${d}, not the default 128, whose 128 × TP ${tensor} = ${formatGrouped(multiple)} would make this model's `
          + `${formatGrouped(vocab)} rows ${formatGrouped(padded)}; ${d} × ${tensor} = ${formatGrouped(d * tensor)} divides ${formatGrouped(vocab)}`,
      };
    }
  }
  return {
    divisor: DEFAULT_VOCAB_DIVISOR,
    padded,
    note: `vocabulary padding: to a multiple of 128 × TP ${tensor} = ${formatGrouped(multiple)}, so this model's ${formatGrouped(vocab)} rows become `
      + `${formatGrouped(padded)} (${formatGrouped(padded - vocab)} rows the plan does not count; no divisor avoids them at TP ${tensor})`,
  };
}
