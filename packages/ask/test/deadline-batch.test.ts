import { describe, expect, it } from 'vitest';
import { deadlineBatchFor, defaultBatch } from '../src/index.ts';

describe("a deadline's batch per cluster size (deadlineBatchFor)", () => {
  const gpt3 = { model: 'gpt3-175b', gpu: 'h100-sxm' } as const;
  const sizes = Array.from({ length: 4096 }, (_, i) => i + 1);

  it("is the size's own default wherever that stays within 10% over the published batch (or under it), and the published batch elsewhere", () => {
    const batchFor = deadlineBatchFor(gpt3);
    for (const nodes of sizes) {
      const own = defaultBatch({ ...gpt3, nodes }).sequences;
      const batch = batchFor(nodes);
      expect(batch, `${nodes} nodes`).toBeLessThanOrEqual(1.1 * 1536);
      expect(batch, `${nodes} nodes`).toBe(own <= 1.1 * 1536 ? own : 1536);
    }
    // 2,919 nodes: no split of 1,536 runs on 23,352 GPUs, and --nodes 2919 rounds it up to 2,919 sequences; a deadline keeps 1,536.
    expect(defaultBatch({ ...gpt3, nodes: 2919 }).sequences).toBe(2919);
    expect(batchFor(2919)).toBe(1536);
  });

  it('follows the growth to one sequence per 8 GPUs on a large cluster, as a question about that size alone does', () => {
    const llama = { model: 'llama3-70b', gpu: 'h100-sxm' } as const;
    const batchFor = deadlineBatchFor(llama);
    expect(batchFor(108)).toBe(defaultBatch({ ...llama, nodes: 108 }).sequences);
    expect(batchFor(2048)).toBe(2048);
    expect(batchFor(16)).toBe(512);
    // Past 16,384 GPUs held at 16M tokens, 2,048 sequences of 8,192 (Llama 3 405B's Table 4), not 4,096 on 4,096 nodes.
    expect(batchFor(4096)).toBe(2048);
  });

  it('keeps a batch rounded down however far: Llama 3 70B on 425 H100 nodes plans 425 sequences, 17% under 512, as --nodes 425 does', () => {
    // 425 nodes = 3,400 GPUs = 2³ · 5² · 17: data-parallel sizes dividing a batch near 512 leave replicas of 17 · 2^k GPUs
    // and more, which 80 layers split over no pipeline; 425 sequences (DP 85 · TP 2 · PP 5 · CP 4) run (QA: the 70-day
    // deadline answered 462 nodes, planning 425 at 512, where 425 at its own batch meets it in 69.3 days).
    const llama = { model: 'llama3-70b', gpu: 'h100-sxm' } as const;
    expect(defaultBatch({ ...llama, nodes: 425 }).sequences).toBe(425);
    expect(deadlineBatchFor(llama)(425)).toBe(425);
  });
});

describe('the search tests\' copy of this rule (packages/search/test/fixtures.ts llama3DefaultBatchFor)', () => {
  // The search package sits below this one, so its budget tests restate the batch Llama 3 70B takes per size on DGX
  // H100; this pins the copy to the rule, so that a change here fails until the copy follows (review of 2026-11-28).
  it('gives the batch deadlineBatchFor gives Llama 3 70B on H100 at every size up to 8,192 nodes', async () => {
    const { llama3DefaultBatchFor } = await import('../../search/test/fixtures.ts');
    const batchFor = deadlineBatchFor({ model: 'llama3-70b', gpu: 'h100-sxm' });
    const differ = Array.from({ length: 8192 }, (_, i) => i + 1).filter((n) => llama3DefaultBatchFor(n) !== batchFor(n));
    expect(differ).toEqual([]);
  });
});
