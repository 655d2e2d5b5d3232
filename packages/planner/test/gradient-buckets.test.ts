import { describe, expect, it } from 'vitest';
import { dataParallelComm, estimatePlan, exposedBucketParameters, parallelGroups, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { collectiveCost } from '@trainplan/collectives';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

function ok(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  if (!e.ok) throw new Error(`expected a feasible plan: ${e.message}`);
  return e;
}

describe('the gradient bucket left exposed by overlapped data-parallel reduction (Megatron-Core DDP)', () => {
  it.each([
    // d = 16: the default bucket is max(40M, 16M) = 40M; GPT-3's word embedding on stage 0 is 51200 · 12288 / 8 = 78,643,200.
    [16, [1e10, 1e10, 1e10], [78_643_200, 40_000_000, 40_000_000]],
    // d = 48: max(40M, 48M) = 48M.
    [48, [1e10, 1e10], [78_643_200, 48_000_000]],
    // A stage smaller than a bucket is one bucket.
    [16, [30_000_000, 25_000_000], [30_000_000, 25_000_000]],
  ])('data-parallel size %i, stages of %j parameters → %j', (data, stages, expected) => {
    expect(exposedBucketParameters({ ...gpt3OnSelene, data }, stages)).toEqual(expected);
  });

  it('with overlap, the exposed reduction is at least the first stage\'s embedding bucket: reduce-scatter of fp32 gradients plus all-gather of the weights', () => {
    const e = ok(llamaOnH100);
    const groups = parallelGroups(llamaOnH100);
    // Llama 3 70B, TP 4: the untied input embedding holds 128256 · 8192 / 4 = 262,668,288 parameters on stage 0.
    const n = 262_668_288;
    const tail = dataParallelComm(llamaOnH100, groups, n, e.microBatches);
    // Megatron-Core's distributed optimizer under bf16: reduce-scatter of the fp32 main gradients
    // (4 B each: accumulate_allreduce_grads_in_fp32) and all-gather of the 16-bit weights (2 B), costed
    // here on their own with NCCL's model over the data-parallel group.
    const cost = (op: 'reduce-scatter' | 'all-gather', bytes: number) =>
      collectiveCost({ op, bytes, group: groups.data, fabric: llamaOnH100.fabric, algorithm: 'auto' }).seconds;
    expect(tail).toBeCloseTo(cost('reduce-scatter', 4 * n) + cost('all-gather', 2 * n), 12);
    expect(e.breakdown.dataParallelCommSeconds).toBeGreaterThanOrEqual(tail);
  });

  it('without overlap nothing changes: the whole reduction is exposed', () => {
    const e = ok({ ...llamaOnH100, overlapGradReduce: false });
    expect(e.breakdown.dataParallelCommSeconds).toBe(e.breakdown.dataParallelCommTotalSeconds);
  });

  it('overlap never exposes more than the whole reduction', () => {
    const e = ok(llamaOnH100);
    expect(e.breakdown.dataParallelCommSeconds).toBeLessThanOrEqual(e.breakdown.dataParallelCommTotalSeconds);
  });
});

describe('ZeRO-2 and ZeRO-3 reduce every micro-batch, each reduction behind that micro-batch\'s own passes', () => {
  // Llama 3 70B, TP 4 · CP 2 · DP 8 without a pipeline (ZeRO-2 and 3 run with none: check-plan.ts), 8 micro-batches of
  // 2 × 8,192 tokens under full recompute: each micro-batch's reduction of the ~17.6 B parameters a TP rank holds over the
  // 8 nodes is shorter than its passes, so overlap hides all of it but one bucket per micro-batch (before: only one
  // micro-batch's backward was counted as cover, and ~97% stayed exposed).
  it.each(['zero-2', 'zero-3'] as const)('%s with overlap: one bucket\'s collectives per micro-batch exposed, a small part of the whole', (sharding) => {
    const input: PlanInput = { ...llamaOnH100, pipeline: 1, data: 8, microBatchSize: 2, recompute: 'full', sharding };
    const e = ok(input);
    const groups = parallelGroups(input);
    const stage0 = 262_668_288; // the untied input embedding (128256 · 8192 / 4), a bucket of its own
    // That bucket's collectives over the 128 / (2 · 8) = 8 micro-batches, as each sharding runs them: ZeRO-2 reduce-scatters
    // it 8 times and gathers the updated weights once a step (QA: not 8 times); ZeRO-3 gathers twice and reduces once, 8 times.
    const rs = collectiveCost({ op: 'reduce-scatter', bytes: 2 * stage0, group: groups.data, fabric: input.fabric, algorithm: 'auto' }).seconds;
    const ag = collectiveCost({ op: 'all-gather', bytes: 2 * stage0, group: groups.data, fabric: input.fabric, algorithm: 'auto' }).seconds;
    const bucket = sharding === 'zero-2' ? 8 * rs + ag : 8 * (2 * ag + rs);
    expect(e.microBatches).toBe(8);
    expect(dataParallelComm(input, groups, stage0, e.microBatches)).toBeCloseTo(bucket, 12);
    expect(e.breakdown.dataParallelCommSeconds).toBeCloseTo(bucket, 9);
    expect(e.breakdown.dataParallelCommSeconds).toBeLessThan(0.25 * e.breakdown.dataParallelCommTotalSeconds);
    const off = ok({ ...input, overlapGradReduce: false });
    expect(off.breakdown.dataParallelCommSeconds).toBe(off.breakdown.dataParallelCommTotalSeconds);
  });
});
