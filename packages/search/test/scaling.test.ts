import { describe, expect, it } from 'vitest';
import { scalingSweep, type FixedStrategy } from '../src/index.ts';
import { llama70bBase, smallBase } from './fixtures.ts';

describe('scalingSweep: a strategy held fixed without tensor and pipeline sizes', () => {
  it('searches only plans with the recompute mode held fixed, at every size', () => {
    // The premise: left free, the best plans of the 1.3B GPT on 1–2 DGX A100 do not recompute everything.
    const free = scalingSweep(smallBase, { nodes: [1, 2], mode: 'strong' });
    expect(free.every((p) => p.candidate !== undefined && p.candidate.recompute !== 'full')).toBe(true);
    const full = scalingSweep(smallBase, { nodes: [1, 2], mode: 'strong', fixed: { recompute: 'full' } });
    for (const p of full) {
      expect(p.candidate?.recompute).toBe('full');
      // 'full' is every layer: the search's partial recompute (recomputeLayers) is not a 'full' plan.
      expect(p.candidate?.recomputeLayers).toBeUndefined();
      expect(p.estimate!.stepTimeSeconds).toBeGreaterThan(free.find((f) => f.nodes === p.nodes)!.estimate!.stepTimeSeconds);
    }
  });

  it.each<[string, FixedStrategy]>([
    ['recompute with one tensor size', { tensor: 2, recompute: 'selective' }],
    ['micro-batch, sequence parallelism and optimizer layout', { microBatchSize: 2, sequenceParallel: false, sharding: 'none' }],
    ['context parallelism', { context: 2 }],
  ])('holds %s at every size, searching the rest', (_, fixed) => {
    const points = scalingSweep(smallBase, { nodes: [1, 2], mode: 'strong', fixed });
    for (const p of points) {
      expect(p.reason).toBeUndefined();
      expect(p.candidate).toMatchObject(fixed);
    }
  });

  it('a size whose search ran out of candidate budget says so, not that nothing fits', () => {
    // Llama 2 70B on 4 DGX H100: the first candidate estimated does not fit; later ones do.
    const [cut] = scalingSweep(llama70bBase, { nodes: [4], mode: 'strong', options: { candidateBudget: 1 } });
    expect(cut!.reason).toMatch(/^no plan found: the candidate budget ran out after 1 full estimate, before any plan that fits was estimated/);
    const [whole] = scalingSweep(llama70bBase, { nodes: [4], mode: 'strong' });
    expect(whole!.candidate).toBeDefined();
  });
});
