import { describe, expect, it } from 'vitest';
import { costTimeFrontier, deadlineWithinBudget, fastestWithinBudget, fewestNodes, trainOnNodes, type SearchBase } from '../src/index.ts';
import { familyShapes } from '../src/capacity-deadline-families.ts';
import { replicaFamily } from '../src/capacity-replicas.ts';
import { itIsTheFewestMeeting } from './fewest-checks.ts';
import { smallBase } from './fixtures.ts';

/**
 * The 1.3B GPT at a fixed batch of 35 sequences (5 × 7): a data-parallel size must divide 35, so every power of two
 * (and 1.5 times one) runs one replica, DP 1, while 35 nodes run 35 replicas of 8 GPUs, one sequence each.
 */
const base: SearchBase = { ...smallBase, globalBatchSize: 35 };
const TOKENS = 1e9;
const HOUR = 3600;

describe('fewestNodes: a deadline no power of two meets, met by a multiple of a shape\'s replica', () => {
  // 0.19 hours: 35 nodes take 0.185 (searched below); the powers' fastest, 192 nodes, 17 minutes.
  const deadline = 0.19 * HOUR;
  const a = fewestNodes(base, TOKENS, { deadlineSeconds: deadline });

  // The powers of two and their halves alone called it unreachable.
  itIsTheFewestMeeting(base, TOKENS, deadline, () => a);

  it('is at most 35 nodes: 35 data-parallel replicas of 8 GPUs meet it', () => {
    if (!a.ok) throw new Error(a.message);
    const at35 = trainOnNodes(base, 35, TOKENS);
    expect(at35!.seconds, '35 nodes = 35 data-parallel replicas of 8 GPUs').toBeLessThanOrEqual(deadline);
    expect(a.nodes).toBeLessThanOrEqual(35);
  });
});

describe('fewestNodes: a deadline no size meets names the same fastest size whichever deadline was asked', () => {
  // 6 minutes is under the fastest size's time; 1 second is out of reach of 8,192 nodes even at 100% MFU, and once
  // skipped the sizes past the powers of two, naming the powers' fastest instead (QA: Llama 3 70B on H100, 15T tokens:
  // 1 day named 8,192 nodes in 3.8 days, 3 days 8,190 nodes in 3.7).
  const near = fewestNodes(base, TOKENS, { deadlineSeconds: 0.1 * HOUR });
  const hopeless = fewestNodes(base, TOKENS, { deadlineSeconds: 1 });

  it('both answer with the same closest size, as that size alone is planned', () => {
    if (near.ok || hopeless.ok) throw new Error('no size trains 1B tokens in 6 minutes');
    expect([near.reason, hopeless.reason]).toEqual(['deadline-unreachable', 'deadline-unreachable']);
    expect(hopeless.closest!.nodes).toBe(near.closest!.nodes);
    expect(hopeless.closest!.seconds).toBe(trainOnNodes(base, near.closest!.nodes, TOKENS)!.seconds);
    expect(hopeless.message).toBe(near.message);
  });

  it('that size is faster than every power of two and 1.5 times one (the sizes searched first), so it is not the powers\' fastest', () => {
    if (hopeless.ok) throw new Error('no size trains 1B tokens in 1 second');
    for (let power = 1; power <= 8192; power *= 2) {
      for (const n of [power, 1.5 * power].filter((x) => x <= 8192)) {
        const p = trainOnNodes(base, n, TOKENS);
        if (p) expect(p.seconds, `${n} nodes`).toBeGreaterThan(hopeless.closest!.seconds);
      }
    }
    // Far below the search's largest size (within 5% of 8,192 nodes): nothing said of larger clusters.
    expect(hopeless.message).not.toContain('largest size');
  });
});

describe('deadlineWithinBudget: the fastest within the budget it names is the budget\'s own answer', () => {
  it('with a deadline met only over the budget, names fastestWithinBudget\'s size as the fastest within it', () => {
    const budget = { gpuHourBudget: 60 };
    const within = fastestWithinBudget(base, TOKENS, budget);
    if (!within.ok) throw new Error(within.message);
    // A deadline just below the budget's fastest: that size misses it, larger ones (over the budget) meet it.
    const deadlineSeconds = 0.95 * within.seconds;
    const a = deadlineWithinBudget(base, TOKENS, { ...budget, deadlineSeconds }, {});
    if (a.ok) throw new Error(`expected no answer, got ${a.nodes} nodes`);
    expect(a.reason).toBe('budget-unreachable');
    expect(a.message).toContain(`those within the budget miss the deadline (the fastest, ${within.nodes.toLocaleString('en-US')} nodes,`);
  });
});

describe('fastestWithinBudget: which budget is exceeded', () => {
  it('with a GPU-hour budget the cheapest run keeps and a money budget it exceeds, names the money budget as the one failed', () => {
    const a = fastestWithinBudget(base, TOKENS, { gpuHourBudget: 1000, costBudget: 1, pricePerGpuHour: 2 });
    if (a.ok) throw new Error('a budget of 1 at 2 an hour trains nothing');
    expect(a.closest!.gpuHours).toBeLessThan(1000);
    expect(a.message).toMatch(/^no cluster size stays within the money budget of 1:/);
    expect(a.message).toContain('it stays within the GPU-hour budget of 1,000');
  });

  it('with both exceeded, names both', () => {
    const a = fastestWithinBudget(base, TOKENS, { gpuHourBudget: 1, costBudget: 1, pricePerGpuHour: 2 });
    if (a.ok) throw new Error('1 GPU-hour trains nothing');
    expect(a.message).toMatch(/^no cluster size stays within the GPU-hour budget of 1 and the money budget of 1:/);
  });
});

describe('costTimeFrontier: the fastest', () => {
  it('no size that adds replicas to its own shape is faster (the replica scan a budget runs reaches past the sampled sizes)', () => {
    const f = costTimeFrontier(base, TOKENS);
    if (!f.ok) throw new Error(f.message);
    // Each member estimated with the fastest's own shape: a full search of that size finds it or a faster plan.
    const family = replicaFamily(base, TOKENS, f.fastest.plan.candidate, {}, {});
    for (const m of family) expect(m.seconds, `${m.nodes} nodes`).toBeGreaterThanOrEqual(f.fastest.seconds * (1 - 1e-9));
  });
});

describe('familyShapes', () => {
  it('keeps p · v (so each chunk holds as many layers) across the other pipeline depths, and halves or doubles TP and CP', () => {
    const c = { tensor: 2, pipeline: 8, context: 4, data: 1, virtualStages: 5, microBatchSize: 1, sequenceParallel: false, recompute: 'none' as const, sharding: 'none' as const };
    const shapes = familyShapes(c);
    // 40 chunks: depths 1, 2, 4, 5, 10, 20, 40 besides 8.
    expect(shapes.filter((s) => s.tensor === 2 && s.context === 4).map((s) => [s.pipeline, s.virtualStages]).sort((x, y) => x[0]! - y[0]!))
      .toEqual([[1, 40], [2, 20], [4, 10], [5, 8], [8, 5], [10, 4], [20, 2], [40, 1]]);
    expect(shapes.filter((s) => s.pipeline === 8).map((s) => [s.tensor, s.context])).toEqual([[2, 4], [2, 8], [2, 2], [4, 4], [1, 4]]);
  });
});
