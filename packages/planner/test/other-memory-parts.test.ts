/**
 * memory.otherParts: what "other" holds, each a separate, named term (model reference §3: "Allocator fragmentation and
 * communication buffers are real: report them as a separate, named term"), in whole bytes that add up to otherBytes.
 * Each part is checked against its definition (plan-memory.ts OtherMemoryParts), over random plans of every sharding,
 * recompute mode and precision.
 */
import { gpuById } from '@trainplan/hardware';
import { parameterBreakdown, stageParameters, withShapeDefaults } from '@trainplan/model';
import { GiB } from '@trainplan/units';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimatePlan, FRAGMENTATION, heldGradientBytes, optimizerGradientCopyBytes, TRAINING_RUNTIME_RESERVE, weightReplicas,
  type PlanEstimate, type PlanInput,
} from '../src/index.ts';
import { gpt3OnSelene, h100Fabric } from './fixtures.ts';

const models = {
  // GPT-3 175B and 1.3B (Brown et al. 2020, Table 2.1): the small one on few GPUs with short sequences lets the optimizer
  // step's fp32 copy outgrow the activations and, under ZeRO-3, the gathered layer.
  '175b': gpt3OnSelene.model,
  '1.3b': withShapeDefaults({ name: 'gpt3-1.3b', layers: 24, hiddenSize: 2048, attentionHeads: 16, vocabSize: 51200, seqLength: 2048 }),
};

const plans = fc.record({
  model: fc.constantFrom('175b', '1.3b' as const),
  gpus: fc.constantFrom(8, 64, 512),
  tensor: fc.constantFrom(1, 2, 8),
  pipeline: fc.constantFrom(1, 2, 4),
  micro: fc.constantFrom(1, 2),
  seqLength: fc.constantFrom(128, 2048),
  batchPerReplica: fc.constantFrom(1, 4),
  recompute: fc.constantFrom('none', 'selective', 'full' as const),
  recomputeLayers: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  sequenceParallel: fc.boolean(),
  sharding: fc.constantFrom('none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3' as const),
  precision: fc.constantFrom('bf16', 'fp16', 'fp8' as const),
  fp8Params: fc.boolean(),
  gradientAccumulation: fc.constantFrom('fused', 'fused-16-bit', '16-bit', 'fp32' as const),
  schedule: fc.constantFrom('1f1b', 'gpipe' as const),
});
type Plan = typeof plans extends fc.Arbitrary<infer T> ? T : never;

function planFor(p: Plan): PlanInput | undefined {
  const data = p.gpus / (p.tensor * p.pipeline);
  if (!Number.isInteger(data)) return undefined;
  return {
    ...gpt3OnSelene,
    model: models[p.model],
    gpu: gpuById('h100-sxm')!,
    fabric: h100Fabric,
    nodes: p.gpus / 8,
    tensor: p.tensor, pipeline: p.pipeline, data, microBatchSize: p.micro, seqLength: p.seqLength,
    globalBatchSize: p.micro * data * p.batchPerReplica,
    recompute: p.recompute, recomputeLayers: p.recompute === 'full' ? p.recomputeLayers : undefined,
    sequenceParallel: p.sequenceParallel && p.tensor > 1, sharding: p.sharding, precision: p.precision,
    fp8Params: p.precision === 'fp8' ? p.fp8Params : undefined, gradientAccumulation: p.gradientAccumulation, schedule: p.schedule,
  };
}

/** The estimate of a plan, fitting or not; undefined where the plan is refused (indivisible, invalid). */
function estimateOf(input: PlanInput): PlanEstimate | undefined {
  const e = estimatePlan(input);
  return e.ok ? e : e.estimate;
}

/**
 * ZeRO-3's unit by its definition (Rajbhandari et al. 2020 §5.3): the stage's largest unit, a transformer layer, or the
 * word embedding (with the position embedding) on the first stage and the output layer on the last, split t ways, held
 * whole in 16-bit weights (none gathered with one replica) and the held gradient.
 */
function zero3Unit(input: PlanInput, stage: number): number {
  const parts = parameterBreakdown(input.model);
  const t = input.tensor;
  const layer = parts.perLayerTensorParallel / t + parts.perLayerReplicated;
  const first = parts.wordEmbedding / t + parts.positionEmbedding;
  const last = (input.model.tiedEmbeddings ? parts.wordEmbedding : parts.outputLayer) / t;
  const largest = Math.max(layer, stage === 0 ? first : 0, stage === input.pipeline - 1 ? last : 0);
  return ((weightReplicas(input) > 1 ? 2 : 0) + heldGradientBytes(input)) * largest;
}

