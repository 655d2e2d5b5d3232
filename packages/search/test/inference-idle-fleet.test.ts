import { describe, expect, it } from 'vitest';
import { admissionWaitSeconds, LOAD_FLOOR, planInference, servingLoad, type InferenceEstimate } from '../src/index.ts';
import { atLoadFloor, heldIdle, replicasAtUtilization } from '../src/inference/idle-fleet.ts';
import { holdSeconds } from '../src/inference/serving-load.ts';
import type { InferenceSearch } from '../src/inference/frontier.ts';
import { tensorsAcrossNodes } from '../src/inference/tensor-across-nodes.ts';
import { llama70bBase, llama3_70bBase } from './fixtures.ts';

// QA (High): 405B at 50 requests/s of 8K prompts within 2 s on H100s was planned as 1,339,150 replicas of TP 8 · PP 2 (21,426,400
// GPUs) 0% loaded: the prompt's prefill alone took 1.99 s of the 2 s, leaving ~10 ms to wait for a slot a request holds ~27 s.

/** Llama 3.1 405B (Dubey et al. 2024, Table 3: 126 layers, h 16,384, 128 heads, 8 KV heads, FFN 53,248) served on DGX H100. */
const base405b = {
  ...llama3_70bBase,
  model: { ...llama3_70bBase.model, name: 'llama3.1-405b', layers: 126, hiddenSize: 16384, attentionHeads: 128, ffnHiddenSize: 53248 },
};
const QA: InferenceSearch = { promptTokens: 8192, outputTokens: 512, batching: 'continuous', requestsPerSecond: 50, maxPrefillSeconds: 2 };
/** The degrees planInference tries within one NVLink domain of 8, named so that none across nodes is tried. */
const WITHIN_NODE = [1, 2, 4, 8];

/** The fewest replicas of a point meeting `bound` at `rate` (servingLoad), on its own figures. */
const loadOf = (e: InferenceEstimate, rate: number, bound: number) =>
  servingLoad({ batch: e.shape.batch, gpus: e.shape.tensor * e.shape.pipeline, holdSeconds: holdSeconds(e), firstTokenSeconds: e.prefillSeconds }, rate, bound);

describe('the load floor, worked by hand on a one-slot replica holding a request 27 s (1/27 request/s each)', () => {
  const point = { batch: 1, gpus: 16, holdSeconds: 27, firstTokenSeconds: 1.99 };

  it('at 50 requests/s the most replicas each at least half busy are 2,700 (50 × 27 / 0.5), loaded exactly 50%', () => {
    expect(replicasAtUtilization(point, 50, 0.5)).toBe(2700);
    // One more and each is under half busy.
    expect((50 * 27) / 2701).toBeLessThan(0.5);
  });

  it('a rate under half a replica\'s share is served by one, the fewest that keep up', () => {
    expect(replicasAtUtilization(point, 0.01, 0.5)).toBe(1);
  });

  it('at half load an M/D/1 replica waits S/2 on average (Pollaczek–Khinchine ρ·S / (2(1 − ρ))): the first token 1.99 + 13.5 s', () => {
    const estimate = {
      shape: { tensor: 8, pipeline: 2, batch: 1, promptTokens: 8192, outputTokens: 512 }, prefillSeconds: 1.99, slotSeconds: 27, decodeStepSeconds: 0.05,
    } as InferenceEstimate;
    const at = atLoadFloor(estimate, 50)!;
    expect(at).toMatchObject({ replicas: 2700, gpus: 2700 * 16 });
    expect(at.firstTokenSeconds).toBeCloseTo(1.99 + 13.5, 9);
    // On GPUs for fewer replicas it is busier still; on too few to keep up, not served at all.
    expect(atLoadFloor(estimate, 50, 16 * 2000)!.replicas).toBe(2000);
    expect(atLoadFloor(estimate, 50, 16 * 1350)).toBeUndefined();
  });
});

