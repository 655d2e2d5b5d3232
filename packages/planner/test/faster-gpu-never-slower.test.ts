import { describe, expect, it } from 'vitest';
import { fabricFromSpecs } from '@trainplan/collectives';
import { gpuById, networkById, NVLINKS, systemById, type GpuSpec } from '@trainplan/hardware';
import { withShapeDefaults } from '@trainplan/model';
import { estimatePlan, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

/**
 * A physical invariant (metamorphic QA): a GPU with twice every peak FLOP/s, everything else the same (memory bandwidth,
 * links, NICs), runs no kernel slower and so no step slower. FP8, which speeds only the GEMMs, likewise. The QA found
 * 461 of 28,800 plans slower on the faster GPU, by up to 11.7%, all with overlapGradReduce and another overlapped exchange
 * (ring attention, overlapTensorParallelComm): the data-parallel reduction was hidden behind the passes' compute alone,
 * so when compute shrank, the TP/CP time it exposed was charged again as exposed DP time.
 */

/** The step time, feasible or not (an out-of-memory plan still carries its estimate; memory is not what is tested). */
function stepSeconds(input: PlanInput): number | undefined {
  const e = estimatePlan(input);
  if (e.ok) return e.stepTimeSeconds;
  return e.estimate?.stepTimeSeconds;
}

/** The same GPU with every peak FLOP/s multiplied by `factor`; HBM bandwidth, SMs and links untouched. */
function withScaledPeaks(gpu: GpuSpec, factor: number): GpuSpec {
  const peakFlops: Partial<Record<keyof GpuSpec['peakFlops'], number>> = {};
  for (const [precision, flops] of Object.entries(gpu.peakFlops) as [keyof GpuSpec['peakFlops'], number][]) peakFlops[precision] = flops * factor;
  return { ...gpu, peakFlops };
}

/**
 * Rounding only, not a tolerance on the model: where the step is the whole DP reduction (it outlasts every window), it is
 * summed as window + (reduction − window) on both GPUs, which can differ from each other in the last bits.
 */
const ROUNDING = 1e-12;

const h200 = gpuById('h200')!;
const h200Fabric = fabricFromSpecs({ gpu: h200, system: systemById('dgx-h200')!, network: networkById('ndr-ib-8x')!, nvlink: NVLINKS.nvlink4 });

/** The QA's repro: Llama 2 7B on 16 DGX H200, TP 8 with SP and TP overlap, DP 16, ZeRO-3, overlapGradReduce, selective recompute. */
const llama2OnH200: PlanInput = {
  ...gpt3OnSelene,
  model: withShapeDefaults({
    name: 'llama2-7b', layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 32, ffnHiddenSize: 11008,
    vocabSize: 32000, seqLength: 4096, gatedMlp: true, tiedEmbeddings: false, positionEmbedding: 'rotary',
    linearBias: false, normalization: 'rmsnorm',
  }),
  gpu: h200,
  fabric: h200Fabric,
  nodes: 16,
  globalBatchSize: 128,
  seqLength: 4096,
  dropout: false,
  tensor: 8,
  pipeline: 1,
  data: 16,
  sequenceParallel: true,
  recompute: 'selective',
  sharding: 'zero-3',
  overlapGradReduce: true,
  overlapTensorParallelComm: true,
};

describe('the QA repro: Llama 2 7B, ZeRO-3, overlapGradReduce and TP overlap on 128 H200', () => {
  it('FP8 is not slower than BF16', () => {
    const bf16 = stepSeconds(llama2OnH200)!;
    const fp8 = stepSeconds({ ...llama2OnH200, precision: 'fp8' })!;
    expect(fp8).toBeLessThanOrEqual(bf16 * (1 + ROUNDING));
  });

  it('twice the peak FLOP/s is not slower', () => {
    const base = stepSeconds(llama2OnH200)!;
    const faster = stepSeconds({ ...llama2OnH200, gpu: withScaledPeaks(h200, 2) })!;
    expect(faster).toBeLessThanOrEqual(base * (1 + ROUNDING));
  });

  it('the overlapped DP reduction hides behind the passes\' wall-clock time: compute + exposed TP + exposed DP is the whole reduction, the TP time not counted twice', () => {
    // ZeRO-3 runs each micro-batch's gathers and reduce-scatter behind that micro-batch's forward and backward, whose
    // wall-clock time is its compute plus its exposed TP time (no pipeline, no CP here): so the passes and the DP exposure
    // together last at least the whole reduction, as the reduction cannot finish before it has run.
    const e = estimatePlan(llama2OnH200);
    if (!e.ok) throw new Error(e.message);
    const b = e.breakdown;
    const passes = b.computeSeconds + b.tensorParallelCommSeconds;
    expect(passes + b.dataParallelCommSeconds).toBeGreaterThanOrEqual(b.dataParallelCommTotalSeconds * (1 - ROUNDING));
    // The reduction (0.795 s) outlasts the 8 micro-batches' passes (0.474 s) by more than the last 40M-parameter bucket's
    // collectives (8 × 40M / 842M of it, 0.04 s), so the passes and its exposure are exactly the reduction. Before the fix the
    // window was compute alone: 0.4677 + 0.0064 + 0.3448 = 0.8189 s, the exposed TP time counted twice.
    expect(passes + b.dataParallelCommSeconds).toBeCloseTo(b.dataParallelCommTotalSeconds, 9);
  });
});

/** The grid: each base plan under every sharding, TP overlap and recompute it admits, with and without ring attention. */
function grid(): { name: string; input: PlanInput }[] {
  const bases: { name: string; input: PlanInput }[] = [
    { name: 'Llama 2 7B on 128 H200, TP 8, DP 16', input: llama2OnH200 },
    { name: 'Llama 2 7B on 64 H200, TP 4, PP 1, DP 16', input: { ...llama2OnH200, nodes: 8, tensor: 4 } },
    { name: 'Llama 3 70B on 64 H100, TP 4, PP 4, CP 2, DP 2', input: llamaOnH100 },
    { name: 'Llama 3 70B on 64 H100, TP 4, PP 1, CP 2, DP 8', input: { ...llamaOnH100, pipeline: 1, data: 8 } },
    { name: 'GPT-3 175B on 1024 A100, TP 8, PP 8, DP 16', input: { ...gpt3OnSelene, sequenceParallel: true } },
  ];
  const out: { name: string; input: PlanInput }[] = [];
  for (const base of bases) {
    for (const sharding of ['none', 'zero-1', 'distributed-optimizer', 'zero-2', 'zero-3'] as const) {
      for (const overlapTensorParallelComm of [false, true]) {
        for (const context of [1, 2]) {
          for (const recompute of ['selective', 'full'] as const) {
            for (const overlapGradReduce of [true, false]) {
              // Ring attention on the plans that hold a context group: the others' GPUs are all in TP × PP × DP, so CP 2 halves DP.
              const data = base.input.data * base.input.context / context;
              if (!Number.isInteger(data) || data < 1) continue;
              const input: PlanInput = { ...base.input, sharding, overlapTensorParallelComm, context, data, recompute, overlapGradReduce };
              const e = estimatePlan(input);
              if (!e.ok && e.reason !== 'out-of-memory') continue; // ZeRO-2/3 with a pipeline, refused by checkPlan
              out.push({ name: `${base.name}: ${sharding}, CP ${context}, ${recompute} recompute, TP overlap ${overlapTensorParallelComm}, grad overlap ${overlapGradReduce}`, input });
            }
          }
        }
      }
    }
  }
  return out;
}

describe('a GPU with twice every peak FLOP/s never lengthens a step', () => {
  const plans = grid();

  it('the grid covers ZeRO-1/2/3, the distributed optimizer, ring attention and TP overlap with the overlapped reduction', () => {
    const overlapped = plans.filter((p) => p.input.overlapGradReduce);
    for (const sharding of ['zero-1', 'zero-2', 'zero-3', 'distributed-optimizer'] as const) {
      expect(overlapped.some((p) => p.input.sharding === sharding && p.input.context > 1)).toBe(true);
      expect(overlapped.some((p) => p.input.sharding === sharding && p.input.overlapTensorParallelComm)).toBe(true);
    }
  });

  it.each(plans.map((p) => [p.name, p.input] as const))('%s', (_name, input) => {
    const base = stepSeconds(input)!;
    const faster = stepSeconds({ ...input, gpu: withScaledPeaks(input.gpu, 2) })!;
    expect(faster).toBeLessThanOrEqual(base * (1 + ROUNDING));
  });
});
