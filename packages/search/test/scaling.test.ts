import fc from 'fast-check';
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

describe('scalingSweep: weak scaling keeps the first listed size\'s batch per node', () => {
  it('a size where that falls below one sequence has no plan, says why, and is not the efficiency reference', () => {
    // 16 sequences on 64 nodes is a quarter of one per node: 1 node would run 0.25 of a sequence (before: a batch of 0, planned at 0 tokens/s).
    const [big, one] = scalingSweep({ ...smallBase, globalBatchSize: 16 }, { nodes: [64, 1], mode: 'weak' });
    expect(one).toEqual({
      nodes: 1, gpus: 8, globalBatchSize: 1,
      reason: 'weak scaling keeps the first size\'s batch per node (16 sequences on 64 nodes): 1 node would take 0.25 of a sequence per step, under one; '
        + 'the sizes that keep it whole are multiples of 4 nodes',
    });
    expect(big).toMatchObject({ nodes: 64, globalBatchSize: 16, efficiency: 1 });
    expect(big!.tokensPerSecondPerGpu).toBeGreaterThan(0);
  });

  it('a size where that is no whole number of sequences has no plan either (not a rounded batch); the multiples named keep it', () => {
    const points = scalingSweep({ ...smallBase, globalBatchSize: 3 }, { nodes: [2, 3, 4], mode: 'weak' });
    expect(points.map((p) => p.globalBatchSize)).toEqual([3, 5, 6]);
    expect(points[1]!.reason).toBe('weak scaling keeps the first size\'s batch per node (3 sequences on 2 nodes): 3 nodes would take 4.5 sequences per step, '
      + 'not a whole number; the sizes that keep it whole are multiples of 2 nodes');
    expect(points[1]!.estimate).toBeUndefined();
    expect([points[0]!.reason, points[2]!.reason]).toEqual([undefined, undefined]);
  });

  it('every point of a weak sweep plans a whole batch of at least one sequence, or has no plan and a reason (property)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 64 }), fc.uniqueArray(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 3 }),
      (globalBatchSize, nodes) => {
        // Held TP 8 · PP 1 (all the rest at defaults): one estimate per size, so the property runs fast.
        const points = scalingSweep({ ...smallBase, globalBatchSize }, { nodes, mode: 'weak', fixed: { tensor: 8, pipeline: 1 } });
        for (const p of points) {
          expect(Number.isInteger(p.globalBatchSize) && p.globalBatchSize >= 1).toBe(true);
          if (p.reason === undefined) expect(p.globalBatchSize * nodes[0]!).toBe(globalBatchSize * p.nodes);
          if (p.efficiency !== undefined) expect(p.tokensPerSecondPerGpu).toBeGreaterThan(0);
        }
        const runs = points.filter((p) => p.tokensPerSecondPerGpu !== undefined);
        if (runs.length > 0) expect(runs.reduce((a, p) => (p.nodes < a.nodes ? p : a)).efficiency).toBe(1);
      },
    ), { numRuns: 30 });
  });
});

