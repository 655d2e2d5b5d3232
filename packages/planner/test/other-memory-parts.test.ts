/**
 * memory.otherParts: what "other" holds, each a separate, named term (model reference §3: "Allocator fragmentation and
 * communication buffers are real: report them as a separate, named term"), in whole bytes that add up to otherBytes.
 * Each part is checked against figures derived here from the model's shape and the frameworks' buffers (not from the
 * planner's helpers), over random plans of every sharding, recompute mode and precision, and by relations between plans.
 */
import { gpuById } from '@trainplan/hardware';
import { withShapeDefaults, type ModelShape } from '@trainplan/model';
import { billion, GiB } from '@trainplan/units';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimatePlan, type PlanEstimate, type PlanInput } from '../src/index.ts';
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
/** A plan with any counts, not only those the generator draws (the relations below vary them). */
type AnyPlan = { [K in keyof Plan]: Plan[K] extends number ? number : Plan[K] };

function planFor(p: AnyPlan): PlanInput | undefined {
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

/** The two models here are GPT-shaped (withShapeDefaults: f = 4h, a_kv = a, biases, LayerNorm, tied, learned positions). */
const gpt = (shape: ModelShape) => {
  const { hiddenSize: h, vocabSize: V, seqLength: s } = shape;
  return {
    /**
     * One layer's parameters on one of t tensor-parallel ranks. A GPT layer is 12h² + 13h (Narayanan et al. SC'21 eq. 2):
     * QKV 3h² + 3h, attention out h² + h, MLP 4h² + 4h and 4h² + h, two LayerNorms 2·2h. Megatron splits the matrices and
     * the column-parallel biases (QKV's 3h, fc1's 4h) t ways and keeps the row-parallel biases (h, h) and the norms (4h)
     * whole on every rank (Shoeybi et al. 2019 §3): (12h² + 7h)/t + 6h.
     */
    layer: (t: number) => (12 * h * h + 7 * h) / t + 6 * h,
    /** The vocabulary-parallel word embedding V·h/t (Shoeybi et al. §3), and the learned positions s·h, not split. */
    wordEmbedding: (t: number) => (V * h) / t,
    positions: s * h,
    /** The final LayerNorm, 2h. */
    finalNorm: 2 * h,
  };
};

/**
 * Parameters one GPU of stage i holds: its layers; the first stage the word and position embeddings; the last the final
 * norm and, tied and p > 1, its own copy of the word embedding for the output layer (Megatron keeps it on the last stage
 * and all-reduces its gradient with the first: Narayanan et al. SC'21 §3, model reference §1).
 */
function stageParams(input: PlanInput, layers: number, stage: number): number {
  const g = gpt(input.model);
  const t = input.tensor;
  let n = layers * g.layer(t);
  if (stage === 0) n += g.wordEmbedding(t) + g.positions;
  if (stage === input.pipeline - 1) n += g.finalNorm + (input.pipeline > 1 ? g.wordEmbedding(t) : 0);
  return n;
}

/**
 * ZeRO-3's gathered unit (Rajbhandari et al. 2020 §5.3: a unit's parameters are gathered before it runs and discarded
 * after; its gradient is whole until reduce-scattered into the partition): at the first backward the stage's largest unit
 * is live in full. Parameters of that unit: a layer, or on the first stage the embedding with the positions, on the last
 * the output layer (the tied word embedding's copy; one stage that is both takes the larger). Bytes per parameter, one
 * 16-bit buffer each: the gathered weights, 2 B, but only with more than one rank (DeepSpeed partition_parameters.py
 * all_gather_coalesced: "if self.num_partitions == 1: return _no_gather_coalesced(params)", the partition used in place);
 * the fresh 16-bit gradient, 2 B; and, where gradients accumulate unfused in fp32, DeepSpeed's fp32 buffer beside it, 4 B
 * (its BF16 optimizer keeps both: engine._bf16_reduce_grads reduces the fp32 one).
 */
function zero3Unit(input: PlanInput, stage: number): number {
  const g = gpt(input.model);
  const t = input.tensor;
  const first = stage === 0 ? g.wordEmbedding(t) + g.positions : 0;
  const last = stage === input.pipeline - 1 ? g.wordEmbedding(t) : 0;
  const largest = Math.max(g.layer(t), first, last);
  const replicas = input.data * input.context;
  const bytesPerParam = (replicas > 1 ? 2 : 0) + 2 + (input.gradientAccumulation === 'fp32' ? 4 : 0);
  return bytesPerParam * largest;
}

/** DeepSpeed ZeRO-3's sub_group_size default, 1e9 elements (deepspeed/runtime/zero/config.py): the step's fp32 gradients live one sub-group at a time. */
const SUB_GROUP = billion(1);

/**
 * The fp32 gradient copy the optimizer step makes, per GPU, where the held gradients are 16-bit: 4 B × the parameters the
 * rank updates (model reference §3: the fp32 optimizer states work on fp32 gradients). Held gradients are 16-bit under
 * DeepSpeed ZeRO unless accumulated unfused in fp32; under Megatron when asked ('16-bit', 'fused-16-bit'), or 'fused' in
 * fp16 (megatron/arguments.py forces fp32 main gradients with bf16 only). The rank updates all its parameters without
 * sharding, 1/d of them sharded (distributed optimizer, ZeRO), and ZeRO-3 one sub-group at a time.
 */
function fp32GradientCopy(input: PlanInput, params: number): number {
  const mode = input.gradientAccumulation ?? 'fused';
  const zero = input.sharding.startsWith('zero');
  const held16 = zero ? mode !== 'fp32' : mode === '16-bit' || mode === 'fused-16-bit' || (mode === 'fused' && input.precision === 'fp16');
  if (!held16) return 0;
  const updated = input.sharding === 'none' ? params : params / (input.data * input.context);
  return 4 * (input.sharding === 'zero-3' ? Math.min(updated, SUB_GROUP) : updated);
}

describe('memory.otherParts over random plans', () => {
  it('are whole bytes that add up to otherBytes exactly, each as derived from the shape and the frameworks, on every stage', () => {
    const seen = { plans: 0, zero3: 0, step: 0, zero3AndStep: 0, fp8: 0 };
    fc.assert(fc.property(plans, (p) => {
      const input = planFor(p);
      const est = input === undefined ? undefined : estimateOf(input);
      if (input === undefined || est === undefined) return;
      seen.plans += 1;
      if (p.precision === 'fp8') seen.fp8 += 1;
      for (const [stage, { layers, memory: m }] of est.stages.entries()) {
        const o = m.otherParts;
        const parts = [o.runtimeReserveBytes, o.fragmentationBytes, o.zero3GatheredBytes, o.optimizerStepBytes];
        expect(parts.every((x) => Number.isInteger(x) && x >= 0), JSON.stringify(o)).toBe(true);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(m.otherBytes);
        // The runtime's allowance is the same 1.5 GiB on every stage of every plan.
        expect(o.runtimeReserveBytes).toBe(GiB(1.5));
        // A tenth of the activations, to the whole byte above.
        expect(o.fragmentationBytes - m.activationsBytes / 10).toBeGreaterThanOrEqual(0);
        expect(o.fragmentationBytes - m.activationsBytes / 10).toBeLessThan(1);
        expect(o.zero3GatheredBytes).toBe(input.sharding === 'zero-3' ? zero3Unit(input, stage) : 0);
        // Two peaks that never meet (plan-memory.ts OtherMemoryParts): forward/backward holds the activations, their
        // fragmentation and the gathered unit; the step, those freed, the fp32 copy. The larger sets the memory.
        const forward = m.activationsBytes + o.fragmentationBytes + o.zero3GatheredBytes;
        const copy = Math.ceil(fp32GradientCopy(input, stageParams(input, layers, stage)));
        expect(forward + o.optimizerStepBytes).toBe(Math.max(forward, copy));
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

  it('ZeRO-3\'s unit between plans: gradient alone at DP 1, weights added from DP 2 and unchanged by doubling DP; none under ZeRO-2', () => {
    let compared = 0;
    fc.assert(fc.property(plans, (p) => {
      // The same stages and tensor ranks at DP 1, 2, 4 and 8.
      const unitsAt = (data: number, sharding: Plan['sharding'], also: Partial<AnyPlan> = {}) => {
        const input = planFor({ ...p, ...also, sharding, gpus: p.tensor * p.pipeline * data });
        return input === undefined ? undefined : estimateOf(input)?.stages.map((s) => s.memory.otherParts.zero3GatheredBytes);
      };
      const units = [1, 2, 4, 8].map((d) => unitsAt(d, 'zero-3'));
      if (units.some((u) => u === undefined)) return;
      compared += 1;
      const [one, two, four, eight] = units as number[][];
      // One rank still holds the unit's whole fresh gradient while it runs.
      expect(one!.every((u) => u > 0)).toBe(true);
      // Each rank gathers the whole unit whatever the number of ranks it is split over.
      expect(four).toEqual(two);
      expect(eight).toEqual(two);
      // What DP 2 adds is the gathered 16-bit weights, 2 B a parameter, beside the gradient's 2 B (a half of the unit), or
      // beside 2 + 4 B with the fp32 accumulation buffer (a quarter).
      const share = p.gradientAccumulation === 'fp32' ? 4 : 2;
      for (const [i, u] of two!.entries()) expect(share * (u - one![i]!)).toBe(u);
      // ZeRO-2 gathers nothing (fp8Params off: the planner takes it only with sharded weights).
      for (const d of [1, 2, 8]) expect(unitsAt(d, 'zero-2', { fp8Params: false })!.every((u) => u === 0)).toBe(true);
    }), { numRuns: 150, seed: 20_240_612 });
    expect(compared).toBeGreaterThan(30);
  });

  it('fragmentation is a tenth of the activations as Korthikanti Table 2 counts them, on a middle stage of a 1F1B pipeline', () => {
    // GPT-3 1.3B (h 2048, a 16, 24 layers) at s 2048, b 1, TP 8 with sequence parallelism, PP 4 (6 layers a stage), unfused
    // attention with dropout, bf16: the paper's setting. Stage 1 of 4 holds p − 1 = 3 micro-batches in flight (Narayanan
    // SC'21 §2.2) and neither the embedding nor the logits.
    const [s, b, h, a, t, held, layers] = [2048, 1, 2048, 16, 8, 3, 6];
    const base = planFor({
      model: '1.3b', gpus: 64, tensor: t, pipeline: 4, micro: b, seqLength: s, batchPerReplica: 8, recompute: 'none',
      recomputeLayers: undefined, sequenceParallel: true, sharding: 'none', precision: 'bf16', fp8Params: false,
      gradientAccumulation: 'fused', schedule: '1f1b',
    })!;
    // Tensor and sequence parallel, per layer: s·b·h/t·(34 + 5·a·s/h).
    const layer = (s * b * h / t) * (34 + (5 * a * s) / h);
    const none = estimateOf({ ...base, attentionKernel: 'unfused', dropout: true })!.stages[1]!;
    expect(none.layers).toBe(layers);
    expect(none.memory.activationsBytes).toBe(held * layers * layer);
    expect(none.memory.otherParts.fragmentationBytes).toBe(Math.ceil((held * layers * layer) / 10));
    // Full recompute keeps each layer's input, 2·s·b·h/t, and rebuilds one layer whole for its backward.
    const full = estimateOf({ ...base, attentionKernel: 'unfused', dropout: true, recompute: 'full' })!.stages[1]!;
    const kept = held * layers * ((2 * s * b * h) / t) + layer;
    expect(full.memory.activationsBytes).toBe(kept);
    expect(full.memory.otherParts.fragmentationBytes).toBe(Math.ceil(kept / 10));
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
