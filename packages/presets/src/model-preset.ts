import type { ModelShape } from '@trainplan/model';

/** A published model: its shape as trainplan models it, and the figures its source states (cited in MODEL_SOURCES). */
export interface ModelPreset {
  readonly id: string;
  readonly shape: ModelShape;
  /** The parameter count the source states, as a plain count (e.g. `billion(175)`). */
  readonly publishedParameters: number;
  /** Tokens the source trained on, when it says. */
  readonly defaultTrainingTokens?: number;
  /**
   * Whether the model was trained with hidden and attention dropout (0.1, Megatron's default), as its
   * source or its training code shows: the default of a scenario's `training.dropout` for this model.
   */
  readonly trainedWithDropout: boolean;
  /**
   * RoPE's base frequency θ where it is not the 10,000 of Su et al. 2021 (Megatron-LM's --rotary-base default):
   * what an exported command line must set to train the same model. No effect on time or memory.
   */
  readonly rotaryBase?: number;
  /**
   * The MLP's nonlinearity where it is neither the GeLU of a plain MLP nor the SwiGLU of a gated one (shape.gatedMlp):
   * Nemotron-4's squared ReLU. What an exported command line must name (Megatron-LM --squared-relu, NeMo activation:
   * squared-relu); the same weights, so no effect on time or memory.
   */
  readonly mlpActivation?: 'squared-relu';
  /**
   * LayerNorm with a zero-centred scale, stored as γ − 1 (Megatron-LM --apply-layernorm-1p, NeMo normalization: layernorm1p):
   * the same 2h parameters as LayerNorm, so no effect on time or memory.
   */
  readonly layerNorm1p?: boolean;
  /** The fraction of each head's dimensions RoPE rotates, where not all of them (Megatron-LM --rotary-percent, default 1.0). */
  readonly rotaryPercent?: number;
  /**
   * Llama 3.1's RoPE frequency scaling (Hugging Face config.json rope_scaling, rope_type llama3): its factor, which an
   * exported command line must set (Megatron-LM --use-rope-scaling --rope-scaling-factor). No effect on time or memory.
   */
  readonly ropeScalingFactor?: number;
  /**
   * The longest context the released model is specified for, where longer than `shape.seqLength` (the pre-training
   * length): what serving may ask of it without a warning.
   */
  readonly contextWindowTokens?: number;
  /**
   * The global batch the source trained with at the preset's sequence length, in sequences, where it states one
   * (after any ramp-up): what a question that gives no batch should assume for this model.
   */
  readonly publishedGlobalBatchSize?: number;
  /**
   * The tokenizer whose vocabulary shape.vocabSize pads, where the preset records the padded count (GPT-2's 50,257
   * tokens as 51,200 rows): an export pads the tokenizer's own count to exactly those rows, at its own TP. Absent where
   * the rows are the tokenizer's own (Llama 3's 128,256, Nemotron-4's 256,000).
   */
  readonly tokenizer?: PresetTokenizer;
}

/** A tokenizer, for a preset whose rows pad it: its name for a comment ("GPT-2's BPE") and its tokens before padding. */
export interface PresetTokenizer {
  readonly name: string;
  readonly tokens: number;
}

/**
 * GPT-2's byte-level BPE: 50,257 tokens (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners",
 * §2.3: "The vocabulary is expanded to 50,257"; Megatron-LM's GPT2BPETokenizer). GPT-3 (Brown et al. 2020), the SC'21
 * Megatron GPT models (Narayanan et al. 2021, V = 51,200) and MT-NLG 530B use it, padded to 51,200 as Megatron-LM pads
 * it at TP 8.
 */
export const GPT2_BPE: PresetTokenizer = { name: "GPT-2's BPE (Megatron's GPT2BPETokenizer)", tokens: 50257 };

/**
 * Megatron-LM's defaults, --hidden-dropout 0.1 and --attention-dropout 0.1 (megatron/training/arguments.py),
 * which the GPT-3-shaped runs of SC'21, Korthikanti 2022, MT-NLG and BLOOM (tr11-176B-ml.slurm passes no
 * dropout flag to Megatron-DeepSpeed) kept.
 */
export const MEGATRON_DEFAULT_DROPOUT = true;

type CoreShape = Pick<ModelShape, 'name' | 'layers' | 'hiddenSize' | 'attentionHeads' | 'vocabSize' | 'seqLength'>;

/** GPT-2/3 conventions as Megatron-LM trains them: MHA, f = 4h, learned positions, tied, biases, LayerNorm. */
export function gptShape(core: CoreShape): ModelShape {
  return {
    ...core,
    kvHeads: core.attentionHeads,
    ffnHiddenSize: 4 * core.hiddenSize,
    gatedMlp: false,
    tiedEmbeddings: true,
    positionEmbedding: 'learned',
    linearBias: true,
    normalization: 'layernorm',
  };
}

/** Llama conventions: SwiGLU MLP, untied embeddings, rotary positions, no biases, RMSNorm. */
export function llamaShape(core: CoreShape & Pick<ModelShape, 'kvHeads' | 'ffnHiddenSize'>): ModelShape {
  return {
    ...core,
    gatedMlp: true,
    tiedEmbeddings: false,
    positionEmbedding: 'rotary',
    linearBias: false,
    normalization: 'rmsnorm',
  };
}
