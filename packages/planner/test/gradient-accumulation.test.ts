import { stageParameters } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { COMPUTE_CALIBRATION, dataParallelComm, estimatePlan, parallelGroups, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene } from './fixtures.ts';

const ok = (input: PlanInput): PlanEstimate => {
  const e = estimatePlan(input);
  if (!e.ok) throw new Error(e.message);
  return e;
};

/** GPT-3 175B, TP 8 × PP 8 on 128 DGX A100: 12 layers on every stage, 96 micro-batches per pipeline. */
const plan: PlanInput = { ...gpt3OnSelene, precision: 'fp16' };
const a100 = COMPUTE_CALIBRATION.ampere;
const bandwidth = plan.gpu.hbmBandwidth * a100.hbmFraction;
// Parameter tensors per GPT layer: 4 linears with biases, 2 LayerNorms with biases.
const TENSORS_PER_LAYER = 12;

describe('unfused gradient accumulation (a separate add per parameter per micro-batch)', () => {
  const middle = 3; // a middle stage: transformer layers only
  const params = stageParameters({ shape: plan.model, tensorParallel: 8, layersPerStage: Array(8).fill(12) })[middle]!;

  it.each([['16-bit', 2], ['fp32', 4]] as const)('%s: every micro-batch reads the fresh 16-bit gradient and reads and writes a %i-byte buffer, on the backward pass', (mode, width) => {
    const fused = ok(plan).stages[middle]!.time;
    const unfused = ok({ ...plan, gradientAccumulation: mode }).stages[middle]!.time;
    const bytes = params * (2 + 2 * width);
    const kernels = 12 * TENSORS_PER_LAYER;
    expect(unfused.backward - fused.backward).toBeCloseTo(bytes / bandwidth + kernels * a100.kernelOverhead, 9);
    expect(unfused.forward).toBe(fused.forward);
  });

  it("'fused' (Megatron's gradient_accumulation_fusion) is the default and adds nothing", () => {
    expect(ok({ ...plan, gradientAccumulation: 'fused' }).stepTimeSeconds).toBe(ok(plan).stepTimeSeconds);
  });

  it('costs in proportion to the micro-batches of a step', () => {
    const extra = (b: number) => ok({ ...plan, globalBatchSize: b, gradientAccumulation: '16-bit' }).breakdown.computeSeconds
      - ok({ ...plan, globalBatchSize: b }).breakdown.computeSeconds;
    expect(extra(3072) / extra(1536)).toBeCloseTo(2, 9);
  });

  it('the data-parallel reduction sends the accumulation buffer: fp32 makes the gradient all-reduce twice as long', () => {
    const groups = parallelGroups(plan);
    const comm = (p: PlanInput) => dataParallelComm(p, groups, params, 96);
    // Without sharding the step's data-parallel traffic is the gradient all-reduce alone (~2.5 GB here: bandwidth-bound).
    const allReduce16 = comm({ ...plan, gradientAccumulation: '16-bit' });
    const allReduce32 = comm({ ...plan, gradientAccumulation: 'fp32' });
    expect(allReduce32 / allReduce16).toBeCloseTo(2, 2);
    // ZeRO-1 reduce-scatters the gradients (half an all-reduce's traffic) and all-gathers the 16-bit weights.
    const zero1: PlanInput = { ...plan, sharding: 'zero-1' };
    const extra = comm({ ...zero1, gradientAccumulation: 'fp32' }) - comm({ ...zero1, gradientAccumulation: '16-bit' });
    expect(extra / (allReduce32 - allReduce16)).toBeCloseTo(0.5, 2);
    // DeepSpeed ZeRO reduces 16-bit gradients by itself: '16-bit' changes nothing there.
    expect(comm({ ...zero1, gradientAccumulation: '16-bit' })).toBe(comm(zero1));
  });

  it("memory holds the buffer: DeepSpeed's BF16 optimizer keeps fp32 gradients beside the 16-bit ones (2 + 4 B/param)", () => {
    const zero1: PlanInput = { ...plan, sharding: 'zero-1' };
    const gradients = (p: PlanInput) => ok(p).stages[middle]!.memory.gradientsBytes;
    expect(gradients(zero1)).toBeCloseTo(2 * params, 0);
    expect(gradients({ ...zero1, gradientAccumulation: 'fp32' })).toBeCloseTo(6 * params, 0);
    // Megatron's hook frees each 16-bit gradient once added: the buffer alone.
    expect(gradients({ ...plan, gradientAccumulation: '16-bit' })).toBeCloseTo(2 * params, 0);
    // Fused, Megatron's main_grad buffer takes the parameters' width under fp16 and fp32 under bf16.
    expect(gradients(plan)).toBeCloseTo(2 * params, 0);
    expect(gradients({ ...plan, precision: 'bf16' })).toBeCloseTo(4 * params, 0);
  });

  it('a 16-bit gradient buffer is copied to fp32 for the optimizer step: the peak is the larger of the passes and the step', () => {
    const stage = (p: PlanInput) => ok(p).stages[0]!.memory;
    const states = (m: ReturnType<typeof stage>) => m.weightsBytes + m.gradientsBytes + m.optimizerBytes;
    // GPT-3 on TP 8 × PP 8 without recompute holds far more activations than the 4 B/param copy: the passes set the peak.
    const heavyPlan: PlanInput = { ...plan, recompute: 'selective', sequenceParallel: true, microBatchSize: 2, data: 16, globalBatchSize: 1536 };
    const first = stageParameters({ shape: plan.model, tensorParallel: 8, layersPerStage: Array(8).fill(12) })[0]!;
    const heavy = stage(heavyPlan);
    expect(heavy.activationsBytes).toBeGreaterThan(4 * first);
    expect(heavy.otherBytes).toBeCloseTo(stage({ ...heavyPlan, precision: 'bf16' }).otherBytes, 0);
    // A 2-layer model, one 256-token sequence per GPU (TP 8 · DP 128): the copy outweighs the activations.
    const light: PlanInput = { ...plan, model: { ...plan.model, layers: 2 }, pipeline: 1, data: 128, globalBatchSize: 128, seqLength: 256 };
    const n = stageParameters({ shape: light.model, tensorParallel: 8, layersPerStage: [2] })[0]!;
    const fp16 = stage(light);
    const bf16 = stage({ ...light, precision: 'bf16' }); // fp32 main gradients: nothing to copy
    const reserve = bf16.otherBytes - 0.1 * bf16.activationsBytes;
    expect(4 * n).toBeGreaterThan(1.1 * fp16.activationsBytes);
    // Each part is rounded up to a whole byte (plan-memory.ts), and `reserve` comes from another plan's rounded parts: the
    // identity holds to the rounding, 1 byte a part in the two figures subtracted, not to half a byte.
    expect(Math.abs(fp16.totalBytes - states(fp16) - reserve - 4 * n)).toBeLessThanOrEqual(2);
    expect(fp16.totalBytes).toBeCloseTo(fp16.weightsBytes + fp16.gradientsBytes + fp16.optimizerBytes + fp16.activationsBytes + fp16.otherBytes, 0);
  });
});

