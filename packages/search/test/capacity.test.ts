import { describe, expect, it } from 'vitest';
import { modelFlopsPerStep, withShapeDefaults } from '@trainplan/model';
import {
  costTimeFrontier, daysText, fastestWithinBudget, fewestNodes, MAX_NODES, scalingSweep, searchOnNodes, searchPlans, tensorPipelineTable, trainOnNodes, whyNothingFits,
} from '../src/index.ts';
import { gpt3Base, h100Fabric, llama70bBase, smallBase } from './fixtures.ts';

const TOKENS = 300e9;
const DAY = 86_400;

/** Tokens per optimizer step: the fixture's global batch of 1536 sequences of 2048 tokens (GPT-3's, Brown et al. 2020, Table 2.1). */
const STEP_TOKENS = 1536 * 2048;

/** The parenthesis of a check's note that says why sizes run no plan. */
const checkedWords = (note: string | undefined): string => /runs? no plan \(([^)]*)\)/.exec(note ?? '')?.[1] ?? '';

describe('daysText', () => {
  it('reads days as units\' formatDuration does: 34.2 days, and a short run in hours or minutes', () => {
    expect([daysText(34.24), daysText(0.99), daysText(0.5 / 24)]).toEqual(['34.2 days', '23.8 hours', '30 minutes']);
  });
});

