import { describe, expect, it } from 'vitest';
import { toMegatronArgs, toNemoYaml } from '../../src/index.ts';
import { vocabPadding } from '../../src/search/export-vocab.ts';
import { presetTokenizer } from '../../src/search/export-tokenizer.ts';
import { modelById } from '@trainplan/presets';

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

describe('a preset that records its tokenizer\'s vocabulary padded: the divisor that pads the tokenizer to exactly those rows', () => {
  // GPT-2's BPE has 50,257 tokens (Radford et al. 2019); GPT-3's 51,200 rows are them padded at TP 8 (128 × 8 = 1,024:
  // ⌈50,257 / 1,024⌉ = 50, × 1,024 = 51,200). Megatron pads the tokenizer's count, not the preset's: _vocab_size_with_padding.
  const gpt2 = { name: "GPT-2's BPE", tokens: 50257 };
  const rows = (tokens: number, d: number, t: number) => Math.ceil(tokens / (d * t)) * d * t;

  it.each([
    // TP, divisor, and why: ⌈50,257 / (d·t)⌉ · d·t = 51,200 needs d·t a divisor of 51,200 = 2^11 · 5^2 above 51,200 − 50,257 = 943.
    [8, 128], // 1,024: the default
    [16, 128], // 2,048: ⌈50,257 / 2,048⌉ = 25, × 2,048 = 51,200, the default again
    [4, 256], // 128 × 4 = 512 would give ⌈50,257 / 512⌉ × 512 = 50,688; 1,024 / 4 = 256
    [2, 512], // 128 × 2 = 256 would give 197 × 256 = 50,432; 1,024 / 2 = 512
    [1, 1024], // 128 would give 393 × 128 = 50,304
  ])('GPT-2\'s 50,257 at TP %i: divisor %i builds 51,200', (tensor, divisor) => {
    expect(rows(50257, divisor, tensor)).toBe(51200);
    expect(vocabPadding(51200, tensor, gpt2)).toMatchObject({ divisor, padded: 51200 });
  });

  it('the note says the tokenizer, what the default would build and what the divisor builds', () => {
    expect(vocabPadding(51200, 2, gpt2).note).toBe("vocabulary padding: divisor 512, not the default 128: GPT-2's BPE has 50,257 tokens, which 128 × TP 2 = 256 "
      + "would pad to 50,432 rows, not this model's 51,200; 512 × 2 = 1,024 pads them to 51,200");
  });

  it('where no divisor builds the rows (TP 3: d · 3 must divide 51,200 = 2^11 · 5^2, which 3 does not), the rows Megatron builds, said', () => {
    // 128 × 3 = 384: ⌈50,257 / 384⌉ = 131, × 384 = 50,304.
    const p = vocabPadding(51200, 3, gpt2);
    expect(p).toMatchObject({ divisor: 128, padded: 50304 });
    expect(p.note).toContain('pads to 50,304 rows, not the 51,200 this plan counts');
  });

  it('every divisor it answers builds the rows, at every TP from 1 to 64 (property)', () => {
    for (let t = 1; t <= 64; t++) {
      const p = vocabPadding(51200, t, gpt2);
      expect(rows(50257, p.divisor, t), `TP ${t}`).toBe(p.padded);
    }
  });

  it('presetTokenizer: GPT-3, the SC\'21 Megatron GPTs and MT-NLG pad GPT-2\'s 50,257; BLOOM its 250,680; Llama 3 records its own', () => {
    for (const id of ['gpt3-175b', 'gpt3-126m', 'megatron-1t', 'mt-nlg-530b']) expect(presetTokenizer(modelById(id))?.tokens, id).toBe(50257);
    expect(presetTokenizer(modelById('bloom-176b'))?.tokens).toBe(250680);
    expect(presetTokenizer(modelById('llama3-70b'))).toBeUndefined();
    expect(presetTokenizer(undefined)).toBeUndefined();
  });

  it('BLOOM at TP 4, as it trained: the default 128 × 4 = 512 pads 250,680 to 250,880 (490 × 512)', () => {
    expect(vocabPadding(250880, 4, presetTokenizer(modelById('bloom-176b')))).toMatchObject({ divisor: 128, padded: 250880 });
  });
});

describe('GPT-3 175B exported at TP 2 builds the 51,200 rows the plan counts', () => {
  const tp2 = {
    model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 },
    training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 2, pipeline: 16, context: 2, sequenceParallel: true, distributedOptimizer: true },
  };
  it('Megatron-LM: --make-vocab-size-divisible-by 512', () => {
    expect(toMegatronArgs(tp2)).toContain('--make-vocab-size-divisible-by 512 \\');
  });
  it('NeMo: make_vocab_size_divisible_by: 512', () => {
    expect(toNemoYaml(tp2)!.split('\n')).toContain('  make_vocab_size_divisible_by: 512');
  });
  it('at TP 8 the default builds them: no flag', () => {
    const tp8 = { ...tp2, parallelism: { ...tp2.parallelism, tensor: 8, pipeline: 8, context: 1 } };
    expect(toMegatronArgs(tp8)).not.toContain('--make-vocab-size-divisible-by');
    expect(toNemoYaml(tp8)!.split('\n')).toContain('  make_vocab_size_divisible_by: 128');
  });
});

describe('an unpadded vocabulary that is no multiple of 128: the rows kept as planned, and one line saying padding is usually faster', () => {
  // A custom GPT-2-vocabulary model at TP 1: divisor 1 keeps its 50,257 rows. Megatron's default pads to a multiple of
  // 128 × 1: ⌈50,257 / 128⌉ = 393, × 128 = 50,304, 47 rows more.
  const custom = {
    model: { name: 'custom', layers: 12, hiddenSize: 768, attentionHeads: 12, vocabSize: 50257, seqLength: 1024 },
    cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 64, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 1, pipeline: 1 },
  };
  const speedLines = (text: string) => text.split('\n').filter((l) => l.includes('speed:'));

  it('Megatron-LM: --make-vocab-size-divisible-by 1 stays, and one comment says 50,304 and the flag to drop', () => {
    const text = toMegatronArgs(custom)!;
    expect(text).toContain('--make-vocab-size-divisible-by 1 \\');
    expect(speedLines(text)).toEqual([expect.stringMatching(
      /^# speed: the output layer's 50,257 rows are not a multiple of 128; .*128 × TP 1, 50,304 rows \(47 the plan does not count\), usually faster: drop --make-vocab-size-divisible-by 1/,
    )]);
  });
  it('NeMo: make_vocab_size_divisible_by: 1 stays, and one comment says how to pad', () => {
    const yaml = toNemoYaml(custom)!;
    expect(yaml.split('\n')).toContain('  make_vocab_size_divisible_by: 1');
    expect(speedLines(yaml)).toEqual([expect.stringMatching(/^ {2}# speed: .*50,304 rows .*set make_vocab_size_divisible_by to 128$/)]);
  });
  it('not where the rows kept are a multiple of 128 (Llama 3\'s 128,256 = 1,002 × 128, divisor 32 at TP 8), nor where the default holds', () => {
    const llama = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
      parallelism: { tensor: 8, pipeline: 2, sequenceParallel: true, distributedOptimizer: true } };
    expect(toMegatronArgs(llama)).toContain('--make-vocab-size-divisible-by 32');
    expect(speedLines(toMegatronArgs(llama)!)).toEqual([]);
    expect(speedLines(toMegatronArgs({ ...custom, model: { ...custom.model, vocabSize: 51200 } })!)).toEqual([]);
  });
});
