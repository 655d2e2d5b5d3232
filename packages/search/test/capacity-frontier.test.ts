import { describe, expect, it } from 'vitest';
import { SCAN_WINDOW } from '../src/capacity-limits.ts';
import { FRONTIER_REFINE_SHARE } from '../src/capacity-frontier.ts';
import { costTimeFrontier, fastestWithinBudget, fewestNodes, FRONTIER_OCTAVE_STEPS, FRONTIER_PATIENCE, FRONTIER_SCAN_WINDOW, MAX_NODES, trainOnNodes, type CapacityPoint, type FrontierPoint } from '../src/index.ts';
import { withShapeDefaults } from '@trainplan/model';
import { gpt3Base, llama3DefaultBatchFor, llama70bBase, smallBase } from './fixtures.ts';

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

describe('costTimeFrontier: the sizes between the powers of two (GPT-3 175B, 300B tokens, DGX A100, batch 1536)', () => {
  // Brute force: every node count up to 128 nodes, the first power of two past the cheapest by three doublings.
  const every: FrontierPoint[] = [];
  for (let n = 1; n <= 128; n++) {
    const p = trainOnNodes(gpt3Base, n, TOKENS);
    if (p) every.push({ ...p, pareto: false });
  }
  const searched: number[] = [];
  const f = costTimeFrontier(gpt3Base, TOKENS, { onClusterSize: (n) => searched.push(n) });
  if (!f.ok) throw new Error(f.message);

  it('the cheapest is the cheapest of every node count, not of the powers of two alone (14 nodes, not 16)', () => {
    const least = Math.min(...every.map((p) => p.gpuHours));
    expect(f.cheapest.gpuHours).toBe(least);
    expect(f.cheapest.nodes).toBe(every.find((p) => p.gpuHours === least)!.nodes);
    expect(f.cheapest.nodes & (f.cheapest.nodes - 1), 'not a power of two').not.toBe(0);
  });

  it('no ★ size up to 64 nodes is beaten on both time and GPU-hours by any node count up to 128', () => {
    const starred = f.points.filter((p) => p.pareto && p.nodes <= 64);
    expect(starred.length).toBeGreaterThan(2);
    for (const p of starred) expect(every.filter((q) => beats(q, p)).map((q) => q.nodes), `${p.nodes} nodes`).toEqual([]);
  });

  it('★ is computed over every size searched, each size searched once: the curve\'s, and its Pareto sizes\' deadlines\' up to FRONTIER_REFINE_SHARE times as many more', () => {
    expect(new Set(searched).size).toBe(searched.length);
    expect(searched).toHaveLength(f.searches);
    for (const p of f.points) expect(p.pareto, `${p.nodes} nodes`).toBe(!f.points.some((q) => beats(q, p)));
    const octaves = Math.log2(Math.max(...searched));
    const curve = 2 * octaves + (FRONTIER_OCTAVE_STEPS - 1) * octaves + 2 * FRONTIER_SCAN_WINDOW;
    // The last deadline searched past the budget: its powers of two and halfway sizes, its bisection and its scan below.
    const lastDeadline = 3 * octaves + SCAN_WINDOW;
    expect(f.searches).toBeLessThanOrEqual((1 + FRONTIER_REFINE_SHARE) * curve + lastDeadline);
  });
});

describe('costTimeFrontier stops doubling once larger clusters stop training faster, and closes with the deadline search', () => {
  it('a 1.3B GPT at a batch of 8 sequences: FRONTIER_PATIENCE doublings past the fastest power of two are no faster; past them only the closing deadline search\'s sizes', () => {
    const base = { ...smallBase, globalBatchSize: 8 };
    const tokens = 10e9;
    const searched: number[] = [];
    const f = costTimeFrontier(base, tokens, { onClusterSize: (n) => searched.push(n) });
    if (!f.ok) throw new Error(f.message);
    // The doublings' rule (searchCurve): powers of two up from the smallest that runs, until FRONTIER_PATIENCE in a row are no faster.
    let fastest: CapacityPoint | undefined;
    let slower = 0;
    for (let n = 1; n <= MAX_NODES && slower < FRONTIER_PATIENCE; n *= 2) {
      const p = trainOnNodes(base, n, tokens);
      if (p && (fastest === undefined || p.seconds < fastest.seconds)) [fastest, slower] = [p, 0];
      else if (fastest !== undefined) slower += 1;
    }
    if (fastest === undefined) throw new Error('no power of two runs');
    expect(fastest.nodes * 2 ** FRONTIER_PATIENCE).toBeLessThan(MAX_NODES);
    expect(f.fastest.seconds).toBeLessThanOrEqual(fastest.seconds);
    expect(searched).toHaveLength(f.searches);
    // Past the doublings' stop, only the closing deadline search (capacity-closing.ts: as --days searches, its powers of two
    // and 1.5 times them, and the SCAN_WINDOW sizes below MAX_NODES) searches, so that no deadline search beats the curve's
    // fastest (QA: the curve's "← fastest" was beaten by a size --days finds); here it finds none faster.
    const stop = fastest.nodes * 2 ** FRONTIER_PATIENCE;
    const powerOrHalfway = (n: number): boolean => (n & (n - 1)) === 0 || (n % 3 === 0 && ((n / 3) & (n / 3 - 1)) === 0);
    expect(searched.filter((n) => n > stop && !powerOrHalfway(n) && n <= MAX_NODES - SCAN_WINDOW)).toEqual([]);
    expect(searched.filter((n) => n > MAX_NODES - SCAN_WINDOW)).toHaveLength(SCAN_WINDOW);
    expect(fewestNodes(base, tokens, { deadlineSeconds: f.fastest.seconds * (1 - 1e-3) }).ok).toBe(false);
  });
});

