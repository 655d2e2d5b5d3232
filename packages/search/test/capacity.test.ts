import { describe, expect, it } from 'vitest';
import { fewestNodes, scalingSweep, tensorPipelineTable, trainOnNodes } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

const TOKENS = 300e9;
const DAY = 86_400;

describe('trainOnNodes', () => {
  it('the time to train is the token budget over the best plan\'s achieved tokens/s', () => {
    const p = trainOnNodes(gpt3Base, 128, TOKENS)!;
    expect(p.seconds).toBeCloseTo(TOKENS / p.plan.estimate.tokensPerSecond, 6);
    expect(p.days).toBeCloseTo(p.seconds / DAY, 9);
    expect(p.gpuHours).toBeCloseTo((p.seconds * 1024) / 3600, 6);
  });
});

describe('fewestNodes', () => {
  it('meets a 30-day deadline, and the size just below does not', () => {
    const a = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 30 * DAY });
    if (!a.ok) throw new Error(a.message);
    expect(a.seconds).toBeLessThanOrEqual(30 * DAY);
    const below = trainOnNodes(gpt3Base, a.nodes - 1, TOKENS);
    expect(below === undefined || below.seconds > 30 * DAY).toBe(true);
  });

  it('a deadline no cluster meets answers with the fastest point found and why', () => {
    const a = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 3600 });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('deadline-unreachable');
    expect(a.closest?.seconds).toBeGreaterThan(3600);
    expect(a.message).toMatch(/fastest found takes/);
  });

  it('a budget of zero GPU-hours answers with the cheapest run found', () => {
    const a = fewestNodes(gpt3Base, TOKENS, { gpuHourBudget: 0 });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('budget-unreachable');
    expect(a.closest?.gpuHours).toBeGreaterThan(0);
  });
});

describe('scaling sweeps', () => {
  it('strong scaling: the first point is the reference (efficiency 1) and more nodes never raise tokens/s per GPU here', () => {
    const points = scalingSweep(gpt3Base, { nodes: [32, 64, 128], mode: 'strong', fixed: { tensor: 8, pipeline: 8, recompute: 'full' } });
    expect(points[0]!.efficiency).toBe(1);
    for (const p of points) expect(p.estimate).toBeDefined();
    expect(points[2]!.efficiency!).toBeLessThanOrEqual(1 + 1e-9);
  });

  it('weak scaling grows the batch with the nodes', () => {
    const points = scalingSweep(gpt3Base, { nodes: [64, 128], mode: 'weak', fixed: { tensor: 8, pipeline: 8, recompute: 'full' } });
    expect(points.map((p) => p.globalBatchSize)).toEqual([1536, 3072]);
  });

  it('the TP × PP table lists only pairs that divide the GPUs, each with a plan or a reason', () => {
    const cells = tensorPipelineTable(gpt3Base, { tensor: [4, 8], pipeline: [4, 8, 16] });
    expect(cells.map((c) => [c.tensor, c.pipeline])).toEqual([[4, 4], [4, 8], [4, 16], [8, 4], [8, 8], [8, 16]]);
    for (const c of cells) expect(c.estimate !== undefined || c.reason !== undefined).toBe(true);
  });
});