describe('memory.otherParts over random plans', () => {
  it('are whole bytes that add up to otherBytes exactly, each as defined, on every stage', () => {
    const seen = { plans: 0, zero3: 0, step: 0, zero3AndStep: 0, fp8: 0 };
    fc.assert(fc.property(plans, (p) => {
      const input = planFor(p);
      const est = input === undefined ? undefined : estimateOf(input);
      if (input === undefined || est === undefined) return;
      seen.plans += 1;
      if (p.precision === 'fp8') seen.fp8 += 1;
      const params = stageParameters({ shape: input.model, tensorParallel: input.tensor, layersPerStage: est.stages.map((s) => s.layers) });
      for (const [stage, { memory: m }] of est.stages.entries()) {
        const o = m.otherParts;
        const parts = [o.runtimeReserveBytes, o.fragmentationBytes, o.zero3GatheredBytes, o.optimizerStepBytes];
        expect(parts.every((x) => Number.isInteger(x) && x >= 0), JSON.stringify(o)).toBe(true);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(m.otherBytes);
        expect(o.runtimeReserveBytes).toBe(TRAINING_RUNTIME_RESERVE);
        expect(o.fragmentationBytes).toBe(Math.ceil(FRAGMENTATION * m.activationsBytes));
        expect(o.zero3GatheredBytes).toBe(input.sharding === 'zero-3' ? zero3Unit(input, stage) : 0);
        // The step's fp32 copy and the forward/backward peak never meet: the step's part is what the copy needs beyond it.
        const copy = Math.ceil(optimizerGradientCopyBytes(input, params[stage]!, weightReplicas(input)));
        expect(o.optimizerStepBytes).toBe(Math.max(0, copy - m.activationsBytes - o.fragmentationBytes - o.zero3GatheredBytes));
        if (m.activationsBytes >= copy) expect(o.optimizerStepBytes).toBe(0);
        if (o.zero3GatheredBytes > 0) seen.zero3 += 1;
        if (o.optimizerStepBytes > 0) seen.step += 1;
        if (o.zero3GatheredBytes > 0 && o.optimizerStepBytes > 0) seen.zero3AndStep += 1;
      }
      // The estimate's memory is its most loaded stage's, parts and all.
      expect(est.memory.otherParts).toEqual(est.stages[est.memory.stage]!.memory.otherParts);
    }), { numRuns: 600, seed: 20_240_611 });
    // The runs reached each case: ZeRO-3's unit, a step part, the two together, FP8.
    expect(seen.plans).toBeGreaterThan(300);
    for (const [name, count] of Object.entries(seen)) expect(count, name).toBeGreaterThan(0);
  });

  it('ZeRO-3 with short sequences names both the gathered unit and the step\'s copy beyond it', () => {
    // GPT-3 1.3B on one DGX H100, 128 tokens: the step casts 4·P/8 bytes (P/8 ≈ 165M elements, under the 1e9 sub-group),
    // more than the few activations and the largest unit, the 105M-parameter word embedding at 4 bytes a parameter, hold.
    const input = planFor({
      model: '1.3b', gpus: 8, tensor: 1, pipeline: 1, micro: 1, seqLength: 128, batchPerReplica: 1, recompute: 'full',
      recomputeLayers: undefined, sequenceParallel: false, sharding: 'zero-3', precision: 'bf16', fp8Params: false,
      gradientAccumulation: 'fused', schedule: '1f1b',
    })!;
    const o = estimateOf(input)!.memory.otherParts;
    expect(o.zero3GatheredBytes).toBe(zero3Unit(input, 0));
    expect(o.optimizerStepBytes).toBeGreaterThan(0);
  });

  it('GPT-3 175B on Selene (the contract example): 1.5 GiB reserve, 10% of the activations, no unit, no step part', () => {
    const est = estimateOf(gpt3OnSelene)!;
    const o = est.memory.otherParts;
    expect(o.runtimeReserveBytes).toBe(GiB(1.5));
    expect(o.fragmentationBytes / est.memory.activationsBytes).toBeCloseTo(0.1, 9);
    // Megatron without the distributed optimizer keeps fp32 main gradients: the step casts nothing (copy 0).
    expect([o.zero3GatheredBytes, o.optimizerStepBytes]).toEqual([0, 0]);
  });
});
