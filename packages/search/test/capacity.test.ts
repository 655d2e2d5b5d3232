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
  const deadline = 30 * DAY;
  const a = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: deadline });
  const misses = (n: number) => {
    const p = trainOnNodes(gpt3Base, n, TOKENS);
    return p === undefined || p.seconds > deadline;
  };

  it('meets a 30-day deadline, and the size just below does not', () => {
    if (!a.ok) throw new Error(a.message);
    expect(a.seconds).toBeLessThanOrEqual(deadline);
    expect(misses(a.nodes - 1)).toBe(true);
  });

  it('is the fewest, though time to train is not monotone in the nodes (a bisection would assume it is)', () => {
    if (!a.ok) throw new Error(a.message);
    // Non-monotone: among the next sizes up, some meet the deadline and some do not (a node count
    // whose GPUs factor badly into TP · PP · DP, or run no plan at all).
    const above = Array.from({ length: 12 }, (_, i) => a.nodes + 1 + i).map(misses);
    expect(above).toContain(true);
    expect(above).toContain(false);
    // Every size the scan checked below the answer misses, searched here independently.
    expect(a.checked).toBeDefined();
    for (let n = a.checked!.fromNodes; n < a.nodes; n++) expect(misses(n), `${n} nodes`).toBe(true);
  });

  it('stops the scan only where fewer nodes cannot meet the deadline even at the GPU\'s peak', () => {
    if (!a.ok) throw new Error(a.message);
    expect(a.checked!.complete).toBe(true);
    // The model FLOPs of the whole run over (GPUs × dense BF16 peak): the time at 100% MFU.
    const e = a.plan.estimate;
    const runFlops = (e.modelFlopsPerStep * TOKENS) / (gpt3Base.globalBatchSize * gpt3Base.seqLength);
    const idealSeconds = (nodes: number) => runFlops / (nodes * gpt3Base.gpusPerNode * gpt3Base.gpu.peakFlops.bf16!);
    expect(idealSeconds(a.checked!.fromNodes - 1)).toBeGreaterThan(deadline);
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
  const fixed = { tensor: 8, pipeline: 8, recompute: 'full' } as const;

  it('strong scaling: efficiency is tokens/s per GPU over the smallest size\'s; more nodes cut the step but never raise it here', () => {
    const points = scalingSweep(gpt3Base, { nodes: [32, 64, 128], mode: 'strong', fixed });
    for (const p of points) expect(p.estimate).toBeDefined();
    const perGpu = points.map((p) => p.estimate!.tokensPerSecond / p.gpus);
    points.forEach((p, i) => expect(p.efficiency!).toBeCloseTo(perGpu[i]! / perGpu[0]!, 12));
    expect(points.map((p) => p.globalBatchSize)).toEqual([1536, 1536, 1536]);
    for (let i = 1; i < points.length; i++) {
      expect(points[i]!.estimate!.stepTimeSeconds).toBeLessThan(points[i - 1]!.estimate!.stepTimeSeconds);
      expect(points[i]!.efficiency!).toBeLessThanOrEqual(points[i - 1]!.efficiency! + 1e-9);
    }
    // With DP doubling and the batch fixed, each step has half the micro-batches: more bubble, so below 1.
    expect(points[2]!.efficiency!).toBeLessThan(1);
  });

  it('the reference is the smallest size whatever the order listed: 128, 64, 32 gives the same efficiencies as 32, 64, 128', () => {
    const up = scalingSweep(gpt3Base, { nodes: [32, 64, 128], mode: 'strong', fixed });
    const down = scalingSweep(gpt3Base, { nodes: [128, 64, 32], mode: 'strong', fixed });
    expect(down.map((p) => p.nodes)).toEqual([128, 64, 32]);
    expect(down[2]!.efficiency).toBe(1);
    expect(down.map((p) => p.efficiency)).toEqual([...up].reverse().map((p) => p.efficiency));
  });

  it('a size where nothing fits says why: the memory the closest plan needs against the GPU\'s', () => {
    const [one] = scalingSweep(gpt3Base, { nodes: [1], mode: 'strong' });
    expect(one!.estimate).toBeUndefined();
    const m = /needs ([\d.]+) GiB per GPU, the GPU has ([\d.]+) GiB/.exec(one!.reason ?? '');
    expect(m, one!.reason).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(Number(m![2]));
    expect(Number(m![2])).toBeCloseTo(gpt3Base.gpu.hbmBytes / 2 ** 30, 1);
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
