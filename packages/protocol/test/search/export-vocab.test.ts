import { describe, expect, it } from 'vitest';
import { toMegatronArgs, toNemoYaml } from '../../src/index.ts';
import { vocabPadding } from '../../src/search/export-vocab.ts';

describe('vocabPadding: Megatron pads the vocabulary to a multiple of --make-vocab-size-divisible-by × TP', () => {
  it('Llama 3\'s 128,256 at TP 8 would become 129,024 with the default 128; divisor 32 (× 8 = 256) keeps it whole', () => {
    expect(vocabPadding(128256, 8)).toMatchObject({ divisor: 32, padded: 128256 });
    expect(vocabPadding(128256, 8).note).toContain('129,024');
  });
  it('GPT-3\'s 51,200 and Nemotron-4\'s 256,000 are multiples of 128 × 8 already: the default divisor', () => {
    expect(vocabPadding(51200, 8)).toMatchObject({ divisor: 128, padded: 51200 });
    expect(vocabPadding(256000, 8)).toMatchObject({ divisor: 128, padded: 256000 });
  });
  it('a vocabulary TP does not divide is padded whatever the divisor, and the note says to how many rows', () => {
    expect(vocabPadding(50257, 2)).toMatchObject({ divisor: 128, padded: 50432 });
    expect(vocabPadding(50257, 2).note).toContain('50,257 rows become 50,432 (175 rows');
  });
});

describe('both exports set the divisor and say the padding', () => {
  const llama = {
    model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 },
    training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, pipeline: 2, sequenceParallel: true, distributedOptimizer: true },
  };
  it('Megatron-LM: --make-vocab-size-divisible-by 32 at TP 8, and a comment', () => {
    const text = toMegatronArgs(llama)!;
    expect(text).toContain('--make-vocab-size-divisible-by 32');
    expect(text).toMatch(/\n# vocabulary padding: divisor 32/);
  });
  it('NeMo: make_vocab_size_divisible_by 32', () => {
    expect(toNemoYaml(llama)!.split('\n')).toContain('  make_vocab_size_divisible_by: 32');
  });
  it('at TP 2 the default holds (128,256 = 501 × 256): no flag', () => {
    const tp2 = { ...llama, parallelism: { ...llama.parallelism, tensor: 2, pipeline: 8 } };
    expect(toMegatronArgs(tp2)).not.toContain('--make-vocab-size-divisible-by');
    expect(toNemoYaml(tp2)!.split('\n')).toContain('  make_vocab_size_divisible_by: 128');
  });
});
