import { describe, expect, it } from 'vitest';
import { toMegatronArgs, toNemoYaml } from '../../src/index.ts';

/** A runnable plan of `model` on 8 DGX H100 nodes: TP 8, PP 1. */
const on64 = (model: string, training: Record<string, unknown> = {}) => ({
  model, cluster: { gpu: 'h100-sxm', nodes: 8 },
  training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16', ...training },
  parallelism: { tensor: 8, pipeline: 1, sequenceParallel: true, distributedOptimizer: true },
});
const argLines = (s: unknown) => toMegatronArgs(s)!.split('\n').filter((l) => l.startsWith('--') || l.startsWith('  --')).map((l) => l.trim().replace(/ \\$/, ''));
const yamlLines = (s: unknown) => toNemoYaml(s)!.split('\n');

describe('Nemotron-4 is exported as NVIDIA configures it: squared ReLU, LayerNorm1p, RoPE on half of each head', () => {
  it.each(['nemotron4-15b', 'nemotron4-340b'])('%s: Megatron-LM builds it (--squared-relu, --apply-layernorm-1p, --rotary-percent 0.5), not GeLU', (model) => {
    const args = argLines(on64(model));
    for (const flag of ['--squared-relu', '--apply-layernorm-1p', '--rotary-percent 0.5']) expect(args).toContain(flag);
    expect(args).not.toContain('--swiglu');
    expect(args).not.toContain('--normalization RMSNorm');
  });
  it.each(['nemotron4-15b', 'nemotron4-340b'])('%s: NeMo as the launcher\'s nemotron_15b.yaml has it', (model) => {
    const yaml = yamlLines(on64(model));
    for (const line of ['  activation: squared-relu', '  normalization: layernorm1p', '  layernorm_zero_centered_gamma: true', '  rotary_percentage: 0.5']) {
      expect(yaml).toContain(line);
    }
    expect(yaml).not.toContain('  activation: gelu');
  });
  it.each(['nemotron4-15b', 'nemotron4-340b'])('%s: NeMo turns bias_activation_fusion off, which Megatron-Core refuses for squared ReLU (nemotron_340b.yaml: False)', (model) => {
    // NeMo reads cfg.get('bias_activation_fusion', True); TransformerConfig then raises "activation function should be either
    // gelu, swiglu, or quick_geglu".
    expect(yamlLines(on64(model))).toContain('  bias_activation_fusion: false');
  });
  it('NeMo keeps its default fusion for SwiGLU (Llama) and GeLU with biases (GPT-3); a GeLU MLP without biases turns it off', () => {
    expect(toNemoYaml(on64('llama3-70b'))).not.toContain('bias_activation_fusion');
    expect(toNemoYaml({ ...on64('gpt3-175b'), cluster: { gpu: 'h100-sxm', nodes: 16 } })).not.toContain('bias_activation_fusion');
    // TransformerConfig: "gated_linear_unit is False and activation function is gelu, add_bias_linear must also be True".
    const noBias = { ...on64('llama3-70b'), model: { name: 'gelu-no-bias', layers: 32, hiddenSize: 4096, attentionHeads: 32, vocabSize: 32000, seqLength: 4096, linearBias: false } };
    expect(yamlLines(noBias)).toContain('  bias_activation_fusion: false');
  });
  it('a Llama keeps SwiGLU, RMSNorm and full RoPE; GPT-3 GeLU and LayerNorm, with none of the Nemotron flags', () => {
    for (const model of ['llama3-70b', 'gpt3-175b']) {
      const args = argLines({ ...on64(model), ...(model === 'gpt3-175b' && { cluster: { gpu: 'h100-sxm', nodes: 16 } }) });
      for (const flag of ['--squared-relu', '--apply-layernorm-1p']) expect(args).not.toContain(flag);
      expect(args.some((a) => a.startsWith('--rotary-percent'))).toBe(false);
    }
  });
});