/** `q` trains as fast or faster for as few GPU-hours or fewer, and strictly better on one. */
function beats(q: CapacityPoint, p: CapacityPoint): boolean {
  return q.seconds <= p.seconds && q.gpuHours <= p.gpuHours && (q.seconds < p.seconds || q.gpuHours < p.gpuHours);
}

describe('costTimeFrontier with a batch per size: the sizes between the octave steps (Llama 3 70B on H100, 2T tokens)', () => {
  // Each size at the CLI's default batch: the octave steps try 112, 120, 160 and 176 nodes; 108, 135 and 180, which they
  // skip, beat them on both time and GPU-hours (108: 28.4 days, 588,337; 112: 28.6 days, 615,959).
  const model = withShapeDefaults({ ...llama70bBase.model, name: 'llama3-70b', vocabSize: 128256, seqLength: 8192 });
  const base = { ...llama70bBase, model, seqLength: 8192, globalBatchSize: 512 };
  // The space these sizes were found in, v up to 8 (the default now takes every v Megatron accepts: search-space.ts
  // megatronVirtualStages), so that the skipped and starred sizes stay the QA's.
  const options = { globalBatchFor: llama3DefaultBatchFor, constraints: { maxVirtualStages: 8 } };
  const f = costTimeFrontier(base, 2e12, options);
  if (!f.ok) throw new Error(f.message);
  const at = (nodes: number) => f.points.find((p) => p.nodes === nodes);

  it.each([
    { skipped: 108, starred: 112 }, { skipped: 117, starred: 120 }, { skipped: 162, starred: 160 }, { skipped: 171, starred: 176 },
  ])('$skipped nodes, which beat $starred on both, are on the curve and starred; $starred is not', ({ skipped, starred }) => {
    const better = at(skipped);
    const worse = trainOnNodes(base, starred, 2e12, options)!;
    expect(better, `${skipped} nodes searched`).toBeDefined();
    expect(beats(better!, worse)).toBe(true);
    expect(better!.pareto).toBe(true);
    expect(at(starred)?.pareto ?? false).toBe(false);
  });

  it('no size from 240 to 520 nodes beats a starred size on both (brute force): 256 nodes are unstarred by 252, 28 replicas of TP 2 · PP 9 · CP 4', () => {
    const every = Array.from({ length: 281 }, (_, i) => trainOnNodes(base, 240 + i, 2e12, options)).filter((p) => p !== undefined);
    const starred = f.points.filter((p) => p.pareto);
    for (const star of starred) {
      const beaten = every.find((q) => beats(q, star));
      expect(beaten?.nodes, `${star.nodes} nodes starred`).toBeUndefined();
    }
    expect(at(256)?.pareto ?? false).toBe(false);
    expect(at(252)?.pareto).toBe(true);
  });

  it.each([600e3, 640e3, 659e3, 750e3])('the fastest size within %d GPU-hours (brute-force checked) is a starred size of the curve', (budget) => {
    // QA: the curve jumped from 252 nodes (13.6 days) to 480 (8.2 days), while the budget of 659k answered 279 nodes (12.3
    // days: 31 replicas of 252's TP 2 · PP 9 · CP 4) and 750k answered 360 nodes (10.5 days: TP 2 · PP 9 · CP 8, its
    // neighbour with twice the context parallelism), neither beaten by any size.
    const a = fastestWithinBudget(base, 2e12, { gpuHourBudget: budget }, options);
    if (!a.ok) throw new Error(a.message);
    expect(at(a.nodes)?.pareto, `${a.nodes} nodes`).toBe(true);
  });

  it('every point states the batch its size was planned at: from fewer than 512 sequences to the 16M-token cap (2,048), rounded', () => {
    for (const p of f.points) expect(p.globalBatchSize, `${p.nodes} nodes`).toBe(llama3DefaultBatchFor(p.nodes));
    const batches = f.points.map((p) => p.globalBatchSize);
    expect(Math.min(...batches)).toBeLessThan(512);
    // The cap's 2,048 sequences, rounded to the nearest multiple a size's data-parallel split divides, within a tenth of it.
    expect(Math.max(...batches)).toBeGreaterThanOrEqual(2048);
    expect(Math.max(...batches)).toBeLessThanOrEqual(2048 * 1.1);
  });
});
