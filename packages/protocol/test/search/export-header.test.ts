import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, toMegatronArgs, toNemoYaml } from '../../src/index.ts';

const lines = (text: string | undefined) => text!.split('\n');
const llama405 = {
  model: 'llama3.1-405b', cluster: { gpu: 'h100-sxm', nodes: 16 },
  training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 8, pipeline: 8, context: 2, virtualStages: 2, sequenceParallel: true, embeddingInPipelineSplit: true, lossInPipelineSplit: true },
};

describe('the Megatron-Core release the exported flags need, first', () => {
  it('GPT-3 with an even split: 0.9', () => {
    expect(lines(toMegatronArgs(CONTRACT_EXAMPLE))[0]).toMatch(/^# Megatron-LM arguments for pretrain_gpt\.py: needs Megatron-Core 0\.9 or later/);
    expect(lines(toNemoYaml(CONTRACT_EXAMPLE))[0]).toMatch(/^# NeMo 1\.x config keys .*: needs Megatron-Core 0\.9 or later/);
  });
  it('an uneven split with virtual stages: 0.11; the embedding and loss counted as layers: 0.14', () => {
    const uneven = { ...CONTRACT_EXAMPLE, cluster: { ...CONTRACT_EXAMPLE.cluster, nodes: 25 }, training: { ...CONTRACT_EXAMPLE.training, globalBatchSize: 1600 },
      parallelism: { ...CONTRACT_EXAMPLE.parallelism, pipeline: 25, virtualStages: 2, schedule: 'interleaved' } };
    expect(lines(toMegatronArgs(uneven))[0]).toContain('Megatron-Core 0.11 or later');
    expect(lines(toMegatronArgs(llama405))[0]).toContain('Megatron-Core 0.14 or later (the embedding or the loss counted as a layer');
  });
});

describe('what the exports leave to the user, said', () => {
  it('Megatron-LM: data, tokenizer, length, learning rate, checkpoints', () => {
    expect(lines(toMegatronArgs(CONTRACT_EXAMPLE))[2]).toMatch(/^# left out, yours to add: data \(--data-path.*the tokenizer.*--train-iters.*--lr.*--save/);
  });
  it('NeMo: the same keys, and the tokenizer note the Megatron output has, before trainer:', () => {
    const yaml = lines(toNemoYaml(llama405));
    expect(yaml[2]).toMatch(/^# left out, yours to add: model\.data .*model\.tokenizer.*trainer\.max_steps.*model\.optim/);
    expect(yaml[3]).toBe('# the tokenizer sets the vocabulary (128,256 rows for this model, with the padding below): set model.tokenizer (library, type, model or vocab_file) for it');
    expect(yaml[4]).toBe('trainer:');
  });
});

describe('the cluster size the plan is for, which neither export\'s settings carry for Megatron-LM (its launcher sets the world size)', () => {
  // megatron/training/arguments.py validate_args: world_size % (TP · PP · CP) == 0, DP = world_size / (TP · PP · CP).
  it('Megatron-LM, second line: nodes × GPUs, the world size as TP · PP · CP · DP, and the torchrun that starts it', () => {
    // CONTRACT_EXAMPLE: GPT-3 175B on 128 nodes of 8 A100s, TP 8 · PP 8, so DP = 1,024 / 64 = 16.
    expect(lines(toMegatronArgs(CONTRACT_EXAMPLE))[1]).toBe('# planned for 128 nodes × 8 GPUs (world size 1,024: TP 8 · PP 8 · CP 1 · DP 16); '
      + 'the launcher sets it (torchrun --nnodes 128 --nproc-per-node 8)');
  });
  it('NeMo, second line: the same size, which trainer.num_nodes and trainer.devices below carry', () => {
    // 16 nodes × 8 = 128 GPUs = TP 8 · PP 8 · CP 2 · DP 1.
    const yaml = lines(toNemoYaml(llama405));
    expect(yaml[1]).toMatch(/^# planned for 16 nodes × 8 GPUs \(world size 128: TP 8 · PP 8 · CP 2 · DP 1\); trainer\.num_nodes and trainer\.devices below/);
    expect(yaml).toContain('  num_nodes: 16');
    expect(yaml).toContain('  devices: 8');
  });
  it('why that size, where the caller says (a size chosen among several)', () => {
    const why = "the time–cost curve's cheapest size";
    expect(lines(toMegatronArgs(CONTRACT_EXAMPLE, { sizeWhy: why }))[1]).toContain(`(world size 1,024: TP 8 · PP 8 · CP 1 · DP 16), ${why}; the launcher`);
    expect(lines(toNemoYaml(llama405, { sizeWhy: why }))[1]).toContain(`DP 1), ${why}; trainer.num_nodes`);
  });
  it('one node is "1 node"', () => {
    const one = { ...llama405, model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1 },
      parallelism: { tensor: 2, pipeline: 2, sequenceParallel: true } };
    expect(lines(toMegatronArgs(one))[1]).toMatch(/^# planned for 1 node × 8 GPUs \(world size 8: TP 2 · PP 2 · CP 1 · DP 2\)/);
  });
});
