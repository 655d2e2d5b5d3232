import type { InferencePointJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { spreadUsers, type PointAt, type ReplicaShape } from '../src/answer/spread-users.ts';

/**
 * Two made-up replica shapes whose latency is a straight line in the batch, so every plan can be reckoned by hand:
 * A on 1 GPU holds 100 requests and decodes a token in 10 ms + 1 ms a request; B on 2 GPUs holds 400 and takes
 * 5 ms + 0.25 ms a request. The first token takes 100 ms + 1 ms a request on both. Bounds: 50 ms a token, 2 s to the first.
 */
const A: ReplicaShape = { tensor: 1, pipeline: 1, gpus: 1, maxBatch: 100 };
const B: ReplicaShape = { tensor: 2, pipeline: 1, gpus: 2, maxBatch: 400 };
const SLOPE_MS: Readonly<Record<number, readonly [number, number]>> = { 1: [10, 1], 2: [5, 0.25] };
const BOUNDS = { maxTokenSeconds: 0.05, maxFirstTokenSeconds: 2 };

function pointOf(shape: ReplicaShape, batch: number, decodeSeconds: number): InferencePointJson {
  return {
    tensor: shape.tensor, pipeline: shape.pipeline, batch, gpus: shape.gpus, maxBatch: shape.maxBatch,
    prefillSeconds: 0.1 + batch / 1000, decodeStepSeconds: decodeSeconds, tokensPerSecondPerGpu: batch / decodeSeconds / shape.gpus,
    weightsBytesPerGpu: 0, kvCacheBytesPerGpu: 0, totalBytesPerGpu: 0, capacityBytes: 1, memoryBound: true,
  };
}

/** The shapes' estimates, as the bot's runInference at one batch gives them, with the bounds applied; `asked` counts them. */
function linear(wiggle: (shape: ReplicaShape, batch: number) => number = () => 0) {
  const asked: number[] = [];
  const at: PointAt = (shape, batch) => {
    asked.push(batch);
    const [base, slope] = SLOPE_MS[shape.tensor]!;
    const point = pointOf(shape, batch, (base + slope * batch + wiggle(shape, batch)) / 1000);
    return { point, within: point.decodeStepSeconds <= BOUNDS.maxTokenSeconds && point.prefillSeconds <= BOUNDS.maxFirstTokenSeconds };
  };
  return { at, asked };
}

describe('concurrent requests in all are spread over the fewest GPUs that keep the bounds', () => {
  it('100 requests: one B holds them all (2 GPUs at 30 ms), fewer GPUs than three As (40 a replica keep 50 ms: 10 + 40)', () => {
    const { fewest, single } = spreadUsers(100, [A, B], linear().at, undefined, BOUNDS);
    expect(fewest).toMatchObject({ users: 100, replicas: 1, batch: 100, gpus: 2 });
    // 5 + 0.25 × 100 = 30 ms.
    expect(fewest!.point.decodeStepSeconds).toBeCloseTo(0.03, 12);
    expect(single).toBe(fewest);
  });

  it('500 requests: B keeps 50 ms up to 180 (5 + 0.25 × 180), so ⌈500 / 180⌉ = 3 replicas on 6 GPUs at up to 167 each; A takes ⌈500 / 40⌉ = 13', () => {
    const { fewest, single } = spreadUsers(500, [A, B], linear().at, undefined, BOUNDS);
    expect(fewest).toMatchObject({ users: 500, replicas: 3, batch: 167, gpus: 6 });
    expect(fewest!.point.decodeStepSeconds).toBeCloseTo((5 + 0.25 * 167) / 1000, 12);
    // Neither shape holds all 500 in one replica (100 and 400 fit in memory).
    expect(single).toBeUndefined();
  });

  it('on 4 GPUs named, 500 are not held: at most 2 Bs × 180 = 360 within the bounds; all 500 come closest on 2 Bs at 250 (67.5 ms)', () => {
    const found = spreadUsers(500, [A, B], linear().at, 4, BOUNDS);
    expect(found.fewest).toBeUndefined();
    // 4 As hold 4 × 40 = 160 within the bounds, fewer than 360.
    expect(found.mostWithin).toMatchObject({ users: 360, replicas: 2, batch: 180, gpus: 4 });
    // Four As would take 125 each, past the 100 that fit: the nearest is two Bs at 250, 5 + 0.25 × 250 = 67.5 ms.
    expect(found.nearest).toMatchObject({ users: 500, replicas: 2, batch: 250, gpus: 4 });
    expect(found.nearest!.point.decodeStepSeconds).toBeCloseTo(0.0675, 12);
  });

  it('on 8 GPUs named, 300 take 2 Bs at 150 (42.5 ms, 4 GPUs); the least time per token on all 8 is 4 Bs at 75 (23.75 ms)', () => {
    const found = spreadUsers(300, [A, B], linear().at, 8, BOUNDS);
    // One B at 300: 5 + 75 = 80 ms, past the bound; 2 Bs (4 GPUs) at 150: 42.5 ms. As: ⌈300 / 40⌉ = 8 on 8 GPUs.
    expect(found.fewest).toMatchObject({ replicas: 2, batch: 150, gpus: 4 });
    // Spread widest: 8 As at 38 (48 ms) or 4 Bs at 75 (5 + 18.75 = 23.75 ms).
    expect(found.fastest).toMatchObject({ replicas: 4, batch: 75, gpus: 8 });
    expect(found.fastest!.point.decodeStepSeconds).toBeCloseTo(0.02375, 12);
  });

  it('with no GPUs named and a bound no batch keeps, the nearest is one request per replica on the fastest shape', () => {
    const tight = { maxTokenSeconds: 0.001, maxFirstTokenSeconds: 2 };
    const { at } = linear();
    const strict: PointAt = (shape, batch) => {
      const x = at(shape, batch)!;
      return { point: x.point, within: x.point.decodeStepSeconds <= tight.maxTokenSeconds };
    };
    const found = spreadUsers(50, [A, B], strict, undefined, tight);
    expect(found.fewest).toBeUndefined();
    // B at one request: 5.25 ms, A's 11 ms.
    expect(found.nearest).toMatchObject({ users: 50, replicas: 50, batch: 1, gpus: 100, point: { tensor: 2 } });
  });

  it('a wiggle that makes a smaller batch miss the bound costs a replica, never a plan that misses', () => {
    // B misses the bound at 166 alone (as an odd batch's all-reduce can cost more than the next even one's): 3 replicas
    // hold 500 as 167, 167, 166, so the 166 misses; 4 replicas hold them as 125, all within.
    const { at } = linear((shape, batch) => (shape.tensor === 2 && batch === 166 ? 20 : 0));
    const { fewest } = spreadUsers(500, [B], at, undefined, BOUNDS);
    expect(fewest).toMatchObject({ replicas: 4, batch: 125, gpus: 8 });
  });

  it('a shape that cannot beat the best plan found is not estimated at all (the branch and bound)', () => {
    // A large shape: 16 GPUs, holding 1,000. For 100 requests B's single replica (2 GPUs) is found first; the large shape
    // takes 16 at the least, so none of its batches is asked.
    const big: ReplicaShape = { tensor: 4, pipeline: 4, gpus: 16, maxBatch: 1000 };
    const { at, asked } = linear();
    const counting: PointAt = (shape, batch) => (shape === big ? (() => { throw new Error('estimated'); })() : at(shape, batch));
    expect(spreadUsers(100, [big, B], counting, undefined, BOUNDS).fewest).toMatchObject({ gpus: 2 });
    expect(asked.length).toBeGreaterThan(0);
  });
});
