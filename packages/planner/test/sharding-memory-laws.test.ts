import { gpuById } from '@trainplan/hardware';
import { withShapeDefaults, type StateSharding } from '@trainplan/model';
import { describe, expect, it } from 'vitest';
import { estimatePlan, type GradientAccumulation, type PlanInput, type StageMemory, type TrainingPrecision } from '../src/index.ts';
import { gpt3OnSelene, h100Fabric } from './fixtures.ts';

/**
 * How memory per GPU moves with the data-parallel size and the sharding mode (Rajbhandari et al. 2020, §5 and Figure 1;
 * Megatron-LM docs/distrib_optimizer: 6 + 12/d bytes a parameter). The plan: GPT-3 XL's shape (Brown et al. 2020
 * Table 2.1: 24 layers, h = 2048, 16 heads; Megatron's padded vocabulary 51,200, 2,048 tokens), no tensor, pipeline or
 * context parallelism, on H100 SXM, global batch 512 of micro-batch 1.
 */
const L = 24, h = 2048, V = 51200, s = 2048;
const gptXl: PlanInput = {
  ...gpt3OnSelene,
  model: withShapeDefaults({ name: 'gpt3-1.3b', layers: L, hiddenSize: h, attentionHeads: 16, vocabSize: V, seqLength: s }),
  gpu: gpuById('h100-sxm')!,
  fabric: h100Fabric,
  globalBatchSize: 512,
  tensor: 1,
  pipeline: 1,
  recompute: 'none',
  attentionKernel: 'unfused',
};
/** Ψ: Narayanan SC'21 eq. 2 spelled out, 12Lh² + 13Lh + (V + s)h, plus the final LayerNorm's 2h. */
const psi = 12 * L * h * h + 13 * L * h + (V + s) * h + 2 * h;

/** The plan on d data-parallel GPUs, 8 a node. */
const on = (d: number, sharding: StateSharding, extra: Partial<PlanInput> = {}): PlanInput => ({
  ...gptXl, data: d, gpusPerNode: Math.min(8, d), nvlinkDomainGpus: Math.min(8, d), nodes: Math.max(1, d / 8), sharding, ...extra,
});
/** Memory of the plan's one stage, also where it would not fit. */
function memory(input: PlanInput): StageMemory {
  const e = estimatePlan(input);
  const estimate = e.ok ? e : e.estimate;
  if (estimate === undefined) throw new Error(e.ok ? '' : e.message);
  return estimate.memory;
}
const states = (m: StageMemory): number => m.weightsBytes + m.gradientsBytes + m.optimizerBytes;

const SHARDINGS = ['none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3'] as const;
const SETTINGS: { precision: TrainingPrecision; gradientAccumulation: GradientAccumulation }[] = (['bf16', 'fp16', 'fp8'] as const)
  .flatMap((precision) => (['fused', 'fused-16-bit', '16-bit', 'fp32'] as const).map((gradientAccumulation) => ({ precision, gradientAccumulation })));
const DATA = [1, 2, 4, 8, 16, 32, 64];

describe('one data-parallel rank shards nothing', () => {
  it.each(SETTINGS)("the distributed optimizer at DP 1 holds exactly what no sharding holds ($precision, $gradientAccumulation)", (setting) => {
    for (const recompute of ['none', 'full'] as const) {
      expect(memory(on(1, 'distributed-optimizer', { ...setting, recompute }))).toEqual(memory(on(1, 'none', { ...setting, recompute })));
    }
  });

  it("ZeRO-1, 2 and 3 at DP 1 hold Rajbhandari's unsharded model states, (2 + 2 + K)·Ψ with K = 12 (Figure 1's baseline)", () => {
    for (const sharding of ['zero-1', 'zero-2', 'zero-3'] as const) expect(states(memory(on(1, sharding)))).toBe((2 + 2 + 12) * psi);
    expect(memory(on(1, 'zero-2'))).toEqual(memory(on(1, 'zero-1')));
  });

  it('ZeRO-3 at DP 1 runs on its weights in place; beyond ZeRO-2 it holds only the largest unit\'s whole 16-bit gradient', () => {
    // The largest unit: the word and position embeddings, (V + s)·h = 108,527,616 parameters, above a layer's
    // 12h² + 13h = 50,358,272. Its 16-bit gradient: 2·(V + s)·h bytes. With one rank no weight is gathered (DeepSpeed
    // all_gather_coalesced: num_partitions 1 is no gather); at DP 2 the gathered weights join it: (2 + 2)·(V + s)·h.
    expect(memory(on(1, 'zero-3')).totalBytes - memory(on(1, 'zero-2')).totalBytes).toBe(2 * (V + s) * h);
    const two = { z2: memory(on(2, 'zero-2')), z3: memory(on(2, 'zero-3')) };
    expect(two.z3.otherBytes - two.z2.otherBytes).toBe(4 * (V + s) * h);
  });
});

describe('sharding never costs memory as the data-parallel size grows, and deeper stages never cost more', () => {
  it.each(SETTINGS)("memory per GPU is non-increasing in DP for every sharding mode ($precision, $gradientAccumulation)", (setting) => {
    for (const recompute of ['none', 'full'] as const) {
      for (const sharding of SHARDINGS) {
        const totals = DATA.map((d) => memory(on(d, sharding, { ...setting, recompute })).totalBytes);
        totals.slice(1).forEach((total, i) => expect(total, `${sharding}, ${recompute}, DP ${DATA[i]} → ${DATA[i + 1]}`).toBeLessThanOrEqual(totals[i]!));
      }
    }
  });

  it.each(SETTINGS)("at a fixed DP > 1, none ≥ ZeRO-1 ≥ ZeRO-2 ≥ ZeRO-3 ($precision, $gradientAccumulation)", (setting) => {
    for (const recompute of ['none', 'full'] as const) {
      for (const d of DATA.slice(1)) {
        const totals = (['none', 'zero-1', 'zero-2', 'zero-3'] as const).map((sharding) => memory(on(d, sharding, { ...setting, recompute })).totalBytes);
        totals.slice(1).forEach((total, i) => expect(total, `${recompute}, DP ${d}, stage ${i + 1}`).toBeLessThanOrEqual(totals[i]!));
      }
    }
  });

  it("ZeRO-3 is not always below ZeRO-2: on a small model at DP 2 the gathered embedding outweighs the weights' half it shards", () => {
    // GPT-3 Small (Brown et al. Table 2.1: 12 layers, h = 768, 12 heads), V = 51,200: Ψ = 12Lh² + 13Lh + (V + s)h + 2h.
    const Ls = 12, hs = 768;
    const small = (sharding: StateSharding) => on(2, sharding, { model: withShapeDefaults({ name: 'gpt3-126m', layers: Ls, hiddenSize: hs, attentionHeads: 12, vocabSize: V, seqLength: s }) });
    const psiSmall = 12 * Ls * hs * hs + 13 * Ls * hs + (V + s) * hs + 2 * hs;
    // ZeRO-3 halves the 16-bit weights, 2Ψ/2, and gathers the embedding's weights and gradient, (2 + 2)·(V + s)·h.
    const [z2, z3] = [memory(small('zero-2')), memory(small('zero-3'))];
    expect(z3.totalBytes - z2.totalBytes).toBe(4 * (V + s) * hs - psiSmall);
    expect(z3.totalBytes).toBeGreaterThan(z2.totalBytes);
  });
});