describe('trainOnNodes', () => {
  it('the time to train is whole optimizer steps of the best plan\'s step time: a partial last batch is still a step', () => {
    expect(gpt3Base.globalBatchSize * gpt3Base.seqLength).toBe(STEP_TOKENS);
    const p = trainOnNodes(gpt3Base, 128, TOKENS)!;
    // 300e9 / 3,145,728 = 95,367.4: the run is 95,368 steps, not 95,367.4.
    expect(p.seconds).toBeCloseTo(95_368 * p.plan.estimate.stepTimeSeconds, 6);
    expect(p.days).toBeCloseTo(p.seconds / DAY, 9);
    expect(p.gpuHours).toBeCloseTo((p.seconds * 1024) / 3600, 6);
  });

  it('one token, or one batch exactly, takes one step', () => {
    const one = trainOnNodes(gpt3Base, 128, 1)!;
    expect(one.seconds).toBeCloseTo(one.plan.estimate.stepTimeSeconds, 9);
    const batch = trainOnNodes(gpt3Base, 128, STEP_TOKENS)!;
    expect(batch.seconds).toBeCloseTo(batch.plan.estimate.stepTimeSeconds, 9);
    expect(trainOnNodes(gpt3Base, 128, STEP_TOKENS + 1)!.seconds).toBeCloseTo(2 * batch.plan.estimate.stepTimeSeconds, 9);
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
    // Every size the scan checked below the answer misses, searched here independently; those that
    // run no plan at all are counted apart (they do not "miss" the deadline, they do not run).
    expect(a.checked).toBeDefined();
    let noPlan = 0;
    for (let n = a.checked!.fromNodes; n < a.nodes; n++) {
      expect(misses(n), `${n} nodes`).toBe(true);
      if (trainOnNodes(gpt3Base, n, TOKENS) === undefined) noPlan += 1;
    }
    expect(a.checked!.noPlan).toBe(noPlan);
    expect(a.checked!.outOfMemory).toBeLessThanOrEqual(noPlan);
  });

  it('a token budget of one step: the sizes below the answer run out of memory, and are counted so, not as missing the deadline', () => {
    const one = fewestNodes(gpt3Base, STEP_TOKENS, { deadlineSeconds: deadline });
    if (!one.ok) throw new Error(one.message);
    // One step takes minutes, so the answer is the smallest cluster the model fits on.
    expect(one.seconds).toBeCloseTo(one.plan.estimate.stepTimeSeconds, 9);
    for (let n = 1; n < one.nodes; n++) expect(trainOnNodes(gpt3Base, n, STEP_TOKENS), `${n} nodes`).toBeUndefined();
    expect(one.checked).toMatchObject({ fromNodes: 1, complete: true, noPlan: one.nodes - 1, outOfMemory: one.nodes - 1 });
    expect(one.note).toMatch(new RegExp(`^no size from 1 to ${one.nodes - 1} nodes runs a plan \\(out of memory\\)`));
    expect(one.note).not.toMatch(/misses|fewer than 1 node/);
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

  it('at long sequences the floor counts the causal attention that runs, not the full count MFU is quoted in', () => {
    // The 1.3B GPT at 32k tokens a sequence (s = 16h): the full count has attention over every (query, key) pair, about
    // 1 + s/(6h) = 3.7 times the rest, where flash attention runs the causal half of it (model reference §2).
    const long = { ...smallBase, model: { ...smallBase.model, seqLength: 32768 }, seqLength: 32768, globalBatchSize: 64, attentionKernel: 'flash' as const };
    const tokens = 20e9;
    const deadline = 2 * DAY;
    const f = fewestNodes(long, tokens, { deadlineSeconds: deadline });
    if (!f.ok) throw new Error(f.message);
    expect(f.checked!.complete).toBe(true);
    const steps = Math.ceil(tokens / (64 * 32768));
    const peakNode = long.gpusPerNode * long.gpu.peakFlops.bf16!;
    const run = { globalBatchSize: 64, seqLength: 32768 };
    const atPeak = (attention: 'causal' | 'full') => (steps * modelFlopsPerStep(long.model, { ...run, attention })) / (deadline * peakNode);
    // The scan went down to the causal floor: fewer nodes than it cannot run the causal FLOPs in 2 days at peak.
    expect(f.checked!.fromNodes).toBe(Math.max(1, Math.ceil(atPeak('causal'))));
    // The full count would have stopped it higher, above sizes a plan might yet meet the deadline on.
    expect(Math.ceil(atPeak('full'))).toBeGreaterThan(f.checked!.fromNodes);
  });

  it('a deadline no cluster meets answers with the fastest point found and why', () => {
    const a = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 3600 });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('deadline-unreachable');
    expect(a.closest?.seconds).toBeGreaterThan(3600);
    expect(a.message).toMatch(/fastest found takes/);
  });

  it('sizes whose search ran out of its candidate budget are counted apart, not as having no split that divides', () => {
    // One full estimate a size: where the best-bounded candidate does not fit, the search stops there with no plan.
    const options = { candidateBudget: 1 };
    const cut = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: deadline }, options);
    if (!cut.ok) throw new Error(cut.message);
    const c = cut.checked!;
    // Each size below the answer searched alone, tallied by why it runs nothing.
    const why = { indivisible: 0, 'out-of-memory': 0, 'candidate-budget': 0 };
    for (let n = c.fromNodes; n < cut.nodes; n++) {
      const reason = searchOnNodes(gpt3Base, n, TOKENS, options).noPlan;
      if (reason) why[reason] += 1;
    }
    // The premise: some sizes below run out of the budget.
    expect(why['candidate-budget']).toBeGreaterThan(0);
    expect({ noPlan: c.noPlan, outOfMemory: c.outOfMemory, candidateBudget: c.candidateBudget })
      .toEqual({ noPlan: why.indivisible + why['out-of-memory'] + why['candidate-budget'], outOfMemory: why['out-of-memory'], candidateBudget: why['candidate-budget'] });
    expect(checkedWords(cut.note)).toContain(`${why['candidate-budget']} where the candidate budget ran out first`);
    if (why.indivisible > 0) expect(checkedWords(cut.note)).toContain(`${why.indivisible} with no TP × PP × DP split that divides evenly`);
  });

  describe('a deadline and a budget', () => {
    const powersOfTwo = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
    const at = (n: number) => trainOnNodes(gpt3Base, n, TOKENS);

    it('a budget no size meets, with an easy deadline: the budget is named, with the cheapest size found that meets the deadline and by how much it is over', () => {
      const budget = 100;
      const easy = 200 * DAY;
      const b = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: easy, gpuHourBudget: budget });
      if (b.ok) throw new Error('100 GPU-hours cannot train GPT-3 175B');
      expect(b.reason).toBe('budget-unreachable');
      expect(b.closest!.seconds).toBeLessThanOrEqual(easy);
      expect(b.closest!.gpuHours).toBeGreaterThan(budget);
      // The cheapest that meets the deadline: no power of two that meets it costs less.
      for (const n of powersOfTwo) {
        const p = at(n);
        if (p && p.seconds <= easy) expect(p.gpuHours, `${n} nodes`).toBeGreaterThanOrEqual(b.closest!.gpuHours);
      }
      const over = Math.round(b.closest!.gpuHours - budget).toLocaleString('en-US');
      expect(b.message).toContain(`${over} over the budget of 100`);
      expect(b.message).not.toMatch(/meets the deadline: the fastest/);
    });

    it('sizes meet each but none both: says so, and offers the cheapest that meets the deadline', () => {
      const budget = 480e3;
      const b = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: deadline, gpuHourBudget: budget });
      if (b.ok) throw new Error(`expected no answer, got ${b.nodes} nodes`);
      expect(b.reason).toBe('budget-unreachable');
      expect(b.closest!.seconds).toBeLessThanOrEqual(deadline);
      expect(b.closest!.gpuHours).toBeGreaterThan(budget);
      // The size it names within the budget is, searched here independently, within it and too slow.
      const m = /those within the budget miss the deadline \(the fastest, (\d+) nodes?, takes/.exec(b.message);
      expect(m, b.message).not.toBeNull();
      const affordable = at(Number(m![1]))!;
      expect(affordable.gpuHours).toBeLessThanOrEqual(budget);
      expect(affordable.seconds).toBeGreaterThan(deadline);
    });

    it('a size between two powers of two that meets both is the answer (the powers alone miss: 64 nodes are too slow, 128 over the budget)', () => {
      const budget = 495e3;
      expect(at(64)!.seconds).toBeGreaterThan(deadline);
      for (const n of powersOfTwo.filter((x) => x >= 128)) expect(at(n)!.gpuHours, `${n} nodes`).toBeGreaterThan(budget);
      const b = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: deadline, gpuHourBudget: budget });
      if (!b.ok) throw new Error(b.message);
      expect(b.nodes).toBeGreaterThan(64);
      expect(b.nodes).toBeLessThan(128);
      expect(b.seconds).toBeLessThanOrEqual(deadline);
      expect(b.gpuHours).toBeLessThanOrEqual(budget);
    });

    it('a money budget no size meets names the cheapest run\'s cost as at the price given (a request states no currency)', () => {
      const b = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 200 * DAY, costBudget: 1000, pricePerGpuHour: 2 });
      if (b.ok) throw new Error('1,000 at 2 an hour cannot train GPT-3 175B');
      expect(b.reason).toBe('budget-unreachable');
      const cost = Math.round(b.closest!.cost!).toLocaleString('en-US');
      expect(b.message).toContain(`a cost of ${cost} at the price given, `);
      expect(b.message).toMatch(/ over the budget of 1,000 \([\d,]+ times it\)/);
    });

    it('a deadline no size meets is still the deadline, whatever the budget', () => {
      const b = fewestNodes(gpt3Base, TOKENS, { deadlineSeconds: 3600, gpuHourBudget: 1e12 });
      if (b.ok) throw new Error('one hour is too short');
      expect(b.reason).toBe('deadline-unreachable');
      expect(b.message).toMatch(/^no cluster of up to 8,192 nodes meets the deadline: the fastest found takes/);
    });
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
    const m = /needs ([\d.]+) GiB per GPU( on pipeline stage \d+)?, the (.+) has ([\d.]+) GiB/.exec(one!.reason ?? '');
    expect(m, one!.reason).not.toBeNull();
    expect(m![3]).toBe(gpt3Base.gpu.name);
    expect(Number(m![1])).toBeGreaterThan(Number(m![4]));
    expect(Number(m![4])).toBeCloseTo(gpt3Base.gpu.hbmBytes / 2 ** 30, 1);
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

