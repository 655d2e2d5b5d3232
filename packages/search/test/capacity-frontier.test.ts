import { describe, expect, it } from 'vitest';
import { costTimeFrontier, FRONTIER_PATIENCE, MAX_NODES, trainOnNodes, type FrontierPoint } from '../src/index.ts';
import { gpt3Base, smallBase } from './fixtures.ts';

const TOKENS = 300e9;

describe('costTimeFrontier: the time–cost curve over cluster sizes (GPT-3 175B, 300B tokens, DGX A100, batch 1536)', () => {
  const f = costTimeFrontier(gpt3Base, TOKENS);
  if (!f.ok) throw new Error(f.message);

  it('starts at the smallest cluster that fits, and every point is the best plan on its size', () => {
    const first = f.points[0]!;
    expect(trainOnNodes(gpt3Base, first.nodes - 1, TOKENS)).toBeUndefined();
    for (const p of f.points) expect(p.seconds, `${p.nodes} nodes`).toBe(trainOnNodes(gpt3Base, p.nodes, TOKENS)!.seconds);
    expect(f.points.map((p) => p.nodes)).toEqual([...f.points.map((p) => p.nodes)].sort((a, b) => a - b));
  });

  it('goes up in powers of two while the time to train falls', () => {
    const powers = f.points.filter((p) => p.nodes > f.points[0]!.nodes && (p.nodes & (p.nodes - 1)) === 0);
    expect(powers.map((p) => p.nodes)).toEqual([8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]);
  });

  it('the cheapest takes the fewest GPU-hours, the fastest the least time; cheap is slow and fast is dear', () => {
    expect(f.cheapest.gpuHours).toBe(Math.min(...f.points.map((p) => p.gpuHours)));
    expect(f.fastest.seconds).toBe(Math.min(...f.points.map((p) => p.seconds)));
    expect(f.fastest.nodes).toBeGreaterThan(f.cheapest.nodes);
    expect(f.fastest.gpuHours).toBeGreaterThan(f.cheapest.gpuHours);
    // GPT-3's 300B tokens: about 0.48M GPU-hours at best on A100 (SC'21's 1024 GPUs: 34 days × 24 h × 1024 = 0.84M with full recompute).
    expect(f.cheapest.gpuHours).toBeGreaterThan(0.3e6);
    expect(f.cheapest.gpuHours).toBeLessThan(0.84e6);
  });

  it('marks as Pareto exactly the sizes no other size beats on both time and GPU-hours', () => {
    const beats = (q: FrontierPoint, p: FrontierPoint) =>
      q.seconds <= p.seconds && q.gpuHours <= p.gpuHours && (q.seconds < p.seconds || q.gpuHours < p.gpuHours);
    for (const p of f.points) expect(p.pareto, `${p.nodes} nodes`).toBe(!f.points.some((q) => beats(q, p)));
    expect(f.cheapest.pareto && f.fastest.pareto).toBe(true);
    // Below the cheapest, a smaller cluster is slower and dearer (lower MFU: a deep pipeline on few GPUs).
    expect(f.points.filter((p) => p.nodes < f.cheapest.nodes).every((p) => !p.pareto)).toBe(true);
  });

  it('a model that fits on no cluster size says so', () => {
    const tiny = { ...gpt3Base, gpu: { ...gpt3Base.gpu, hbmBytes: 1e6 } };
    const none = costTimeFrontier(tiny, TOKENS);
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.message).toMatch(/^no configuration fits on up to 8,192 nodes/);
  });
});

describe('costTimeFrontier stops once larger clusters stop training faster', () => {
  it('a 1.3B GPT at a batch of 8 sequences: after the fastest size, FRONTIER_PATIENCE doublings that are no faster end the curve', () => {
    const base = { ...smallBase, globalBatchSize: 8 };
    const tokens = 10e9;
    const searched: number[] = [];
    const f = costTimeFrontier(base, tokens, { onClusterSize: (n) => searched.push(n) });
    if (!f.ok) throw new Error(f.message);
    const fastest = f.fastest.nodes;
    expect(fastest & (fastest - 1)).toBe(0);
    for (let k = 1; k <= FRONTIER_PATIENCE; k++) {
      const p = trainOnNodes(base, fastest * 2 ** k, tokens);
      expect(p === undefined || p.seconds >= f.fastest.seconds, `${fastest * 2 ** k} nodes`).toBe(true);
    }
    expect(Math.max(...searched)).toBe(fastest * 2 ** FRONTIER_PATIENCE);
    expect(searched).toHaveLength(f.searches);
    expect(fastest * 2 ** FRONTIER_PATIENCE).toBeLessThan(MAX_NODES);
  });
});
