import { describe, expect, it } from 'vitest';
import { fastestWithinBudget, fewestNodes, trainOnNodes } from '../src/index.ts';
import { replicaFamily } from '../src/capacity-replicas.ts';
import { gpt3Base } from './fixtures.ts';

/**
 * Uptime (CapacityOptions.uptime): the share of wall-clock time spent training. A size's days are the planner's over it
 * and its GPU-hours the GPUs held for those days, so a goal on the wall clock at uptime u is the ideal goal scaled by u:
 * wall = ideal / u ≤ D exactly when ideal ≤ u·D, for a deadline D and a GPU-hour budget D alike. Meta reports "higher
 * than 90% effective training time" for Llama 3 405B (Dubey et al. 2024, §3.3.4).
 */
const TOKENS = 300e9;
const DAY = 86_400;

describe('uptime: times and GPU-hours on the wall clock', () => {
  it('90% uptime: the same plan on 128 nodes, its days and GPU-hours over 0.9, the GPU-hours 1,024 GPUs × those hours', () => {
    const full = trainOnNodes(gpt3Base, 128, TOKENS, {}, 2)!;
    const p = trainOnNodes(gpt3Base, 128, TOKENS, { uptime: 0.9 }, 2)!;
    expect(p.plan.candidate).toEqual(full.plan.candidate);
    // GPT-3's 300B tokens are 95,368 steps of 1,536 × 2,048 tokens; at 90% the wall clock runs 1/0.9 of them.
    expect(p.seconds).toBeCloseTo((95_368 * p.plan.estimate.stepTimeSeconds) / 0.9, 6);
    expect(p.days).toBeCloseTo(p.seconds / DAY, 9);
    // 128 DGX A100 nodes are 1,024 GPUs, held for every wall-clock hour; at $2 an hour.
    expect(p.gpuHours).toBeCloseTo((1024 * p.seconds) / 3600, 6);
    expect(p.cost).toBeCloseTo(2 * p.gpuHours, 6);
  });

  it('uptime 1 is the ideal: the same point as no uptime given', () => {
    expect(trainOnNodes(gpt3Base, 128, TOKENS, { uptime: 1 })).toEqual(trainOnNodes(gpt3Base, 128, TOKENS));
  });

  it('a replica family\'s sizes at 80% uptime: each one\'s days and GPU-hours over 0.8, and a deadline kept on the wall clock', () => {
    const shape = trainOnNodes(gpt3Base, 128, TOKENS)!.plan.candidate;
    const range = { fromNodes: 64, toNodes: 512 };
    const full = replicaFamily(gpt3Base, TOKENS, shape, {}, {}, 2, range);
    const wall = replicaFamily(gpt3Base, TOKENS, shape, {}, { uptime: 0.8 }, 2, range);
    expect(full.length).toBeGreaterThan(1);
    expect(wall.map((m) => m.nodes)).toEqual(full.map((m) => m.nodes));
    wall.forEach((m, i) => {
      expect(m.seconds * 0.8).toBeCloseTo(full[i]!.seconds, 6);
      expect(m.gpuHours * 0.8).toBeCloseTo(full[i]!.gpuHours, 6);
      expect(m.cost).toBeCloseTo(2 * m.gpuHours, 6);
    });
    // The fastest member's ideal time as the deadline: met at full uptime, missed on the wall clock at 80%.
    const goal = { deadlineSeconds: full[0]!.seconds };
    expect(replicaFamily(gpt3Base, TOKENS, shape, goal, {}, 2, range).map((m) => m.nodes)).toContain(full[0]!.nodes);
    expect(replicaFamily(gpt3Base, TOKENS, shape, goal, { uptime: 0.8 }, 2, range).map((m) => m.nodes)).not.toContain(full[0]!.nodes);
  });

  it('a 30-day deadline at 75% uptime takes the cluster 22.5 days take at full uptime (0.75 × 30), and says 30 on the wall clock', () => {
    const wall = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 30 * DAY }, { uptime: 0.75 });
    const full = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 22.5 * DAY });
    if (!wall.ok || !full.ok) throw new Error('a deadline GPT-3 175B meets');
    // The same size, plan and sizes checked below it; the wall clock's days are the ideal's over 0.75.
    expect([wall.nodes, wall.plan.candidate, wall.checked]).toEqual([full.nodes, full.plan.candidate, full.checked]);
    expect(wall.seconds * 0.75).toBeCloseTo(full.seconds, 3);
    expect(wall.seconds).toBeLessThanOrEqual(30 * DAY);
    // More nodes than the same deadline needs at full uptime, where 30 ideal days suffice.
    const fullDeadline = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 30 * DAY });
    if (!fullDeadline.ok) throw new Error(fullDeadline.message);
    expect(wall.nodes).toBeGreaterThan(fullDeadline.nodes);
  });

  it('a budget of 600k GPU-hours at 80% uptime buys what 480k buy at full uptime (0.8 × 600k)', () => {
    const wall = fastestWithinBudget(gpt3Base, TOKENS, { gpuHourBudget: 600e3 }, { uptime: 0.8 });
    const full = fastestWithinBudget(gpt3Base, TOKENS, { gpuHourBudget: 480e3 });
    if (!wall.ok || !full.ok) throw new Error('a budget GPT-3 175B trains within');
    expect(wall.nodes).toBe(full.nodes);
    expect(wall.gpuHours).toBeLessThanOrEqual(600e3);
    expect(wall.gpuHours * 0.8).toBeCloseTo(full.gpuHours, 3);
    expect(wall.seconds * 0.8).toBeCloseTo(full.seconds, 3);
  });
});