describe('ALiBi, which Megatron-LM and Megatron-Core do not have (BLOOM)', () => {
  const bloom = { ...on64('bloom-176b'), cluster: { gpu: 'h100-sxm', nodes: 48 }, training: { globalBatchSize: 2048, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 4, pipeline: 12, sequenceParallel: true, distributedOptimizer: true } };
  it('Megatron-LM: no learned positions (--position-embedding-type none), and a warning that ALiBi needs Megatron-DeepSpeed', () => {
    const text = toMegatronArgs(bloom)!;
    expect(argLines(bloom)).toContain('--position-embedding-type none');
    expect(text.split('\n')).toContainEqual(expect.stringMatching(/^# WARNING: BLOOM 176B uses ALiBi, which Megatron-LM does not have.*Megatron-DeepSpeed.*--position-embedding-type alibi/));
  });
  it('NeMo: alibi on NeMo 1.x\'s legacy (non-Megatron-Core) model, with a warning', () => {
    const yaml = yamlLines(bloom);
    expect(yaml).toContain('  position_embedding_type: alibi');
    expect(yaml).toContain('  mcore_gpt: false');
    expect(yaml).not.toContain('  mcore_gpt: true');
    expect(yaml).toContainEqual(expect.stringMatching(/^ {2}# WARNING: BLOOM 176B uses ALiBi, which Megatron-Core/));
  });
  it('NeMo: the legacy model cannot start an uneven split, said first (70 % 12 = 10), and the rest still written', () => {
    // NeMo 1.x's legacy ParallelTransformer asserts num_layers % pipeline_model_parallel_size == 0 ('num_layers must be
    // divisible by pipeline_model_parallel_size') and reads no split keys. 70 layers on 12 stages: ⌈70 / 12⌉ = 6 on the 10
    // middle stages leaves 10, so 5 + 6 × 10 + 5, which the keys below carry but the legacy model cannot take.
    const yaml = yamlLines(bloom);
    expect(yaml[0]).toMatch(/^# WARNING: NeMo cannot start this plan: .*legacy GPT model \(mcore_gpt: false/);
    expect(yaml[0]).toContain('"num_layers must be divisible by pipeline_model_parallel_size"');
    expect(yaml[0]).toContain('70 % 12 = 10');
    // The divisors of 70 = 2 · 5 · 7.
    expect(yaml[0]).toContain('--pipeline set to a divisor of 70 (1, 2, 5, 7, 10, 14, 35 or 70)');
    for (const line of ['  num_layers: 70', '  mcore_gpt: false', '  num_layers_in_first_pipeline_stage: 5', '  position_embedding_type: alibi']) {
      expect(yaml).toContain(line);
    }
    expect(toMegatronArgs(bloom)).not.toContain('NeMo cannot start');
  });
  it('NeMo: 70 layers on 10 stages (7 each) pass the legacy assertion: no such warning', () => {
    const even = { ...bloom, cluster: { gpu: 'h100-sxm', nodes: 10 }, parallelism: { ...bloom.parallelism, pipeline: 10 } };
    expect(yamlLines(even)[0]).toMatch(/^# NeMo 1\.x config keys/);
    expect(toNemoYaml(even)).not.toContain('NeMo cannot start');
  });
  it('NeMo: a Megatron-Core model with the same uneven split gets no legacy warning (its split keys apply)', () => {
    const gpt3 = toNemoYaml({ ...bloom, model: 'gpt3-175b', cluster: { gpu: 'h100-sxm', nodes: 50 }, training: { ...bloom.training, globalBatchSize: 1600 },
      parallelism: { ...bloom.parallelism, pipeline: 25 } })!;
    expect(gpt3).toContain('  num_layers_in_first_pipeline_stage: 2');
    expect(gpt3).not.toContain('NeMo cannot start');
  });
});

describe('Llama 3.1 and 3.2 RoPE scaling (Hugging Face config.json rope_scaling factor 8 and 32)', () => {
  it('Megatron-LM: --use-rope-scaling with the factor; Llama 3 and 2 take none', () => {
    for (const [model, factor] of [['llama3.1-70b', 8], ['llama3.1-8b', 8], ['llama3.2-1b', 32]] as const) {
      const args = argLines(on64(model));
      expect(args).toContain('--use-rope-scaling');
      expect(args).toContain(`--rope-scaling-factor ${factor}`);
    }
    expect(argLines(on64('llama3-70b'))).not.toContain('--use-rope-scaling');
  });
  it('NeMo: scale_positional_embedding, and a note that NeMo 1.x has no key for 3.2\'s factor 32', () => {
    expect(yamlLines(on64('llama3.1-70b'))).toContain('  scale_positional_embedding: true');
    expect(toNemoYaml(on64('llama3.1-70b'))).not.toContain('RoPE scaling factor');
    expect(yamlLines(on64('llama3.2-1b'))).toContainEqual(expect.stringMatching(/^ {2}# RoPE scaling factor 32: NeMo 1.x has no key for it/));
    expect(toNemoYaml(on64('llama3-70b'))).not.toContain('scale_positional_embedding');
  });
});

describe('NeMo builds the Megatron-Core GPT the keys are written for (mcore_gpt: true)', () => {
  it.each(['llama3-70b', 'gpt3-175b', 'nemotron4-15b'])('%s: mcore_gpt: true once, under model:, so the Megatron-Core-only keys apply', (model) => {
    // MegatronGPTModel reads cfg.get('mcore_gpt', False): left out, a merged config builds the legacy model, which reads
    // none of context_parallel_size, num_layers_in_first/last_pipeline_stage or account_for_*_in_pipeline_split.
    const yaml = yamlLines(on64(model));
    expect(yaml.filter((l) => /^ {2}mcore_gpt:/.test(l))).toEqual(['  mcore_gpt: true']);
    const at = yaml.indexOf('  mcore_gpt: true');
    expect(at).toBeGreaterThan(yaml.indexOf('model:'));
    expect(yaml.slice(yaml.indexOf('model:') + 1, at).every((l) => l.startsWith('  '))).toBe(true);
    expect(toMegatronArgs(on64(model))).not.toContain('mcore');
  });
});
