/**
 * The warning that a sharded optimizer with one replica of the weights shards nothing. ZeRO-1 partitions the optimizer
 * states, ZeRO-2 the gradients too, ZeRO-3 the 16-bit weights too (Rajbhandari et al. 2020, §5), and Megatron's
 * distributed optimizer the optimizer states: each over the ranks that hold the same weights, data × context
 * (groups.ts weightReplicas). With one such rank none of them splits anything. ZeRO-3 still holds each unit's whole
 * gradient there (plan-memory.ts), which ZeRO-2, the same states unsharded, does not: the warning says what that costs.
 */
import { gpuById } from '@trainplan/hardware';
import { withShapeDefaults, type StateSharding } from '@trainplan/model';
import { formatBytes } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { estimatePlan, type PlanEstimate, type PlanInput, type TrainingPrecision } from '../src/index.ts';
import { gpt3OnSelene, h100Fabric } from './fixtures.ts';

/** GPT-3 XL's shape (Brown et al. 2020 Table 2.1: 24 layers, h 2048, 16 heads) on DGX H100, no pipeline (ZeRO-2/3 run without one). */
const xl: PlanInput = {
  ...gpt3OnSelene,
  model: withShapeDefaults({ name: 'gpt3-1.3b', layers: 24, hiddenSize: 2048, attentionHeads: 16, vocabSize: 51200, seqLength: 2048 }),
  gpu: gpuById('h100-sxm')!,
  fabric: h100Fabric,
  globalBatchSize: 64,
  pipeline: 1,
  recompute: 'selective',
};

/**
 * A handful of layouts on one node: one replica of the weights (one GPU, TP 8), and several (DP 8, DP 2 · CP 2, and CP 2 at
 * DP 1, whose two context-parallel ranks hold the same weights and share their states).
 */
const LAYOUTS: { name: string; input: Partial<PlanInput> }[] = [
  { name: 'one GPU, DP 1', input: { nodes: 1, gpusPerNode: 1, nvlinkDomainGpus: 1, tensor: 1, data: 1 } },
  { name: 'TP 8, DP 1', input: { nodes: 1, tensor: 8, data: 1 } },
  { name: 'TP 4, CP 2, DP 1', input: { nodes: 1, tensor: 4, context: 2, data: 1 } },
  { name: 'TP 2, CP 2, DP 2', input: { nodes: 1, tensor: 2, context: 2, data: 2 } },
  { name: 'DP 8', input: { nodes: 1, tensor: 1, data: 8 } },
];
const SHARDINGS: readonly StateSharding[] = ['none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3'];
const PRECISIONS: readonly TrainingPrecision[] = ['bf16', 'fp16', 'fp8'];

/** The estimate, also where it would not fit. */
function estimateOf(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  const estimate = e.ok ? e : e.estimate;
  if (estimate === undefined) throw new Error(e.ok ? '' : e.message);
  return estimate;
}

const SHARDS_NOTHING = /shards the model states across data-parallel \(and context-parallel\) ranks: with one, it shards nothing/;
const COSTS = /, and holds each unit's whole gradient: (.+) more per GPU than ZeRO-2 here$/;

describe('a sharded optimizer with one replica of the weights', () => {
  const cases = LAYOUTS.flatMap((layout) => PRECISIONS.map((precision) => ({ ...layout, precision })));

  it.each(cases)('is warned about exactly when DP × CP = 1 and a sharding is asked ($name, $precision)', ({ input, precision }) => {
    for (const sharding of SHARDINGS) {
      const plan = { ...xl, ...input, precision, sharding };
      const said = estimateOf(plan).warnings.filter((w) => SHARDS_NOTHING.test(w));
      const alone = (plan.data * plan.context === 1) && sharding !== 'none';
      expect(said, sharding).toHaveLength(alone ? 1 : 0);
    }
  });

  it.each(cases)('ZeRO-3 says what it needs beyond ZeRO-2, exactly the two estimates\' peaks apart, when that is more ($name, $precision)', ({ input, precision }) => {
    const plan = { ...xl, ...input, precision };
    const z3 = estimateOf({ ...plan, sharding: 'zero-3' });
    const z2 = estimateOf({ ...plan, sharding: 'zero-2' });
    const more = z3.memory.totalBytes - z2.memory.totalBytes;
    const warning = z3.warnings.find((w) => SHARDS_NOTHING.test(w));
    const figure = warning?.match(COSTS)?.[1];
    expect(figure).toBe(plan.data * plan.context === 1 && more > 0 ? formatBytes(more) : undefined);
    // No other sharding's warning carries a figure.
    for (const sharding of SHARDINGS.filter((s) => s !== 'zero-3')) {
      expect(estimateOf({ ...plan, sharding }).warnings.some((w) => COSTS.test(w)), sharding).toBe(false);
    }
  });

  it('ZeRO-3 at DP 1 in 16 bits, under a billion parameters a GPU, needs more than ZeRO-2, so the figure is said', () => {
    // TP 8 holds 0.17 billion parameters a GPU, under ZeRO-3's sub-group of 1e9 (gradient-accumulation.ts ZERO3_SUB_GROUP_SIZE):
    // its step copies them all, as ZeRO-2's does, and the unit's whole gradient is the difference.
    for (const layout of LAYOUTS.filter((l) => l.name === 'TP 8, DP 1')) {
      for (const precision of ['bf16', 'fp16'] as const) {
        const plan = { ...xl, ...layout.input, precision };
        const z3 = estimateOf({ ...plan, sharding: 'zero-3' });
        expect(z3.memory.totalBytes, layout.name).toBeGreaterThan(estimateOf({ ...plan, sharding: 'zero-2' }).memory.totalBytes);
        expect(z3.warnings.some((w) => COSTS.test(w)), layout.name).toBe(true);
      }
    }
  });

  it('ZeRO-3 at DP 1 on one GPU of 1.4 billion parameters needs less than ZeRO-2 (its step copies one sub-group), and no figure is said', () => {
    const plan = { ...xl, ...LAYOUTS[0]!.input };
    const z3 = estimateOf({ ...plan, sharding: 'zero-3' });
    expect(z3.memory.totalBytes).toBeLessThan(estimateOf({ ...plan, sharding: 'zero-2' }).memory.totalBytes);
    expect(z3.warnings.filter((w) => SHARDS_NOTHING.test(w))).toHaveLength(1);
    expect(z3.warnings.some((w) => COSTS.test(w))).toBe(false);
  });

  it('with fp8Params (planned with no ZeRO-2) ZeRO-3 at DP 1 is warned about without a ZeRO-2 figure', () => {
    const z3 = estimateOf({ ...xl, ...LAYOUTS[0]!.input, precision: 'fp8', fp8Params: true, sharding: 'zero-3' });
    expect(z3.warnings.filter((w) => SHARDS_NOTHING.test(w))).toHaveLength(1);
    expect(z3.warnings.some((w) => COSTS.test(w))).toBe(false);
  });
});
