import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, toMegatronArgs, toNemoYaml } from '../../src/index.ts';

const LLAMA = {
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 },
  training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 4, pipeline: 4, context: 2, virtualStages: 5, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true, overlapGradReduce: true },
};

describe('toMegatronArgs', () => {
  it('writes the contract example as Megatron-LM flags', () => {
    const args = toMegatronArgs(CONTRACT_EXAMPLE)!;
    for (const flag of ['--tensor-model-parallel-size 8', '--pipeline-model-parallel-size 8', '--micro-batch-size 1', '--global-batch-size 1536',
      '--num-layers 96', '--hidden-size 12288', '--num-attention-heads 96', '--recompute-granularity full', '--recompute-num-layers 12', '--bf16']) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--sequence-parallel');
  });

  it('keeps a learned position table\'s 2,048 rows for a shorter run, so the checkpoint is GPT-3\'s; rotary Llama gets the run\'s length', () => {
    const short = { ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, seqLength: 1024 } };
    expect(toMegatronArgs(short)).toMatch(/--seq-length 1024 \\\n\s*--max-position-embeddings 2048 /);
    expect(toNemoYaml(short)).toContain('  max_position_embeddings: 2048');
    const long = { ...CONTRACT_EXAMPLE, training: { ...CONTRACT_EXAMPLE.training, seqLength: 4096 } };
    expect(toMegatronArgs(long)).toMatch(/--seq-length 4096 \\\n\s*--max-position-embeddings 4096 /);
    const llama = { ...LLAMA, training: { ...LLAMA.training, seqLength: 4096 } };
    expect(toMegatronArgs(llama)).toMatch(/--seq-length 4096 \\\n\s*--max-position-embeddings 4096 /);
  });

  it('spells out GQA, SwiGLU, CP, interleaving (layers per virtual stage = L / (p·v)) and the distributed optimizer', () => {
    const args = toMegatronArgs(LLAMA)!;
    for (const flag of ['--num-query-groups 8', '--swiglu', '--context-parallel-size 2', '--num-layers-per-virtual-pipeline-stage 4',
      '--sequence-parallel', '--recompute-granularity selective', '--use-distributed-optimizer', '--overlap-grad-reduce', '--untie-embeddings-and-output-weights']) {
      expect(args).toContain(flag);
    }
  });

  it('turns off gradient-accumulation fusion only for an unfused add, and asks for fp32 accumulation where the plan has it', () => {
    expect(toMegatronArgs(LLAMA)).not.toContain('--no-gradient-accumulation-fusion');
    expect(toMegatronArgs({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: 'fused-16-bit' } })).not.toContain('--no-gradient-accumulation-fusion');
    const fp32 = toMegatronArgs({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: 'fp32' } })!;
    expect(fp32).toContain('--no-gradient-accumulation-fusion');
    expect(fp32).toContain('--accumulate-allreduce-grads-in-fp32');
    const sixteen = toMegatronArgs({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: '16-bit' } })!;
    expect(sixteen).toContain('--no-gradient-accumulation-fusion');
    expect(sixteen).not.toContain('--accumulate-allreduce-grads-in-fp32');
  });

  it('keeps FP8 weights with --fp8-param-gather (NeMo: fp8_params) only where the scenario asks', () => {
    const fp8 = { ...LLAMA, training: { ...LLAMA.training, precision: 'fp8' } };
    expect(toMegatronArgs(fp8)).toContain('--fp8-format hybrid');
    expect(toMegatronArgs(fp8)).not.toContain('--fp8-param-gather');
    const params = { ...fp8, training: { ...fp8.training, fp8Params: true } };
    expect(toMegatronArgs(params)).toContain('--fp8-param-gather');
    expect(toNemoYaml(params)).toContain('fp8_params: true');
    expect(toNemoYaml(fp8)).not.toContain('fp8_params');
  });

  it('answers undefined for an invalid scenario', () => {
    expect(toMegatronArgs({ model: 'x' })).toBeUndefined();
  });

  it("names the unfused attention backend for a plan with SC'21's unfused attention, which Megatron-Core's default (auto) would not run", () => {
    // Megatron GPT 529.6B as SC'21 ran it (Narayanan et al. 2021, Table 1): TP 8 · PP 35 · DP 9 on 2,520 A100s, FP16.
    const sc21 = {
      model: 'megatron-529.6b', cluster: { gpu: 'a100-80gb', nodes: 315 },
      training: { globalBatchSize: 2520, microBatchSize: 1, precision: 'fp16', attentionKernel: 'unfused' },
      parallelism: { tensor: 8, pipeline: 35, data: 9, recompute: 'full' },
    };
    const args = toMegatronArgs(sc21)!.split(' \\\n  ');
    expect(args).toContain('--attention-backend unfused');
    expect(args).not.toContain('--use-flash-attn');
    expect(toMegatronArgs(sc21)!.split('\n')[0]).toMatch(/needs Megatron-Core 0\.10 or later \(--attention-backend\)$/);
    // A flash plan leaves the backend to Megatron-Core's auto, as before.
    const flash = toMegatronArgs({ ...sc21, training: { ...sc21.training, attentionKernel: 'flash' } })!;
    expect(flash).toContain('--use-flash-attn');
    expect(flash).not.toContain('--attention-backend');
  });

  it('sets RoPE\'s base where the model\'s is not Megatron\'s 10,000 (Llama 3: 500,000), in both exports; GPT-3 and Llama 2 take none', () => {
    expect(toMegatronArgs(LLAMA)).toContain('--rotary-base 500000');
    expect(toNemoYaml(LLAMA)!.split('\n')).toContain('  rotary_base: 500000');
    const llama2 = { ...LLAMA, model: 'llama2-70b', training: { ...LLAMA.training, seqLength: 4096 } };
    for (const scenario of [CONTRACT_EXAMPLE, llama2]) {
      expect(toMegatronArgs(scenario)).not.toContain('--rotary-base');
      expect(toNemoYaml(scenario)).not.toContain('rotary_base');
    }
  });

  it('NeMo: overlapped interleaved sends are written (overlap_p2p_comm, off by default there) with batch_p2p_comm off; without interleaving, neither', () => {
    const overlapped = { ...LLAMA, parallelism: { ...LLAMA.parallelism, overlapPipelineComm: true } };
    const yaml = toNemoYaml(overlapped)!.split('\n');
    expect(yaml).toContain('  overlap_p2p_comm: true');
    expect(yaml).toContain('  batch_p2p_comm: false');
    expect(toNemoYaml(LLAMA)).not.toContain('overlap_p2p_comm');
    const flat = { ...overlapped, parallelism: { ...overlapped.parallelism, virtualStages: 1 } };
    expect(toNemoYaml(flat)).not.toContain('overlap_p2p_comm');
  });

  it('says which vocabulary the user\'s tokenizer must give (Llama 3: 128,256)', () => {
    expect(toMegatronArgs(LLAMA)!.split('\n')).toContain('# the tokenizer sets the vocabulary (128,256 rows for this model, with the padding below): add --tokenizer-type and --tokenizer-model (or --vocab-file) for it');
  });
});

