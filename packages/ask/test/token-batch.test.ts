import { describe, expect, it } from 'vitest';
import { tokenBatch } from '../src/default-batch.ts';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a batch asked in tokens is rounded to sequences the cluster\'s data-parallel sizes divide', () => {
  it('4M tokens of 4,096 on 1,000 A100: 1,000 sequences, not 1,024, which no layout of 1,000 GPUs runs', () => {
    // 4,000,000 / 4,096 = 976.56 sequences; the nearest power-of-two multiple within 5% is 1,024 (= 2^10), but
    // gcd(1,024, 1,000) = 8 leaves a replica of 125·2^k GPUs, a PP of 125 or more for 32 layers. 1,000 GPUs = 8 × 125:
    // multiples of 125 near 976.56 with the most twos within 10% are multiples of 1,000: 1,000 (DP 1,000, TP 1).
    const p = { model: 'llama2-7b', gpu: 'a100-80gb', gpus: 1000 };
    expect(tokenBatch(p, 4_000_000, 1000)).toEqual({
      sequences: 1000,
      // 1,000 × 4,096 = 4.096M tokens.
      note: 'global batch 1,000 sequences (4.10M tokens: the 4.00M-token batch asked, over 4096-token sequences, rounded from 976.6 so that '
        + 'data-parallel sizes of these GPUs divide it; no layout of these 1,000 GPUs runs 1,024, the nearest power-of-two multiple)',
    });
  });

  it('with no cluster, or one that runs it, the power-of-two multiple is kept', () => {
    expect(tokenBatch({ model: 'llama2-7b' }, 4_000_000, undefined).sequences).toBe(1024);
    // 1,024 GPUs run 1,024 sequences at DP 1,024.
    expect(tokenBatch({ model: 'llama2-7b' }, 4_000_000, 1024).sequences).toBe(1024);
  });

  it('the QA question plans 1,000 sequences and runs, as the bot\'s own default batch there does', () => {
    const question = 'how long to train llama2-7b on 2T tokens on 1000 A100 80GB with a batch of 4M tokens';
    expect(parse(question).parameters.globalBatchSize).toBe(1000);
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.configuration).toContain('global batch 1,000');
    // The default batch the same question takes without "a batch of 4M tokens" (the published 1,024 rounded to the GPUs).
    expect(parse('how long to train llama2-7b on 2T tokens on 1000 A100 80GB').parameters.globalBatchSize).toBe(1000);
  });
});
