import type { ModelPreset } from '@trainplan/presets';

/**
 * The tokenizer whose vocabulary a preset's embedding rows pad, where the preset records the padded count: the exports
 * must pad the tokenizer's own count to exactly those rows (export-vocab.ts), not take the rows for the tokenizer's.
 */
export interface PresetTokenizer {
  /** For a comment: "GPT-2's BPE". */
  readonly name: string;
  /** The tokenizer's vocabulary before Megatron's padding, in tokens. */
  readonly tokens: number;
}

/**
 * GPT-2's byte-level BPE: 50,257 tokens (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners",
 * §2.3: "The vocabulary is expanded to 50,257"; Megatron-LM's GPT2BPETokenizer). The GPT-3 presets (Brown et al.
 * 2020), the SC'21 Megatron GPT presets (Narayanan et al. 2021, V = 51,200) and MT-NLG 530B (GPT-2's BPE) record it
 * padded to 51,200, as Megatron-LM pads it at TP 8, which their citations say (presets/src/gpt3.ts, megatron.ts).
 */
const GPT2_BPE: PresetTokenizer = { name: "GPT-2's BPE (Megatron's GPT2BPETokenizer)", tokens: 50257 };

/**
 * BLOOM's tokenizer: 250,680 tokens (BigScience 2022, arXiv:2211.05100, its tokenizer section; presets/src/bloom.ts: "Vocabulary
 * 250,680 padded to 250,880 for tensor parallelism").
 */
const BLOOM_BPE: PresetTokenizer = { name: "BLOOM's BPE", tokens: 250680 };

/**
 * The tokenizer a preset's padded vocabulary comes from, by preset id; undefined where the preset's vocabulary is the
 * tokenizer's own (Llama 3's 128,256, Nemotron-4's 256,000) or the model is not a preset. Kept here, not on the preset,
 * because only the exports need it.
 */
export function presetTokenizer(preset: ModelPreset | undefined): PresetTokenizer | undefined {
  if (preset === undefined) return undefined;
  const { id } = preset;
  const tokenizer = id.startsWith('gpt3-') || id.startsWith('megatron-') || id === 'mt-nlg-530b' ? GPT2_BPE
    : id === 'bloom-176b' ? BLOOM_BPE : undefined;
  // A tokenizer larger than the rows cannot be what they pad.
  return tokenizer !== undefined && tokenizer.tokens <= preset.shape.vocabSize ? tokenizer : undefined;
}
