import type { ModelShape } from '@trainplan/model';
import type { ModelPreset } from '@trainplan/presets';

/** A model's architecture as one export format writes it: arguments (or YAML lines) and the `#` notes that go before them. */
export interface ArchitectureText {
  readonly lines: string[];
  readonly notes: string[];
}

/** The MLP's nonlinearity: the preset's where it names one (Nemotron-4's squared ReLU), else SwiGLU when gated, GeLU when plain. */
export const mlpActivation = (m: ModelShape, preset?: ModelPreset): 'gelu' | 'swiglu' | 'squared-relu' =>
  preset?.mlpActivation ?? (m.gatedMlp ? 'swiglu' : 'gelu');

/**
 * ALiBi in no Megatron-LM: --position-embedding-type takes learned_absolute, rope, mrope, relative or none
 * (megatron/training/arguments.py); BLOOM trained with BigScience's Megatron-DeepSpeed, whose own
 * --position-embedding-type alibi ("the added by us AliBi implementation", bigscience tr11-176B-ml) it needs.
 */
const megatronAlibiNote = (m: ModelShape): string =>
  `# WARNING: ${m.name} uses ALiBi, which Megatron-LM does not have (--position-embedding-type takes learned_absolute, rope, mrope, `
  + 'relative or none): these arguments train it with no position information at all (none), not ALiBi. It was trained with '
  + 'Megatron-DeepSpeed, whose --position-embedding-type alibi this model needs';

/**
 * The architecture flags of megatron/training/arguments.py (_add_network_size_args), each a model fact a default would
 * get wrong: Megatron builds GeLU, LayerNorm, biases, learned positions and tied embeddings unless told otherwise.
 */
export function megatronArchitecture(m: ModelShape, preset?: ModelPreset): ArchitectureText {
  const lines: string[] = [];
  const notes: string[] = [];
  if (m.kvHeads !== m.attentionHeads) lines.push('--group-query-attention', `--num-query-groups ${m.kvHeads}`);
  const activation = mlpActivation(m, preset);
  if (activation === 'swiglu') lines.push('--swiglu');
  if (activation === 'squared-relu') lines.push('--squared-relu');
  if (!m.tiedEmbeddings) lines.push('--untie-embeddings-and-output-weights');
  if (m.positionEmbedding === 'rotary') {
    lines.push('--position-embedding-type rope');
    if (preset?.rotaryBase !== undefined) lines.push(`--rotary-base ${preset.rotaryBase}`);
    if (preset?.rotaryPercent !== undefined) lines.push(`--rotary-percent ${preset.rotaryPercent}`);
    // "Apply rope scaling as used in llama3.x"; the factor defaults to 8.0, written out so Llama 3.2's 32 is not missed.
    if (preset?.ropeScalingFactor !== undefined) lines.push('--use-rope-scaling', `--rope-scaling-factor ${preset.ropeScalingFactor}`);
  }
  if (m.positionEmbedding === 'alibi') {
    lines.push('--position-embedding-type none');
    notes.push(megatronAlibiNote(m));
  }
  if (m.normalization === 'rmsnorm') lines.push('--normalization RMSNorm');
  // core_transformer_config_from_args: layernorm_zero_centered_gamma = args.apply_layernorm_1p.
  if (preset?.layerNorm1p === true) lines.push('--apply-layernorm-1p');
  if (!m.linearBias) lines.push('--disable-bias-linear');
  return { lines, notes };
}

/**
 * Whether NeMo must build the model with NeMo 1.x's legacy, non-Megatron-Core GPT (mcore_gpt: false): ALiBi, which
 * Megatron-Core's GPTModel does not have (nemoArchitecture).
 */
export const nemoUsesLegacyModel = (m: ModelShape): boolean => m.positionEmbedding === 'alibi';

/**
 * NeMo 1.x's model class switch, written either way: MegatronGPTModel reads `self.mcore_gpt = cfg.get('mcore_gpt', False)`,
 * so a config merged without the key builds the legacy GPT, which reads none of the Megatron-Core keys the export writes
 * (context_parallel_size, num_layers_in_first/last_pipeline_stage, account_for_*_in_pipeline_split). Only ALiBi needs the
 * legacy model (nemoUsesLegacyModel).
 */
export const nemoModelClassLine = (m: ModelShape): string => `  mcore_gpt: ${!nemoUsesLegacyModel(m)}`;

/** NeMo 1.x's name of the activation (megatron_gpt_config.yaml: gelu, fast-swiglu, squared-relu, ...). */
const NEMO_ACTIVATION = { gelu: 'gelu', swiglu: 'fast-swiglu', 'squared-relu': 'squared-relu' } as const;

