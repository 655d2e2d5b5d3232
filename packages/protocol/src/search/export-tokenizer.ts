import type { ModelPreset, PresetTokenizer } from '@trainplan/presets';

/**
 * The tokenizer a preset's padded vocabulary comes from (the preset's `tokenizer`), which the exports pad to exactly its
 * rows (export-vocab.ts); undefined where the preset's vocabulary is the tokenizer's own or the model is not a preset.
 */
export function presetTokenizer(preset: ModelPreset | undefined): PresetTokenizer | undefined {
  const tokenizer = preset?.tokenizer;
  // A tokenizer larger than the rows cannot be what they pad.
  return tokenizer !== undefined && tokenizer.tokens <= preset!.shape.vocabSize ? tokenizer : undefined;
}
