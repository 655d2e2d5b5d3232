import { describe, expect, it } from 'vitest';
import { runEstimate, type EstimateJson } from '../src/index.ts';

/**
 * A job on part of a node: 3 GPUs of an 8-GPU DGX A100. The first and last pipeline stages all-reduce the tied word
 * embedding's gradient as one pair (Megatron's _allreduce_word_embedding_grads); the third GPU is in no pair. QA: "estimate
 * gpt3-175b on 3 A100 with tp 1" threw "group.concurrentGroupsPerNode must be a positive integer, got 1.5".
 */
describe('a pipeline on an odd part of a node', () => {
  it('PP 3 on 3 of 8 GPUs with tied embeddings is estimated, the pair syncing its embedding', () => {
    const tied = runEstimate({
      model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', gpus: 3 }, training: { globalBatchSize: 6 }, parallelism: { pipeline: 3 },
    }) as EstimateJson;
    expect(tied.ok).toBe(true);
    if (!tied.ok) return;
    expect(Number.isFinite(tied.stepTimeSeconds)).toBe(true);
    expect(tied.stepTimeSeconds).toBeGreaterThan(0);
  });

  it('and on 3 GPUs, GPT-3 175B is an answer (out of memory), not an internal error', () => {
    const big = runEstimate({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', gpus: 3 }, training: { globalBatchSize: 3 }, parallelism: { pipeline: 3 } }) as EstimateJson;
    expect(big.ok).toBe(false);
    if (big.ok) return;
    expect(big.reason).toBe('out-of-memory');
  });
});
