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
    expect(lines(toMegatronArgs(CONTRACT_EXAMPLE))[1]).toMatch(/^# left out, yours to add: data \(--data-path.*the tokenizer.*--train-iters.*--lr.*--save/);
  });
  it('NeMo: the same keys, and the tokenizer note the Megatron output has, before trainer:', () => {
    const yaml = lines(toNemoYaml(llama405));
    expect(yaml[1]).toMatch(/^# left out, yours to add: model\.data .*model\.tokenizer.*trainer\.max_steps.*model\.optim/);
    expect(yaml[2]).toBe('# the tokenizer sets the vocabulary (128,256 rows for this model, with the padding below): set model.tokenizer (library, type, model or vocab_file) for it');
    expect(yaml[3]).toBe('trainer:');
  });
});
