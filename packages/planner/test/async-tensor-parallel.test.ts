import { describe, expect, it } from 'vitest';
import {
  COMPUTE_CALIBRATION, estimatePlan, exposedTensorParallelBackward, kernelContext, layerComputeCost, parallelGroups, peak16,
  tensorParallelLayerComm, type PlanEstimate, type PlanInput,
} from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

/** The estimate, also for a plan that would not fit in memory (only time is compared here). */
function ok(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  const estimate = e.ok ? e : e.estimate;
  if (!estimate) throw new Error(`expected an estimate: ${e.ok ? '' : e.message}`);
  return estimate;
}

const layerOf = (input: PlanInput) => layerComputeCost(input, kernelContext(input, COMPUTE_CALIBRATION[input.gpu.generation]), peak16(input.gpu));

describe('asynchronous backward tensor-parallel communication (Megatron-LM --async-tensor-model-parallel-allreduce)', () => {
  // Hand-built costs: two column-parallel linears with dgrad/wgrad GEMMs of 1 and 2, then 3 and 0.5.
  const layer = { ...layerOf(gpt3OnSelene), columnParallelBackward: [{ dgrad: 1, wgrad: 2 }, { dgrad: 3, wgrad: 0.5 }] };
  const tp = { forward: 9, backward: 99, columnGather: 1.5, columnReduce: 1, rowGather: 0.25 };

  it('off: every backward collective is exposed', () => {
    expect(exposedTensorParallelBackward({ ...gpt3OnSelene, asyncTensorParallelGradComm: false }, layer, tp)).toBe(99);
    expect(exposedTensorParallelBackward(gpt3OnSelene, layer, tp)).toBe(99);
  });
  it('on: each gather hides under its dgrad, each reduction under its wgrad; only the excess and the row gathers stay', () => {
    // 0.25 (row gathers) + [max(0, 1.5 − 1) + max(0, 1 − 2)] + [max(0, 1.5 − 3) + max(0, 1 − 0.5)] = 0.25 + 0.5 + 0.5
    expect(exposedTensorParallelBackward({ ...gpt3OnSelene, asyncTensorParallelGradComm: true }, layer, tp)).toBeCloseTo(1.25, 12);
  });

  // GPT-3 175B, TP 8 × PP 8 on 8 DGX A100, micro-batch 1, no recompute: each all-reduce of b·s·h 16-bit values
  // (50 MB) is shorter than the weight-gradient GEMM it overlaps ([2048 × 12288] × [12288 × 4608] and × 6144).
  const plain: PlanInput = { ...gpt3OnSelene, recompute: 'none', nodes: 8, data: 1, globalBatchSize: 8 };
  it('without sequence parallelism, when both all-reduces fit under their wgrad GEMMs, tensor-parallel time halves (2 of 4 all-reduces)', () => {
    const layer22 = layerOf(plain);
    const comm = tensorParallelLayerComm(plain, parallelGroups(plain));
    for (const gemm of layer22.columnParallelBackward) expect(comm.columnReduce).toBeLessThan(gemm.wgrad);
    const sync = ok(plain);
    const asyncPlan = ok({ ...plain, asyncTensorParallelGradComm: true });
    expect(asyncPlan.breakdown.tensorParallelCommSeconds / sync.breakdown.tensorParallelCommSeconds).toBeCloseTo(0.5, 12);
    // 1F1B: the saving recurs in the m = 8 steady slots and the p − 1 = 7 bubble slots of equal stages.
    expect(sync.stepTimeSeconds - asyncPlan.stepTimeSeconds).toBeCloseTo(
      ((8 + 7) / 8) * (sync.breakdown.tensorParallelCommSeconds - asyncPlan.breakdown.tensorParallelCommSeconds), 12,
    );
  });
  it('with sequence parallelism, what stays is the forward plus the two row-parallel all-gathers of the backward', () => {
    const sp = { ...plain, sequenceParallel: true };
    const comm = tensorParallelLayerComm(sp, parallelGroups(sp));
    const asyncPlan = ok({ ...sp, asyncTensorParallelGradComm: true });
    // 8 micro-batches × 12 layers on the slowest stage.
    expect(asyncPlan.breakdown.tensorParallelCommSeconds).toBeCloseTo(8 * 12 * (comm.forward + comm.rowGather), 9);
  });
  it('never adds time, and leaves Transformer Engine\'s full overlap as it was', () => {
    for (const sequenceParallel of [false, true]) {
      for (const recompute of ['none', 'selective', 'full'] as const) {
        const base = { ...gpt3OnSelene, sequenceParallel, recompute };
        expect(ok({ ...base, asyncTensorParallelGradComm: true }).stepTimeSeconds).toBeLessThanOrEqual(ok(base).stepTimeSeconds);
        // Megatron runs --tp-comm-overlap only with sequence parallelism (arguments.py asserts it).
        if (!sequenceParallel) continue;
        const te = { ...base, overlapTensorParallelComm: true };
        expect(ok({ ...te, asyncTensorParallelGradComm: true }).stepTimeSeconds).toBe(ok(te).stepTimeSeconds);
      }
    }
  });
});
