import { stageParameters, withShapeDefaults } from '@trainplan/model';
import { GiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import {
  dataParallelComm, estimatePlan, fusedAccumulation, gpuIssues, parallelGroups, weightReplicas, type PlanEstimate, type PlanInput,
} from '../src/index.ts';
import { heldGradientBytes, optimizerGradientCopyBytes, reducedGradientBytes } from '../src/gradient-accumulation.ts';
import { gpt3OnSelene, h100Fabric, llamaOnH100 } from './fixtures.ts';

/**
 * 'fused-16-bit': the weight-gradient GEMM accumulates into a 16-bit main-gradient buffer (Megatron-Core
 * DistributedDataParallelConfig.grad_reduce_in_fp32 = False, --grad-reduce-in-bf16; NeMo's performance recipes), where
 * 'fused' accumulates into Megatron's fp32 buffer under bf16 and fp8.
 */
const estimate = (input: PlanInput): PlanEstimate => {
  const e = estimatePlan(input);
  if (e.ok) return e;
  if (e.reason === 'out-of-memory' && e.estimate !== undefined) return e.estimate;
  throw new Error(e.message);
};

/** GPT-3 175B, TP 8 × PP 8 on 128 DGX A100 under bf16: 12 layers a stage, no sharding. */
const bf16: PlanInput = { ...gpt3OnSelene, precision: 'bf16' };
const fused16: PlanInput = { ...bf16, gradientAccumulation: 'fused-16-bit' };
const middle = 3;
const params = stageParameters({ shape: bf16.model, tensorParallel: 8, layersPerStage: Array(8).fill(12) })[middle]!;

describe("'fused-16-bit' gradient accumulation", () => {
  it('is fused: the default and fused-16-bit skip the separate add, 16-bit and fp32 do not', () => {
    expect([undefined, 'fused', 'fused-16-bit', '16-bit', 'fp32'].map((m) => fusedAccumulation(m as PlanInput['gradientAccumulation'])))
      .toEqual([true, true, true, false, false]);
  });

  it('holds 2 bytes of gradient a parameter under bf16 and fp8, where fused holds fp32 main gradients (4)', () => {
    for (const precision of ['bf16', 'fp8'] as const) {
      expect(heldGradientBytes({ ...fused16, precision })).toBe(2);
      expect(heldGradientBytes({ ...bf16, precision })).toBe(4);
    }
    expect(estimate(fused16).stages[middle]!.memory.gradientsBytes).toBeCloseTo(2 * params, 0);
    expect(estimate(bf16).stages[middle]!.memory.gradientsBytes).toBeCloseTo(4 * params, 0);
  });

  it('the data-parallel reduction sends half the bytes of fused under bf16: the all-reduce of an unfused 16-bit add', () => {
    expect(reducedGradientBytes(fused16)).toBe(2);
    expect(reducedGradientBytes(bf16)).toBe(4);
    const groups = parallelGroups(bf16);
    const comm = (p: PlanInput) => dataParallelComm(p, groups, params, 96);
    expect(comm(fused16)).toBe(comm({ ...bf16, gradientAccumulation: '16-bit' }));
    expect(comm(bf16)).toBe(comm({ ...bf16, gradientAccumulation: 'fp32' }));
    // About 2.5 GB of 16-bit gradients against 5 GB of fp32 ones: bandwidth-bound, so twice the time within NCCL's latencies.
    expect(comm(bf16) / comm(fused16)).toBeCloseTo(2, 2);
  });

  it('adds no accumulation pass: every stage computes in the time fused does', () => {
    const a = estimate(fused16).stages;
    const b = estimate(bf16).stages;
    expect(a.map((s) => [s.time.forward, s.time.backward])).toEqual(b.map((s) => [s.time.forward, s.time.backward]));
    // An unfused 16-bit add, for contrast, lengthens the backward pass.
    expect(estimate({ ...bf16, gradientAccumulation: '16-bit' }).stages[middle]!.time.backward).toBeGreaterThan(b[middle]!.time.backward);
  });

  it("the optimizer step builds fp32 gradients from the 16-bit ones, as for fp16's buffer: 4 bytes a parameter it updates", () => {
    const sharded: PlanInput = { ...llamaOnH100, gradientAccumulation: 'fused-16-bit' };
    const replicas = weightReplicas(sharded);
    expect(optimizerGradientCopyBytes(sharded, 1000, replicas)).toBe((4 * 1000) / replicas);
    expect(optimizerGradientCopyBytes(llamaOnH100, 1000, replicas)).toBe(0);
  });

  it("under fp16 the fused buffer is 16-bit already: 'fused-16-bit' is 'fused'", () => {
    const fp16: PlanInput = { ...gpt3OnSelene, precision: 'fp16' };
    expect(estimate({ ...fp16, gradientAccumulation: 'fused-16-bit' })).toEqual(estimate(fp16));
  });
});

/**
 * Nemotron-4 340B on 128 DGX H100 at FP8 with FP8 weights, TP 8 · PP 8 · VP 12, sequence parallel, the distributed
 * optimizer, micro-batch 1 and global batch 32: NVIDIA's NeMo 24.07 performance table ran it (322 tokens/s/GPU), so it fits
 * in 80 GB. The plan as test/validation's nvidia-perf-summary.ts builds it (the dgxc-24.11 profile, NeMo's defaults).
 */
const nemotron340b: PlanInput = {
  ...llamaOnH100,
  model: withShapeDefaults({
    name: 'Nemotron-4 340B', layers: 96, hiddenSize: 18432, attentionHeads: 96, kvHeads: 8, ffnHiddenSize: 73728,
    vocabSize: 256000, seqLength: 4096, tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false,
  }),
  fabric: h100Fabric,
  nodes: 16,
  globalBatchSize: 32,
  microBatchSize: 1,
  seqLength: 4096,
  precision: 'fp8',
  fp8Params: true,
  dropout: false,
  tensor: 8,
  pipeline: 8,
  data: 2,
  context: 1,
  virtualStages: 12,
  schedule: 'interleaved',
  sequenceParallel: true,
  recompute: 'none',
  sharding: 'distributed-optimizer',
  attentionKernel: 'flash',
  crossEntropyKernel: 'fused',
  overlapGradReduce: true,
  overlapTensorParallelComm: true,
  overlapPipelineComm: true,
};

describe('Nemotron-4 340B on 128 H100 (NeMo 24.07), which NVIDIA ran', () => {
  it('is out of memory with fp32 main gradients and fits with the 16-bit ones its recipe reduces in', () => {
    expect(gpuIssues(nemotron340b)).toEqual([]);
    const fp32 = estimatePlan(nemotron340b);
    const sixteen = estimatePlan({ ...nemotron340b, gradientAccumulation: 'fused-16-bit' });
    expect(fp32.ok).toBe(false);
    expect(!fp32.ok && fp32.reason).toBe('out-of-memory');
    expect(sixteen.ok && sixteen.memory.fits).toBe(true);
    const before = estimate(nemotron340b).memory;
    const after = estimate({ ...nemotron340b, gradientAccumulation: 'fused-16-bit' }).memory;
    expect(after.stage).toBe(before.stage);
    // The most loaded stage's parameters (12 layers a stage; the first holds the word embedding, the last the output layer):
    // 4 bytes each of fp32 main gradient (about 21.5 GiB), then 2.
    const n = stageParameters({ shape: nemotron340b.model, tensorParallel: 8, layersPerStage: Array(8).fill(12) })[before.stage]!;
    expect(before.gradientsBytes).toBe(Math.ceil(4 * n));
    expect(after.gradientsBytes).toBe(Math.ceil(2 * n));
    expect(before.gradientsBytes).toBeGreaterThan(GiB(20));
    // Only the gradients change: the optimizer step's fp32 copy (4 B a parameter over DP 2) is smaller than the
    // activations freed before it, so it adds nothing to the peak.
    expect(before.totalBytes - after.totalBytes).toBe(before.gradientsBytes - after.gradientsBytes);
    expect(before.totalBytes).toBeGreaterThan(before.capacityBytes);
    expect(after.totalBytes).toBeLessThan(after.capacityBytes);
  });
});
