import { describe, expect, it } from 'vitest';
import { admissionWaitSeconds, erlangC, planInference, servingLoad } from '../src/index.ts';
import { llama70bBase as base } from './fixtures.ts';

describe('queueing for a slot, worked by hand', () => {
  it('Erlang C: one server at ρ = 0.5 makes half the arrivals wait; two at 1 erlang, 2ρ²/(1 + ρ) = 1/3', () => {
    expect(erlangC(1, 0.5)).toBeCloseTo(0.5, 12);
    expect(erlangC(2, 1)).toBeCloseTo(1 / 3, 12);
    expect(erlangC(4, 4)).toBe(1);
  });

  it('one slot is M/D/1: Pollaczek–Khinchine\'s ρ·S / (2(1 − ρ)), 0.5 s at ρ = 0.5 and S = 1 s', () => {
    expect(admissionWaitSeconds(1, 0.5, 1)).toBeCloseTo(0.5, 12);
    expect(admissionWaitSeconds(1, 1, 1)).toBe(Number.POSITIVE_INFINITY);
  });

  it('many slots absorb the same load: 64 slots at 80 % wait under a hundredth of one slot at 80 %', () => {
    const one = admissionWaitSeconds(1, 0.8, 10);
    const many = admissionWaitSeconds(64, 0.8 * 64 / 10, 10);
    expect(many).toBeLessThan(one / 100);
    expect(many).toBeGreaterThan(0);
  });
});

describe('servingLoad: the replicas a rate needs', () => {
  // Batch 64, 512 tokens at 30 ms an iteration: a slot is held 512 × 0.03 = 15.36 s, a replica of 8 GPUs finishes 64 / 15.36 = 4.17 requests/s.
  const point = { batch: 64, gpus: 8, holdSeconds: 15.36, firstTokenSeconds: 0.2 };

  it('10 requests/s without a bound: the fewest that keep up, 3 replicas (24 GPUs) at 80 %', () => {
    const load = servingLoad(point, 10)!;
    expect(load).toMatchObject({ requestsPerSecond: 10, replicas: 3, gpus: 24 });
    expect(load.utilization).toBeCloseTo(0.8, 12);
    expect(load.firstTokenSeconds).toBeCloseTo(0.2 + load.queueSeconds, 12);
  });

  it('12.5 requests/s is exactly 3 replicas\' capacity: a fourth, since a queue at 100 % never drains', () => {
    expect(servingLoad(point, 12.5)!.replicas).toBe(4);
  });

  it('a first-token bound counts the wait: the fewest replicas whose wait fits in what the prefill leaves', () => {
    const loose = servingLoad(point, 12, 10)!;
    const tight = servingLoad(point, 12, 0.21)!;
    expect(tight.replicas).toBeGreaterThan(loose.replicas);
    expect(tight.firstTokenSeconds).toBeLessThanOrEqual(0.21);
    // One replica fewer would wait past the bound.
    expect(0.2 + admissionWaitSeconds(64, 12 / (tight.replicas - 1), 15.36)).toBeGreaterThan(0.21);
  });

  it('a first token already at or past the bound: no count of replicas serves it', () => {
    expect(servingLoad(point, 1, 0.2)).toBeUndefined();
    expect(servingLoad(point, 1, 0.1)).toBeUndefined();
  });
});

describe('planInference with a request rate (Llama 2 70B on H100, 2,048 + 512 tokens, continuous)', () => {
  const search = { promptTokens: 2048, outputTokens: 512, batching: 'continuous' as const, maxDecodeSecondsPerToken: 0.05 };

  it('every point carries its load, and the best needs the fewest GPUs of those meeting the bounds', () => {
    const plan = planInference(base, { ...search, requestsPerSecond: 20, maxPrefillSeconds: 2 });
    expect(plan.points.every((p) => p.load !== undefined)).toBe(true);
    const meeting = plan.points.filter((p) => p.decodeStepSeconds <= 0.05 && p.load!.firstTokenSeconds <= 2);
    expect(meeting.length).toBeGreaterThan(1);
    expect(plan.best!.load!.gpus).toBe(Math.min(...meeting.map((p) => p.load!.gpus)));
    // Each replica finishes batch / (512 × iteration) requests a second: enough of them for 20 ...
    const best = plan.best!;
    const hold = 512 * best.decodeStepSeconds;
    expect((best.load!.replicas * best.shape.batch) / hold).toBeGreaterThan(20);
    // ... and one replica fewer either cannot keep up or keeps the first token waiting past the 2 s bound.
    const fewer = best.load!.replicas - 1;
    const keepsUp = (fewer * best.shape.batch) / hold > 20;
    if (keepsUp) expect(best.prefillSeconds + admissionWaitSeconds(best.shape.batch, 20 / fewer, hold)).toBeGreaterThan(2);
  });

  it('on too few GPUs no plan meets the rate, and the closest says how many it needs', () => {
    const plan = planInference(base, { ...search, requestsPerSecond: 200, gpus: 16 });
    expect(plan.best).toBeUndefined();
    expect(plan.closest?.why).toMatch(/; 200 requests\/s need [\d,]+ replicas of it \([\d,]+ GPUs\), 16 given$/);
  });

  it('without a rate nothing carries a load', () => {
    expect(planInference(base, search).points.some((p) => p.load !== undefined)).toBe(false);
  });
});