describe('planInference where the first-token bound holds every plan idle', () => {
  it('within one node (TP ≤ 8): the best meets the bound only under half loaded, and says so with the soonest first token at half load', () => {
    const plan = planInference(base405b, { ...QA, tensor: WITHIN_NODE });
    const best = plan.best!;
    expect(best.load!.firstTokenSeconds).toBeLessThanOrEqual(2);
    expect(best.load!.utilization).toBeLessThan(LOAD_FLOOR);
    expect(heldIdle(best)).toBe(true);
    // No point meets the bound on replicas loaded to half or more: the fewest that meet it (servingLoad) load each under half.
    for (const p of plan.points) {
      const load = loadOf(p, 50, 2);
      if (load !== undefined) expect(load.utilization, `TP ${p.shape.tensor} · PP ${p.shape.pipeline} · batch ${p.shape.batch}`).toBeLessThan(LOAD_FLOOR);
    }
    const idle = plan.idleFleet!;
    expect(idle.point).toBe(best);
    expect(idle.waitBudgetSeconds).toBeCloseTo(2 - best.prefillSeconds, 12);
    expect(idle.holdSeconds).toBeGreaterThan(100 * idle.waitBudgetSeconds);
    // The soonest first token at half load is past the bound, and no point tried is sooner there.
    const at = idle.atLoadFloor;
    expect(at.firstTokenSeconds).toBeGreaterThan(2);
    const hold = holdSeconds(at.point);
    expect(at.firstTokenSeconds).toBeCloseTo(at.point.prefillSeconds + admissionWaitSeconds(at.point.shape.batch, 50 / at.replicas, hold), 12);
    expect(50 / (at.replicas * (at.point.shape.batch / hold))).toBeGreaterThanOrEqual(LOAD_FLOOR);
    for (const p of plan.points) expect(atLoadFloor(p, 50)!.firstTokenSeconds).toBeGreaterThanOrEqual(at.firstTokenSeconds);
  });

  it('by default TP 16 over two nodes is tried too, and its plan, at least half loaded on far fewer GPUs, is the best', () => {
    const idle = planInference(base405b, { ...QA, tensor: WITHIN_NODE }).best!;
    const plan = planInference(base405b, QA);
    const best = plan.best!;
    expect(best.shape.tensor).toBe(16);
    expect(best.load!.firstTokenSeconds).toBeLessThanOrEqual(2);
    expect(best.load!.utilization).toBeGreaterThanOrEqual(LOAD_FLOOR);
    expect(best.load!.gpus).toBeLessThan(idle.load!.gpus / 100);
    expect(plan.idleFleet).toBeUndefined();
    expect(plan.byShape.some((s) => s.tensor === 16)).toBe(true);
    expect(plan.warnings).toContainEqual(expect.stringMatching(
      /^within one NVLink domain \(TP ≤ 8\) the first-token bound binds: the prefill alone takes [\d.]+ s of its 2\.00 s \(TP 8 · PP 2 · batch 1\), .* was tried too: TP 16 serves the rate on [\d,]+ replicas \([\d,]+ GPUs\), \d+% loaded$/));
  });

  it('review: with the GPUs given and no plan on them within a node, TP 16 is tried too (5 requests/s within 2 s on 1,024 H100s)', () => {
    const rate = { ...QA, requestsPerSecond: 5, gpus: 1024 };
    // Within a node the only plans meeting 2 s are the idle fleet's, which needs more than 1,024 GPUs: no plan.
    expect(planInference(base405b, { ...rate, tensor: WITHIN_NODE }).best).toBeUndefined();
    // Without the GPUs given, TP 16 serves the rate; on 1,024 of them it now does too, whole replicas dividing them.
    const anyCount = planInference(base405b, { ...QA, requestsPerSecond: 5 }).best!;
    expect(anyCount.shape.tensor).toBe(16);
    const plan = planInference(base405b, rate);
    const best = plan.best!;
    expect(best.shape.tensor).toBe(16);
    expect(1024 % (best.shape.tensor * best.shape.pipeline)).toBe(0);
    expect(best.load!.gpus).toBeLessThanOrEqual(1024);
    expect(best.load!.firstTokenSeconds).toBeLessThanOrEqual(2);
    expect(plan.warnings).toContainEqual(expect.stringMatching(
      /^within one NVLink domain \(TP ≤ 8\) no plan meets the bounds at this rate on the 1,024 GPUs given; .* was tried too: TP 16 serves the rate on [\d,]+ replicas \([\d,]+ GPUs\), \d+% loaded$/));
  });

  it('the degree across nodes is two NVLink domains\' GPUs, not tried where the request names its degrees or gives fewer GPUs', () => {
    expect(tensorsAcrossNodes(8, {})).toEqual([16]);
    expect(tensorsAcrossNodes(8, { gpus: 32 })).toEqual([16]);
    expect(tensorsAcrossNodes(8, { gpus: 8 })).toEqual([]);
    expect(tensorsAcrossNodes(8, { tensor: [8] })).toEqual([]);
  });
});

describe('ordinary plans at a rate are unchanged', () => {
  it.each([
    ['Llama 2 70B, 2,048 + 512 tokens at 20 requests/s within 2 s', llama70bBase, { promptTokens: 2048, outputTokens: 512, requestsPerSecond: 20, maxPrefillSeconds: 2 }],
    ['405B, 8K prompts at 0.01 requests/s within 10 s', base405b, { promptTokens: 8192, outputTokens: 512, requestsPerSecond: 0.01, maxPrefillSeconds: 10 }],
  ] as const)('%s: no idle fleet, no degree past the NVLink domain', (_name, base, search) => {
    const plan = planInference(base, { ...search, batching: 'continuous' });
    expect(plan.best).toBeDefined();
    expect(plan.idleFleet).toBeUndefined();
    expect(plan.byShape.every((s) => s.tensor <= 8)).toBe(true);
    expect(plan.warnings.some((w) => w.includes('first-token bound binds'))).toBe(false);
  });

  it('one replica at a light load is the fewest, not an idle fleet: the rate, not the bound, sizes it', () => {
    const plan = planInference(llama70bBase, { promptTokens: 2048, outputTokens: 256, batching: 'continuous', requestsPerSecond: 0.001, maxPrefillSeconds: 2 });
    expect(plan.best!.load!.replicas).toBe(1);
    expect(plan.best!.load!.utilization).toBeLessThan(LOAD_FLOOR);
    expect(heldIdle(plan.best!)).toBe(false);
    expect(plan.idleFleet).toBeUndefined();
  });
});