describe('fewestNodes when more nodes can be slower (a fixed batch past the sizes it keeps busy)', () => {
  // GPT-3 175B at its 1,536 sequences on DGX H100: the doubling from the smallest fit misses sizes between powers of two.
  const base = { ...gpt3Base, gpu: llama70bBase.gpu, fabric: h100Fabric, precision: 'bf16' as const, attentionKernel: 'flash' as const, globalBatchSize: 1536 };
  it('a deadline that a size between two powers of two meets, and the larger power misses, is met, not called unreachable', () => {
    const at = (nodes: number) => trainOnNodes(base, nodes, TOKENS)!.seconds;
    const [mid, top] = [at(6144), at(8192)];
    // The premise: 6,144 nodes train faster than 8,192 (the batch keeps no more of them busy).
    expect(mid).toBeLessThan(top);
    const deadline = (mid + top) / 2;
    const a = fewestNodes(base, TOKENS, { deadlineSeconds: deadline });
    if (!a.ok) throw new Error(a.message);
    expect(a.seconds).toBeLessThanOrEqual(deadline);
    expect(a.nodes).toBeLessThanOrEqual(6144);
  });
});

describe('a capacity question no cluster size fits', () => {
  // 1,000 layers of width 200,000: about 12 · 1,000 · 200,000² = 480T parameters, terabytes per GPU under any split of
  // 65,536 GPUs the search tries (the layers of one pipeline stage shared by at most a node's tensor-parallel GPUs).
  const huge = { ...gpt3Base, model: withShapeDefaults({ name: 'huge', layers: 1000, hiddenSize: 200_000, attentionHeads: 1000, vocabSize: 50_000, seqLength: 2048 }) };

  it.each([
    ['fewestNodes', () => fewestNodes(huge, TOKENS, { deadlineSeconds: 30 * DAY })],
    ['fastestWithinBudget', () => fastestWithinBudget(huge, TOKENS, { gpuHourBudget: 1e9 })],
    ['costTimeFrontier', () => costTimeFrontier(huge, TOKENS)],
  ] as const)('%s says why as `search` does on the size its closest plan needs least (MAX_NODES): that plan\'s memory against the GPU\'s', (_, answer) => {
    const a = answer();
    if (a.ok) throw new Error('a 480T-parameter model fits nowhere');
    // The search of the largest cluster alone, as `trainplan search` runs it, and its one line of why nothing fits.
    const alone = whyNothingFits(searchPlans({ ...huge, nodes: MAX_NODES }, { top: 1 }));
    expect(alone).toMatch(/^out of memory: the plan that comes closest \(.*\) needs [\d.]+ TiB per GPU( on pipeline stage \d+)?, the .+ has [\d.]+ GiB$/);
    expect(a.message).toBe(`no configuration fits on up to 8,192 nodes of 8 × ${huge.gpu.name}; on 8,192 nodes: ${alone}`);
  });
});