describe('ZeRO-1 data-parallel traffic (Rajbhandari et al. 2020, §7.2.1)', () => {
  it('moves what plain data parallelism moves, 2Ψ: a reduce-scatter of the gradients and an all-gather of the weights', () => {
    const fp16: PlanInput = { ...gpt3OnSelene, precision: 'fp16' };
    const groups = parallelGroups(fp16);
    const params = 2e9;
    const plain = dataParallelComm(fp16, groups, params, 96);
    const zero1 = dataParallelComm({ ...fp16, sharding: 'zero-1' }, groups, params, 96);
    // Bandwidth-bound (4 GB of 16-bit gradients): the two halves take what one all-reduce takes, within NCCL's latencies.
    expect(zero1 / plain).toBeGreaterThan(0.95);
    expect(zero1 / plain).toBeLessThan(1.05);
    // With one micro-batch ZeRO-2 moves what ZeRO-1 moves.
    expect(dataParallelComm({ ...fp16, sharding: 'zero-2' }, groups, params, 1)).toBe(dataParallelComm({ ...fp16, sharding: 'zero-1' }, groups, params, 1));
  });
  it('ZeRO-2 reduces the gradients after every micro-batch\'s backward (it keeps only its partition: deepspeedai/DeepSpeed#2252), gathers the weights once', () => {
    const fp16: PlanInput = { ...gpt3OnSelene, precision: 'fp16' };
    const groups = parallelGroups(fp16);
    const params = 2e9;
    const zero2 = (m: number) => dataParallelComm({ ...fp16, sharding: 'zero-2' }, groups, params, m);
    const zero1 = dataParallelComm({ ...fp16, sharding: 'zero-1' }, groups, params, 96);
    // Each further micro-batch adds one reduce-scatter, about half of ZeRO-1's whole traffic.
    expect(zero2(96) - zero2(95)).toBeCloseTo(zero2(2) - zero2(1), 9);
    expect((zero2(2) - zero2(1)) / zero1).toBeGreaterThan(0.45);
    expect((zero2(2) - zero2(1)) / zero1).toBeLessThan(0.55);
    expect(zero2(96)).toBeGreaterThan(40 * zero1);
  });
});
