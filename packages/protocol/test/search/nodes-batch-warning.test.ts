import { describe, expect, it } from 'vitest';
import { batchAsSequencesWarning, compactTokens, plannedBatch, runNodes, stepsOf } from '../../src/index.ts';

describe('batchAsSequencesWarning: a global batch implausible as sequences', () => {
  it('4,000,000 sequences of 4,096 (a "4M tokens" batch typed as sequences) for 2T tokens: 16.4B tokens a step, 123 steps, and 977 sequences named', () => {
    // 4e6 × 4,096 = 16,384,000,000 tokens a step (over 100M); 2e12 / 1.6384e10 = 122.07, so 123 whole steps;
    // read as tokens, 4e6 / 4,096 = 976.6, 977 sequences.
    expect(batchAsSequencesWarning({ globalBatchSize: 4e6, seqLength: 4096, tokens: 2e12 })).toBe(
      'a global batch of 4,000,000 sequences is 16.4B tokens a step, 123 optimizer steps for 2T tokens, where published runs step '
      + '3.2M to 16M tokens (GPT-3 175B to Llama 3 405B); '
      + 'training.globalBatchSize counts sequences: 4M tokens is 977 sequences of 4,096',
    );
  });

  it('without tokens (a search or a sweep asked with no token budget): the step\'s tokens and the sequences named, no steps', () => {
    // 4e6 × 4,096 = 16.4B tokens a step, as above; no token budget, so no count of steps to say.
    expect(batchAsSequencesWarning({ globalBatchSize: 4e6, seqLength: 4096 })).toBe(
      'a global batch of 4,000,000 sequences is 16.4B tokens a step, where published runs step '
      + '3.2M to 16M tokens (GPT-3 175B to Llama 3 405B); '
      + 'training.globalBatchSize counts sequences: 4M tokens is 977 sequences of 4,096',
    );
    // 1,536 × 2,048 = 3.15M tokens a step: plausible with or without a token budget.
    expect(batchAsSequencesWarning({ globalBatchSize: 1536, seqLength: 2048 })).toBeUndefined();
  });

  it.each([
    // 1,536 × 2,048 = 3.15M tokens a step; 300e9 / 3,145,728 = 95,367.4, 95,368 steps.
    ['GPT-3 175B: 1,536 × 2,048 for 300B tokens', { globalBatchSize: 1536, seqLength: 2048, tokens: 300e9 }],
    // 2,048 × 8,192 = 16.8M tokens a step (Llama 3 405B's largest); 15e12 / 16,777,216 = 894,070 steps.
    ['Llama 3 405B: 2,048 × 8,192 for 15T tokens', { globalBatchSize: 2048, seqLength: 8192, tokens: 15e12 }],
    // 12,207 × 8,192 = 99,999,744 tokens, just under 100M; 2T tokens are 20,000 steps.
    ['just under 100M tokens a step', { globalBatchSize: 12_207, seqLength: 8192, tokens: 2e12 }],
  ])('%s: plausible, no warning', (_what, b) => {
    expect(batchAsSequencesWarning(b)).toBeUndefined();
  });

  it('16,384 sequences of 8,192 are 134M tokens a step: warned over 100M, with no sequences named (16,384 tokens is no published batch)', () => {
    // 16,384 × 8,192 = 134,217,728 tokens; 15e12 / 134,217,728 = 111,758.7, 111,759 steps.
    const w = batchAsSequencesWarning({ globalBatchSize: 16_384, seqLength: 8192, tokens: 15e12 });
    expect(w).toBe('a global batch of 16,384 sequences is 134M tokens a step, 111,759 optimizer steps for 15T tokens, where published '
      + 'runs step 3.2M to 16M tokens (GPT-3 175B to Llama 3 405B)');
  });

  it('a short run at a published batch is no sign (QA: GPT-3\'s 1,536 sequences over a 1B-token ablation were warned of)', () => {
    // 1,536 × 2,048 = 3.15M tokens a step, under 100M; 1e9 / 3,145,728 = 317.9, 318 steps: a short run, not a mistyped batch.
    expect(batchAsSequencesWarning({ globalBatchSize: 1536, seqLength: 2048, tokens: 1e9 })).toBeUndefined();
  });

  it.each([[4e6, '4M'], [16_384_000_000, '16.4B'], [2e12, '2T'], [3_145_728, '3.15M'], [977, '977']])('compactTokens(%d) is %s', (n, text) => {
    expect(compactTokens(n)).toBe(text);
  });
});

describe('plannedBatch: the batch a nodes answer planned', () => {
  it('days on 32 nodes of A100 for Llama 2 7B at 4,000,000 sequences: its estimate\'s batch and length, the request\'s tokens', () => {
    const a = runNodes({ model: 'llama2-7b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 4e6 }, tokens: 2e12, nodes: 32 });
    // Llama 2 trained on 4,096-token sequences (Touvron et al. 2023, Table 1).
    const b = plannedBatch(a);
    expect(b).toEqual({ globalBatchSize: 4e6, seqLength: 4096, tokens: 2e12 });
    expect(stepsOf(b!)).toBe(123);
  });
});