describe('scalingSweep: weak scaling with the plan held fixed says what the batch was scaled from and names only sizes that divide it', () => {
  const TP8 = { tensor: 8, pipeline: 1 } as const;
  it('a weak-scaled size whose batch does not divide names that batch as scaled, not as the one given (before: "training.globalBatchSize: global batch 1 …")', () => {
    const points = scalingSweep({ ...smallBase, globalBatchSize: 4 }, { nodes: [8, 1, 2, 4], mode: 'weak', fixed: TP8 });
    // The first size's batch is the one given: the planner's words, at its field.
    expect(points[0]!.reason).toBe('training.globalBatchSize: global batch 4 is not a multiple of micro-batch × data-parallel = 1×8 = 8');
    expect(points[2]!.reason).toBe('the weak-scaled batch of 1 sequence at 2 nodes (from training.globalBatchSize 4 on 8 nodes) '
      + 'is not a multiple of micro-batch × data-parallel = 1×2 = 2');
    expect(points[3]!.reason).toBe('the weak-scaled batch of 2 sequences at 4 nodes (from training.globalBatchSize 4 on 8 nodes) '
      + 'is not a multiple of micro-batch × data-parallel = 1×4 = 4');
  });

  it('where the fixed plan rules out every size, the size that cannot keep the batch whole names none (before: "multiples of 2 nodes", which fail the same way)', () => {
    const [, one] = scalingSweep({ ...smallBase, globalBatchSize: 4 }, { nodes: [8, 1], mode: 'weak', fixed: TP8 });
    expect(one!.reason).toBe('weak scaling keeps the first size\'s batch per node (4 sequences on 8 nodes): 1 node would take 0.5 of a sequence per step, under one; '
      + 'with this plan no size keeps it whole and a multiple of micro-batch × data-parallel (0.5 sequences a node, not a multiple of 1×1 a node)');
  });

  it('where it rules out none, the sizes named are those that keep the batch whole and divide it (TP 8 · PP 2: 2 nodes, not every size)', () => {
    const [four, three, two] = scalingSweep({ ...smallBase, globalBatchSize: 2 }, { nodes: [4, 3, 2], mode: 'weak', fixed: { tensor: 8, pipeline: 2 } });
    expect(three!.reason).toBe('weak scaling keeps the first size\'s batch per node (2 sequences on 4 nodes): 3 nodes would take 1.5 sequences per step, not a whole number; '
      + 'the sizes that keep it whole and a multiple of micro-batch × data-parallel are multiples of 2 nodes');
    expect([four!.reason, two!.reason]).toEqual([undefined, undefined]);
  });

  it('with only some degrees fixed, the sizes named also split their GPUs over them', () => {
    // 1 sequence on 3 nodes is whole at multiples of 3 nodes; TP 8 × CP 2 = 16 GPUs needs an even number of 8-GPU nodes.
    const [, one] = scalingSweep({ ...smallBase, globalBatchSize: 1 }, { nodes: [3, 1], mode: 'weak', fixed: { tensor: 8, context: 2 } });
    expect(one!.reason).toMatch(/; the sizes that keep it whole with GPUs divisible by TP × PP × CP = 16 are multiples of 6 nodes$/);
  });

  it('every size a weak sweep with a fixed plan names runs past the batch and GPU divisibility rules; where it names none, no size up to 16 nodes does (property)', () => {
    const divisibility = /not a multiple|not divisible|would take/;
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 32 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom(1, 2), fc.constantFrom(1, 2),
      (globalBatchSize, first, nodes, pipeline, microBatchSize) => {
        const fixed = { tensor: 8, pipeline, microBatchSize };
        const [, p] = scalingSweep({ ...smallBase, globalBatchSize }, { nodes: [first, nodes], mode: 'weak', fixed });
        const named = /are multiples of (\d+) nodes?$/.exec(p!.reason ?? '');
        if (p!.reason === undefined || !/would take/.test(p!.reason)) return;
        const sizes = named ? [1, 2, 3].map((k) => k * Number(named[1])) : Array.from({ length: 16 }, (_, i) => i + 1);
        const swept = scalingSweep({ ...smallBase, globalBatchSize }, { nodes: [first, ...sizes], mode: 'weak', fixed }).slice(1);
        for (const s of swept) {
          if (named) expect(s.reason ?? '', `${s.nodes} nodes`).not.toMatch(divisibility);
          else expect(s.reason, `${s.nodes} nodes`).toMatch(divisibility);
        }
      },
    ), { numRuns: 40 });
  });
});

describe('scalingSweep: efficiency', () => {
  it('is against the smallest size that runs a plan, whatever the order the sizes are listed in', () => {
    const listed = scalingSweep(smallBase, { nodes: [2, 1], mode: 'strong', fixed: { tensor: 8, pipeline: 1 } });
    const sorted = scalingSweep(smallBase, { nodes: [1, 2], mode: 'strong', fixed: { tensor: 8, pipeline: 1 } });
    expect(listed.map((p) => p.nodes)).toEqual([2, 1]);
    expect(listed[1]!.efficiency).toBe(1);
    expect(listed.map((p) => p.efficiency)).toEqual([sorted[1]!.efficiency, sorted[0]!.efficiency]);
  });
});