describe('toNemoYaml', () => {
  it('writes the parallel sizes under model: and the node count under trainer:', () => {
    const yaml = toNemoYaml(LLAMA)!;
    // After the header comments (export-header.test.ts).
    expect(yaml).toMatch(/^(#[^\n]*\n)+trainer:\n {2}num_nodes: 8\n {2}devices: 8\n/);
    for (const line of ['  tensor_model_parallel_size: 4', '  pipeline_model_parallel_size: 4', '  virtual_pipeline_model_parallel_size: 5',
      '  context_parallel_size: 2', '  sequence_parallel: true', '  activations_checkpoint_granularity: selective', '    name: distributed_fused_adam']) {
      expect(yaml.split('\n')).toContain(line);
    }
  });
  it('states the architecture, so NeMo\'s GPT defaults do not build another model: Llama 3 as megatron_llama_config.yaml has it', () => {
    // Llama 3 (arXiv:2407.21783): SwiGLU, RMSNorm, no linear biases, RoPE, untied input and output embeddings.
    const yaml = toNemoYaml(LLAMA)!.split('\n');
    for (const line of ['  activation: fast-swiglu', '  normalization: rmsnorm', '  bias: false', '  position_embedding_type: rope',
      '  share_embeddings_and_output_weights: false']) expect(yaml).toContain(line);
  });
  it('and GPT-3 as megatron_gpt_config.yaml has it: GELU, LayerNorm, biases, learned positions, tied embeddings', () => {
    const yaml = toNemoYaml(CONTRACT_EXAMPLE)!.split('\n');
    for (const line of ['  activation: gelu', '  normalization: layernorm', '  bias: true', '  position_embedding_type: learned_absolute',
      '  share_embeddings_and_output_weights: true']) expect(yaml).toContain(line);
  });
  it('leaves sequence parallelism out at TP 1, where it splits nothing and Megatron and NeMo turn it off, and says so', () => {
    // Megatron-LM's validate_args: "Disabling sequence parallelism because tensor model parallelism is disabled"; NeMo's
    // _validate_and_override_config likewise. The plan costs it as nothing there (check-plan.test.ts).
    const tp1 = { ...LLAMA, cluster: { gpu: 'h100-sxm', nodes: 4 }, parallelism: { tensor: 1, pipeline: 1, sequenceParallel: true, distributedOptimizer: true } };
    const args = toMegatronArgs(tp1)!;
    expect(args.split('\n').filter((l) => !l.startsWith('#')).join('\n')).not.toContain('--sequence-parallel');
    expect(args.split('\n')).toContainEqual(expect.stringMatching(/^# sequence parallelism: left out, as at tensor-parallel size 1 it splits nothing.*validate_args/));
    const yaml = toNemoYaml(tp1)!.split('\n');
    expect(yaml).toContain('  sequence_parallel: false');
    expect(yaml).toContainEqual(expect.stringMatching(/^ {2}# sequence parallelism: left out, .*_validate_and_override_config/));
    // At TP 2 it is written as asked, with no such note; and a TP 1 plan without it has no note either.
    const tp2 = { ...tp1, parallelism: { ...tp1.parallelism, tensor: 2 } };
    expect(toMegatronArgs(tp2)).toContain('--sequence-parallel');
    expect(toNemoYaml(tp2)!.split('\n')).toContain('  sequence_parallel: true');
    for (const text of [toMegatronArgs(tp2)!, toNemoYaml(tp2)!, toMegatronArgs({ ...tp1, parallelism: { ...tp1.parallelism, sequenceParallel: false } })!]) {
      expect(text).not.toContain('sequence parallelism: left out');
    }
  });
  it('states gradient_accumulation_fusion as the plan has it', () => {
    expect(toNemoYaml(LLAMA)!.split('\n')).toContain('  gradient_accumulation_fusion: true');
    const unfused = toNemoYaml({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: '16-bit' } })!;
    expect(unfused.split('\n')).toContain('  gradient_accumulation_fusion: false');
  });
});

/** GPT-3 175B (96 layers) with TP 8 on p stages of one DGX A100 each, no data parallelism. */
const gpt3OnStages = (p: number, parallelism: Record<string, unknown> = {}) => ({
  ...CONTRACT_EXAMPLE,
  cluster: { ...CONTRACT_EXAMPLE.cluster, nodes: p },
  training: { ...CONTRACT_EXAMPLE.training, globalBatchSize: 64 * p },
  parallelism: { ...CONTRACT_EXAMPLE.parallelism, pipeline: p, ...parallelism },
});
const lines = (text: string | undefined) => text!.split('\n');

describe('toMegatronArgs: Megatron-Core\'s uneven pipeline split', () => {
  it('96 layers on 25 stages: first 2 and last 2 layers as flags (the 23 middle stages take 4 each)', () => {
    const args = toMegatronArgs(gpt3OnStages(25))!;
    expect(args).toContain('--decoder-first-pipeline-num-layers 2');
    expect(args).toContain('--decoder-last-pipeline-num-layers 2');
    // Full recompute of every layer: the fullest stage's 4.
    expect(args).toContain('--recompute-num-layers 4');
  });

  it('an even split needs neither flag', () => {
    expect(toMegatronArgs(CONTRACT_EXAMPLE)).not.toContain('--decoder-first-pipeline-num-layers');
  });

  it('an uneven split with virtual stages gives the chunk count (--num-virtual-stages-per-pipeline-rank), as arguments.py requires', () => {
    const args = toMegatronArgs(gpt3OnStages(25, { virtualStages: 2, schedule: 'interleaved' }))!;
    expect(args).toContain('--num-virtual-stages-per-pipeline-rank 2');
    expect(args).not.toContain('--num-layers-per-virtual-pipeline-stage');
    // 4 layers per middle stage in 2 chunks: every layer recomputed is 2 per chunk.
    expect(args).toContain('--recompute-num-layers 2');
  });

  it('writes nothing for a pipeline with no Megatron split (96 layers on 26 stages)', () => {
    expect(toMegatronArgs(gpt3OnStages(26))).toBeUndefined();
    expect(toNemoYaml(gpt3OnStages(26))).toBeUndefined();
  });
});

describe('toMegatronArgs: --recompute-num-layers counts layers per model chunk', () => {
  const interleaved = { ...CONTRACT_EXAMPLE, parallelism: { ...CONTRACT_EXAMPLE.parallelism, virtualStages: 2, schedule: 'interleaved' } };
  it('all layers: L / (p·v) = 96 / 16 = 6, not ⌈L/p⌉ = 12', () => {
    expect(toMegatronArgs(interleaved)).toContain('--recompute-num-layers 6');
    expect(lines(toNemoYaml(interleaved))).toContain('  activations_checkpoint_num_layers: 6');
  });
  it('4 layers per stage over 2 chunks is 2 per chunk; 3 per stage cannot be split so, and is not exported', () => {
    const four = { ...interleaved, parallelism: { ...interleaved.parallelism, recomputeLayers: 4 } };
    expect(toMegatronArgs(four)).toContain('--recompute-num-layers 2');
    expect(toMegatronArgs({ ...interleaved, parallelism: { ...interleaved.parallelism, recomputeLayers: 3 } })).toBeUndefined();
  });
});

describe('toMegatronArgs: notes stay outside the shell command', () => {
  const zero1 = { ...LLAMA, parallelism: { ...LLAMA.parallelism, distributedOptimizer: false, zeroStage: 1 } };
  it('a ZeRO note is a comment line before the backslash-continued arguments, which end every line but the last with \\', () => {
    const all = lines(toMegatronArgs(zero1));
    // The environment the run needs (export-sharding.test.ts) is its own shell line between the comments and the arguments.
    const block = all.filter((l) => !l.startsWith('#') && !l.startsWith('export '));
    expect(all.filter((l) => l.startsWith('#'))).toContainEqual(expect.stringMatching(/^# ZeRO stage 1/));
    // Every comment comes first, so the block after them is one shell command.
    expect(all.slice(0, all.length - block.length).every((l) => l.startsWith('#') || l.startsWith('export '))).toBe(true);
    expect(block.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true);
    expect(block.some((l) => l.trimStart().startsWith('#'))).toBe(false);
  });
  it('NeMo: ZeRO-1 on distributed_fused_adam, with a comment that it is the nearest NeMo has (ZeRO-2 and 3: export-nemo-fsdp.test.ts)', () => {
    const yaml = lines(toNemoYaml(zero1));
    expect(yaml).toContain('    name: distributed_fused_adam');
    // NeMo builds Apex's DistributedFusedAdam with contiguous_grad_buffer (on by default, required with megatron_amp_O2): the
    // gradients are held whole, as ZeRO-1 holds them.
    expect(yaml.find((l) => l.startsWith('  # ZeRO-1'))).toMatch(/nearest is distributed_fused_adam, .*holds the gradients whole, as ZeRO-1 does$/);
  });
});

describe('toMegatronArgs: overlap flags as Megatron-Core names them', () => {
  it('pipeline-send overlap is on by default with interleaving: only turning it off takes a flag', () => {
    expect(toMegatronArgs(LLAMA)).toContain('--no-overlap-p2p-communication');
    const overlapped = toMegatronArgs({ ...LLAMA, parallelism: { ...LLAMA.parallelism, overlapPipelineComm: true } })!;
    expect(overlapped).not.toMatch(/overlap-p2p-communication/);
  });
  it('without interleaving Megatron turns it off itself: no flag either way', () => {
    expect(toMegatronArgs(CONTRACT_EXAMPLE)).not.toMatch(/overlap-p2p-communication/);
  });
  it('--tp-comm-overlap comes with --sequence-parallel; without it the plan is not exported', () => {
    expect(toMegatronArgs({ ...LLAMA, parallelism: { ...LLAMA.parallelism, overlapTensorParallelComm: true } })).toContain('--tp-comm-overlap');
    const noSp = { ...LLAMA, parallelism: { ...LLAMA.parallelism, overlapTensorParallelComm: true, sequenceParallel: false } };
    expect(toMegatronArgs(noSp)).toBeUndefined();
  });
});

describe('toNemoYaml: an uneven split', () => {
  it('states the split in a comment and as Megatron-Core\'s first/last stage fields', () => {
    const yaml = lines(toNemoYaml(gpt3OnStages(25)));
    expect(yaml).toContain('  num_layers_in_first_pipeline_stage: 2');
    expect(yaml).toContain('  num_layers_in_last_pipeline_stage: 2');
    expect(yaml.some((l) => l.startsWith('  #') && l.includes('2 + 4 × 23 + 2'))).toBe(true);
    expect(lines(toNemoYaml(CONTRACT_EXAMPLE)).some((l) => l.includes('num_layers_in_first_pipeline_stage'))).toBe(false);
  });
});

describe('a split counting the embedding and the loss as layers (Megatron-Core account_for_*_in_pipeline_split)', () => {
  const RECIPE = {
    model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 16 },
    training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, pipeline: 8, context: 2, virtualStages: 2, sequenceParallel: true, embeddingInPipelineSplit: true, lossInPipelineSplit: true },
  };

  it('Megatron-LM: both flags, and the virtual stages by degree (the chunks hold unequal layer counts)', () => {
    const args = toMegatronArgs(RECIPE)!;
    for (const flag of ['--account-for-embedding-in-pipeline-split', '--account-for-loss-in-pipeline-split', '--num-virtual-stages-per-pipeline-rank 2']) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--num-layers-per-virtual-pipeline-stage');
    expect(args).not.toContain('--decoder-first-pipeline-num-layers');
  });

  it('only the flag the scenario sets', () => {
    const loss = toMegatronArgs({ ...RECIPE, model: { name: 'x', layers: 95, hiddenSize: 4096, attentionHeads: 32, vocabSize: 32000, seqLength: 4096 },
      parallelism: { tensor: 8, pipeline: 8, context: 2, sequenceParallel: true, lossInPipelineSplit: true } })!;
    expect(loss).toContain('--account-for-loss-in-pipeline-split');
    expect(loss).not.toContain('--account-for-embedding-in-pipeline-split');
  });

  it('NeMo: a split NeMo 1.x\'s (num_layers // p) % v == 0 refuses is said in a comment, as for the uneven split (126 // 64 = 1, v 2)', () => {
    // The plan `search --model llama3.1-405b --gpu dgx-h100 --gpus 1024 --global-batch 1024` chooses.
    const failing = { ...RECIPE, cluster: { gpu: 'h100-sxm', nodes: 128 }, training: { ...RECIPE.training, globalBatchSize: 1024 },
      parallelism: { ...RECIPE.parallelism, tensor: 2, pipeline: 64, context: 8, schedule: 'interleaved' } };
    const warning = lines(toNemoYaml(failing)).find((l) => l.includes('NeMo 1.x asserts'));
    expect(warning).toMatch(/^ {2}# .*126 \/\/ 64 = 1 fails for 2: this YAML is NeMo 1\.x's, which stops there; NeMo 2, .* reads no YAML/);
    // NVIDIA's own recipe fails it too (126 // 8 = 15 is odd); without virtual stages there is nothing to assert.
    expect(toNemoYaml(RECIPE)).toContain('126 // 8 = 15 fails for 2');
    expect(toNemoYaml({ ...RECIPE, parallelism: { ...RECIPE.parallelism, virtualStages: 1 } })).not.toContain('NeMo 1.x asserts');
  });

  it('NeMo: the TransformerConfig fields by name, with the split in a comment', () => {
    const yaml = toNemoYaml(RECIPE)!;
    expect(yaml).toContain('  account_for_embedding_in_pipeline_split: true\n  account_for_loss_in_pipeline_split: true');
    expect(yaml).toContain('15 + 16 × 6 + 15');
    expect(yaml).not.toContain('num_layers_in_first_pipeline_stage');
  });
});

describe('toNemoYaml: the gradient bytes the plan holds', () => {
  const withTraining = (training: Record<string, unknown>, parallelism: Record<string, unknown> = {}) =>
    ({ ...LLAMA, training: { ...LLAMA.training, ...training }, parallelism: { ...LLAMA.parallelism, ...parallelism } });
  const optimLines = (yaml: string) => yaml.slice(yaml.indexOf('  optim:')).split('\n');

  // distributed_fused_adam keeps the gradients in optim.grad_sync_dtype (Apex: "default: same as dtype", fp32 as NeMo sets it).
  // The plan's buffer: 16-bit for a 16-bit add or any ZeRO stage (DeepSpeed), fp32 for an fp32 add or the distributed
  // optimizer fused (Megatron's fp32 main grads).
  it.each([
    ['a 16-bit add', { gradientAccumulation: '16-bit' }, {}, 'bf16'],
    ['an fp32 add', { gradientAccumulation: 'fp32' }, {}, 'fp32'],
    ['the distributed optimizer, fused', {}, {}, 'fp32'],
    ['the distributed optimizer, fused into a 16-bit buffer', { gradientAccumulation: 'fused-16-bit' }, {}, 'bf16'],
    ['ZeRO-1, fused', {}, { distributedOptimizer: false, zeroStage: 1 }, 'bf16'],
  ] as const)('%s: grad_sync_dtype %s under optim', (_, training, parallelism, dtype) => {
    expect(optimLines(toNemoYaml(withTraining(training, parallelism))!)).toContain(`    grad_sync_dtype: ${dtype}`);
  });

  it('fused-16-bit keeps gradient_accumulation_fusion on, as fused does; an unfused add turns it off', () => {
    const fusion = (training: Record<string, unknown>) => toNemoYaml(withTraining(training))!.split('\n')
      .find((l) => l.startsWith('  gradient_accumulation_fusion:'));
    expect([fusion({}), fusion({ gradientAccumulation: 'fused-16-bit' }), fusion({ gradientAccumulation: '16-bit' })])
      .toEqual(['  gradient_accumulation_fusion: true', '  gradient_accumulation_fusion: true', '  gradient_accumulation_fusion: false']);
  });

  it('fused_adam at pipeline size 1 with data parallelism writes the fusion off, as NeMo turns it off there', () => {
    // MegatronBaseModel._validate_and_override_config: "When not using pipeline model parallel, gradient accumulation fusion
    // can only be used with distributed_fused_adam". LLAMA is TP 4 · PP 4 · CP 2 on 64 GPUs: PP 1 leaves DP 8.
    const fusion = (parallelism: Record<string, unknown>) => toNemoYaml(withTraining({}, parallelism))!.split('\n')
      .find((l) => l.startsWith('  gradient_accumulation_fusion:'));
    expect(fusion({ pipeline: 1, virtualStages: 1, distributedOptimizer: false })).toBe('  gradient_accumulation_fusion: false');
    expect(fusion({ pipeline: 1, virtualStages: 1, distributedOptimizer: true })).toBe('  gradient_accumulation_fusion: true');
    expect(fusion({ distributedOptimizer: false })).toBe('  gradient_accumulation_fusion: true');
  });

  it('--grad-accumulation 16-bit and fp32 no longer write the same YAML', () => {
    expect(toNemoYaml(withTraining({ gradientAccumulation: '16-bit' }))).not.toBe(toNemoYaml(withTraining({ gradientAccumulation: 'fp32' })));
  });

  it('megatron_amp_O2 under bf16 and fp8 (NeMo\'s default O1 keeps fp32 weights, so fp32 gradients); under fp16 with fused_adam a note says what the run holds', () => {
    expect(toNemoYaml(LLAMA)!.split('\n')).toContain('  megatron_amp_O2: true');
    expect(toNemoYaml(withTraining({ precision: 'fp8' }))!.split('\n')).toContain('  megatron_amp_O2: true');
    // NeMo refuses O2 under fp16 for fused_adam only (`if self.megatron_amp_O2 and not self.with_distributed_adam`).
    const fp16 = toNemoYaml(withTraining({ precision: 'fp16' }, { distributedOptimizer: false }))!;
    expect(fp16).toContain('    name: fused_adam');
    expect(fp16).not.toContain('megatron_amp_O2: true');
    expect(fp16).not.toContain('grad_sync_dtype');
    expect(fp16.split('\n')).toContainEqual(expect.stringMatching(/^ {2}# gradients: .*fp32 gradients \(4 bytes a parameter, where this plan counts 2\)/));
  });

  it('fp16 on distributed_fused_adam takes megatron_amp_O2, which NeMo\'s fp16 check skips for it, with fp16 gradient sync (QA: O1 held 7.8 GiB more)', () => {
    // Megatron 1T on 3,072 V100s, the plan `search --model megatron-1t --gpu v100-32gb --gpus 3072 --global-batch 3072` chooses:
    // under O1 its 3.91 GiB of weights and 3.91 GiB of gradients would be fp32, 28.2 → 36.0 GiB on a 31.7 GiB GPU.
    const oneT = {
      model: 'megatron-1t', cluster: { gpu: 'v100-32gb', nodes: 384, network: 'edr-ib-4x' },
      training: { globalBatchSize: 3072, microBatchSize: 1, precision: 'fp16', dropout: true, attentionKernel: 'unfused' },
      parallelism: { tensor: 16, pipeline: 32, data: 6, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true },
    };
    const yaml = toNemoYaml(oneT)!;
    expect(yaml.split('\n')).toContain('  megatron_amp_O2: true');
    expect(optimLines(yaml)).toEqual(expect.arrayContaining(['    name: distributed_fused_adam', '    grad_sync_dtype: fp16']));
    expect(yaml).not.toContain('refuses megatron_amp_O2');
  });

  it('without sharding, fused_adam accumulates in fp32 whatever the keys: said where the plan counts 16-bit gradients, silent where fp32', () => {
    const plain = { distributedOptimizer: false };
    const sixteen = toNemoYaml(withTraining({ gradientAccumulation: '16-bit' }, plain))!;
    expect(sixteen).toContain('    name: fused_adam');
    expect(optimLines(sixteen).some((l) => l.includes('grad_sync_dtype'))).toBe(false);
    expect(sixteen.split('\n')).toContainEqual(expect.stringMatching(/^ {2}# gradients: fused_adam .* 4 bytes a parameter where this plan counts 2/));
    expect(toNemoYaml(withTraining({}, plain))).not.toContain('# gradients:');
  });
});

describe('the release NeMo\'s uneven split names need', () => {
  it('Megatron-LM\'s --decoder-first/last-pipeline-num-layers: 0.9; NeMo\'s num_layers_in_first/last_pipeline_stage: 0.14, the release checked', () => {
    // 96 layers on 25 stages is uneven (2 + 4 × 23 + 2). Megatron-LM has had the flags since 0.9 ("Uneven pipeline parallelism");
    // Megatron-Core renamed the TransformerConfig fields NeMo passes through after 0.10 (first_pipeline_num_layers before).
    expect(lines(toMegatronArgs(gpt3OnStages(25)))[0]).toMatch(/needs Megatron-Core 0\.9 or later/);
    const yaml = lines(toNemoYaml(gpt3OnStages(25)));
    expect(yaml[0]).toMatch(/needs Megatron-Core 0\.14 or later \(the uneven split's num_layers_in_first\/last_pipeline_stage/);
    expect(yaml.find((l) => l.includes('uneven pipeline split'))).toContain('0.9 and 0.10 named them first_pipeline_num_layers / last_pipeline_num_layers');
    expect(yaml.join('\n')).not.toContain('0.9+');
  });
});
