import type { StateSharding } from '@trainplan/model';
import { estimatePlan } from '@trainplan/planner';
import { describe, expect, it } from 'vitest';
import { planFor, searchPlans, type SearchBase, type SearchConstraints } from '../src/index.ts';
import { smallBase } from './fixtures.ts';

/**
 * ZeRO-3 with one replica of the weights (DP × CP = 1) shards nothing (Rajbhandari et al. 2020, §5): it costs the step
 * ZeRO-1 and 2 cost there, and holds each unit's whole gradient beyond them (planner plan-memory.ts). The search ranks
 * by step time; of plans as fast, the one needing less memory ranks first, so ZeRO-3 never ranks ahead of a ZeRO-1 or 2
 * twin that is never worse, whatever order the request lists the stages in.
 */
// The 1.3B GPT on one DGX A100 at TP 8 without a pipeline: every plan holds one replica of the weights.
const alone: SearchBase = { ...smallBase, nodes: 1 };
const ONE_REPLICA: SearchConstraints = { tensorSizes: [8], pipelineSizes: [1], contextSizes: [1] };
const ORDERS: readonly (readonly StateSharding[])[] = [
  ['zero-3', 'zero-2'], ['zero-3', 'zero-1'], ['zero-3', 'zero-2', 'zero-1'], ['zero-1', 'zero-2', 'zero-3'],
];

describe('ZeRO-3 at one replica of the weights never ranks ahead of a ZeRO-1 or 2 twin that is never worse', () => {
  it.each(ORDERS.map((sharding) => ({ sharding })))('the best plan of $sharding is not ZeRO-3, and no slower nor larger than its ZeRO-3 twin', ({ sharding }) => {
    const best = searchPlans(alone, { top: 1, constraints: { ...ONE_REPLICA, sharding } }).top[0]!;
    expect(best.candidate.data * best.candidate.context).toBe(1);
    const twin = estimatePlan(planFor(alone, { ...best.candidate, sharding: 'zero-3' }));
    if (!twin.ok) throw new Error(twin.message);
    // The premise: the twin is as fast and needs more.
    expect(twin.stepTimeSeconds).toBe(best.estimate.stepTimeSeconds);
    expect(twin.memory.totalBytes).toBeGreaterThan(best.estimate.memory.totalBytes);
    expect(best.candidate.sharding).not.toBe('zero-3');
  });

  it('ranks plans by step time, and plans as fast by memory', () => {
    const { top } = searchPlans(alone, { top: 12, constraints: { ...ONE_REPLICA, sharding: ['zero-3', 'zero-2', 'zero-1'] } });
    expect(top.length).toBe(12);
    for (let i = 1; i < top.length; i++) {
      const [a, b] = [top[i - 1]!.estimate, top[i]!.estimate];
      expect(a.stepTimeSeconds).toBeLessThanOrEqual(b.stepTimeSeconds);
      if (a.stepTimeSeconds === b.stepTimeSeconds) expect(a.memory.totalBytes).toBeLessThanOrEqual(b.memory.totalBytes);
    }
  });

  it('keeps ZeRO-3 when the constraints leave nothing else', () => {
    const { top } = searchPlans(alone, { top: 3, constraints: { ...ONE_REPLICA, sharding: ['zero-3'] } });
    expect(top.length).toBeGreaterThan(0);
    for (const p of top) expect(p.candidate.sharding).toBe('zero-3');
  });
});