/**
 * Whether NeMo's default bias_activation_fusion (True: MegatronBaseModel.build_transformer_config reads
 * `self.cfg.get('bias_activation_fusion', True)`) must be turned off, because Megatron-Core's TransformerConfig refuses it:
 * "When bias_activation_fusion is True, activation function should be either gelu, swiglu, or quick_geglu" (squared ReLU,
 * Nemotron-4: NVIDIA's nemotron_340b.yaml sets bias_activation_fusion: False), and "When bias_activation_fusion is True,
 * gated_linear_unit is False and activation function is gelu, add_bias_linear must also be True" (a GeLU MLP without biases).
 */
const nemoBiasActivationUnfused = (activation: 'gelu' | 'swiglu' | 'squared-relu', m: ModelShape): boolean =>
  activation === 'squared-relu' || (activation === 'gelu' && m.linearBias !== true);

/**
 * The architecture keys under `model:`, always written: NeMo's GPT defaults (megatron_gpt_config.yaml: gelu, layernorm,
 * bias, learned_absolute, tied embeddings) would otherwise build another model than a Llama's (megatron_llama_config.yaml:
 * fast-swiglu, rmsnorm, bias False, rope, untied) or a Nemotron-4's (the NeMo-Framework-Launcher's nemotron_15b.yaml:
 * squared-relu, layernorm1p with layernorm_zero_centered_gamma, rope with rotary_percentage 0.5).
 */
export function nemoArchitecture(m: ModelShape, preset?: ModelPreset): ArchitectureText {
  const notes: string[] = [];
  const rotary = m.positionEmbedding === 'rotary';
  const norm = m.normalization === 'rmsnorm' ? 'rmsnorm' : preset?.layerNorm1p === true ? 'layernorm1p' : 'layernorm';
  const activation = mlpActivation(m, preset);
  const lines = [
    `  activation: ${NEMO_ACTIVATION[activation]}`,
    ...(nemoBiasActivationUnfused(activation, m) ? [
      `  # Megatron-Core's TransformerConfig refuses NeMo's default bias_activation_fusion (True) for ${activation === 'gelu'
        ? 'a GeLU MLP without biases ("add_bias_linear must also be True")'
        : 'squared ReLU ("should be either gelu, swiglu, or quick_geglu"); NVIDIA\'s nemotron_340b.yaml turns it off too'}`,
      '  bias_activation_fusion: false',
    ] : []),
    `  normalization: ${norm}`,
    ...(norm === 'layernorm1p' ? ['  layernorm_zero_centered_gamma: true'] : []),
    `  bias: ${m.linearBias === true}`,
    `  position_embedding_type: ${rotary ? 'rope' : m.positionEmbedding === 'alibi' ? 'alibi' : 'learned_absolute'}`,
    ...(rotary && preset?.rotaryBase !== undefined ? [`  rotary_base: ${preset.rotaryBase}`] : []),
    ...(rotary && preset?.rotaryPercent !== undefined ? [`  rotary_percentage: ${preset.rotaryPercent}`] : []),
    `  share_embeddings_and_output_weights: ${m.tiedEmbeddings}`,
  ];
  if (rotary && preset?.ropeScalingFactor !== undefined) {
    // NeMo 1.x hands scale_positional_embedding to Megatron-Core's GPTModel as rope_scaling (its convert_llama_hf_to_nemo.py
    // sets it for Llama 3.1), whose factor is Megatron-Core's default 8: there is no key for another factor.
    lines.push('  scale_positional_embedding: true');
    if (preset.ropeScalingFactor !== 8) {
      notes.push(`  # RoPE scaling factor ${preset.ropeScalingFactor}: NeMo 1.x has no key for it and applies Megatron-Core's default 8; `
        + `NeMo 2's Llama 3.1 configs take it as scale_factor (nemo/collections/llm/gpt/model/llama.py: Llama32Config1B 32)`);
    }
  }
  if (nemoUsesLegacyModel(m)) {
    // Megatron-Core's GPTModel takes learned_absolute, rope, mrope or none; NeMo 1.x's legacy GPT builds ALiBi
    // (nemo/collections/nlp/modules/common/megatron/language_model.py), and mcore_gpt: false selects it.
    notes.push(`  # WARNING: ${m.name} uses ALiBi, which Megatron-Core (and so NeMo 2) does not have: only NeMo 1.x's legacy, `
      + 'non-Megatron-Core GPT model builds it (mcore_gpt: false), and the Megatron-Core-only keys here do not apply to that model');
  }
  return { lines, notes };
}
