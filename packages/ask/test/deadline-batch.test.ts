import { describe, expect, it } from 'vitest';
import { deadlineBatchFor, defaultBatch, defaultBatchNote } from '../src/index.ts';

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

describe("a deadline's second batch per size: the multiple across the aim (deadlineBatchFor.alternativeFor)", () => {
  const llama8 = { model: 'llama3-8b', gpu: 'h100-sxm' } as const;
  // Llama 3 8B states no published batch: the aim is 4M tokens / 8,192 = 512 sequences (one per 8 GPUs past 4,096 GPUs).
  const aimOf = (nodes: number): number => Math.max(512, Math.min(nodes, 2048));

  it('QA: 112 H100 nodes take 560 (the multiple of 112 nearest 512) and also 448, the multiple under it', () => {
    const batchFor = deadlineBatchFor(llama8);
    expect(batchFor(112)).toBe(560);
    expect(batchFor.alternativeFor(112)).toBe(448);
    // 103 nodes (824 GPUs, unit 103): 515 nearest, 412 under it (19.5%); 128 nodes take 512 exactly, no other side.
    expect([batchFor(103), batchFor.alternativeFor(103)]).toEqual([515, 412]);
    expect(batchFor.alternativeFor(128)).toBeUndefined();
  });

  it('at every size it is on the other side of the aim from the size\'s own, at most 25% under it or 10% over it', () => {
    const batchFor = deadlineBatchFor(llama8);
    let some = 0;
    for (let nodes = 1; nodes <= 8192; nodes++) {
      const other = batchFor.alternativeFor(nodes);
      if (other === undefined) continue;
      some += 1;
      const own = batchFor(nodes);
      const aim = aimOf(nodes);
      expect(Math.sign(other - aim), `${nodes} nodes`).toBe(-Math.sign(own - aim));
      expect(other, `${nodes} nodes`).toBeGreaterThanOrEqual(0.75 * aim);
      expect(other, `${nodes} nodes`).toBeLessThanOrEqual(1.1 * aim);
      // A multiple of the unit both are of: their difference divides the own.
      expect(own % Math.abs(own - other), `${nodes} nodes`).toBe(0);
    }
    expect(some).toBeGreaterThan(0);
  });

  it('none where the size takes the batch asked with no size, nor for a published batch taken as it is', () => {
    const gpt3 = deadlineBatchFor({ model: 'gpt3-175b', gpu: 'h100-sxm' });
    expect(gpt3(2919)).toBe(1536);
    expect(gpt3.alternativeFor(2919)).toBeUndefined();
    expect(gpt3.alternativeFor(128)).toBeUndefined();
  });

  it('says which batch a size took: its own (the default\'s sentence), the one across its aim, or the one asked with no size', () => {
    const batchFor = deadlineBatchFor(llama8);
    expect(batchFor.said(112, 560)).toEqual({ why: 'own', own: 560, note: defaultBatchNote(defaultBatch({ ...llama8, nodes: 112 })) });
    const across = batchFor.said(112, 448);
    expect(across).toMatchObject({ why: 'across', own: 560 });
    // 448 × 8,192 = 3.67M tokens; (512 − 448) / 512 = 12.5%, said to the whole per cent.
    expect(across.note).toBe('global batch 448 sequences (3.67M tokens, 13% under its aim of 512 sequences): faster on this size than the 560 its own '
      + 'default rounds to (each size searched is planned at its default and at the multiple of its data-parallel unit on the other side of the aim, '
      + 'at most 25% under or 10% over it, the faster taken)');
    const gpt3 = deadlineBatchFor({ model: 'gpt3-175b', gpu: 'h100-sxm' });
    expect(gpt3.said(2919, 1536)).toMatchObject({ why: 'unsized', own: 2919 });
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
