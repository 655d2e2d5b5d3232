import { describe, expect, it } from 'vitest';
import { gpuById } from '@trainplan/hardware';
import { parameterBreakdown, stageParameters } from '@trainplan/model';
import { checkPlan, dataParallelComm, estimatePlan, parallelGroups } from '../src/index.ts';
import { gatheredBytesPerParameter } from '../src/comm-time.ts';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

// FP8 training under Transformer Engine (packages/model/src/fp8-weights.ts, activations.ts `linearInputBytes`).
describe('FP8 memory', () => {
  const bf16 = estimatePlan(llamaOnH100);
  const fp8 = estimatePlan({ ...llamaOnH100, precision: 'fp8' });
  if (!bf16.ok || !fp8.ok) throw new Error('fixture plans must run');
  const matrices = parameterBreakdown(llamaOnH100.model).perLayerMatrices;

  it('adds two 1-byte copies of every linear weight matrix of the stage, split by tensor parallelism', () => {
    bf16.stages.forEach((stage, i) => {
      const extra = fp8.stages[i]!.memory.weightsBytes - stage.memory.weightsBytes;
      // Llama 3 70B: 80 layers on 4 stages, each weight matrix split 4 ways.
      expect(extra).toBeCloseTo((2 * stage.layers * matrices) / llamaOnH100.tensor, -1);
    });
    // 20 layers of Llama 3 70B's 0.856B matrix parameters per layer, 2 B each, over TP 4: 8.56 GB (7.97 GiB) per GPU.
    expect(fp8.memory.weightsBytes - bf16.memory.weightsBytes).toBeCloseTo(8.556e9, -7);
  });

  it('keeps the linear inputs at one byte, so the activations shrink and nothing else does', () => {
    expect(fp8.memory.activationsBytes).toBeLessThan(bf16.memory.activationsBytes);
    expect(fp8.memory.gradientsBytes).toBe(bf16.memory.gradientsBytes);
    expect(fp8.memory.optimizerBytes).toBe(bf16.memory.optimizerBytes);
  });

  it('16-bit training keeps 2 bytes a weight: no copies', () => {
    bf16.stages.forEach((stage, i) => {
      const params = stageParameters({ shape: llamaOnH100.model, tensorParallel: llamaOnH100.tensor, layersPerStage: bf16.stages.map((s) => s.layers) })[i]!;
      expect(stage.memory.weightsBytes).toBe(Math.ceil(2 * params));
    });
  });

  it('adds no copies under ZeRO-3, whose weights are gathered layer by layer', () => {
    // Without a pipeline: ZeRO-3 runs with none (check-plan.ts), so TP 8 · DP 128 on the 1,024 GPUs.
    const h100Gpt3 = { ...gpt3OnSelene, gpu: llamaOnH100.gpu, fabric: llamaOnH100.fabric, pipeline: 1, data: 128, sharding: 'zero-3' as const };
    const a = estimatePlan(h100Gpt3);
    const b = estimatePlan({ ...h100Gpt3, precision: 'fp8' });
    const weights = (r: typeof a) => (r.ok ? r : r.estimate)!.memory.weightsBytes;
    expect(weights(b)).toBe(weights(a));
  });

  it("with fp8Params (Megatron's --fp8-param-gather) the FP8 copies replace the 16-bit weights: weights as in BF16", () => {
    const params = estimatePlan({ ...llamaOnH100, precision: 'fp8', fp8Params: true });
    expect(params.ok && params.memory.weightsBytes).toBe(bf16.memory.weightsBytes);
    expect(params.ok && params.memory.activationsBytes).toBe(fp8.memory.activationsBytes);
  });

  it('refuses fp8Params without FP8, and without the distributed optimizer, naming the field', () => {
    const rules = (plan: Parameters<typeof checkPlan>[0]) => checkPlan(plan).map((i) => `${i.path} ${i.rule}`);
    expect(rules({ ...llamaOnH100, fp8Params: true })).toEqual(['training.fp8Params fp8-params-needs-fp8']);
    expect(rules({ ...llamaOnH100, precision: 'fp8', fp8Params: true, sharding: 'none' }))
      .toEqual(['training.fp8Params fp8-params-needs-distributed-optimizer']);
    expect(rules({ ...llamaOnH100, precision: 'fp8', fp8Params: true })).toEqual([]);
    // Megatron-FSDP (ZeRO-3 here, which runs without a pipeline: TP 4 · CP 2 · DP 8) runs it too; DeepSpeed's ZeRO-1 is
    // pointed at the distributed optimizer instead.
    expect(rules({ ...llamaOnH100, pipeline: 1, data: 8, precision: 'fp8', fp8Params: true, sharding: 'zero-3' })).toEqual([]);
    const zero1 = checkPlan({ ...llamaOnH100, precision: 'fp8', fp8Params: true, sharding: 'zero-1' });
    expect(zero1.map((i) => i.message)).toEqual([expect.stringMatching(/use distributedOptimizer true in place of zeroStage 1/)]);
    // ZeRO-2 is Megatron-FSDP in the export, which Megatron's check accepts: the refusal says it is trainplan's own (QA: it
    // said fp8Params "runs with the distributed optimizer", as if Megatron refused ZeRO-2).
    const zero2 = checkPlan({ ...llamaOnH100, pipeline: 1, data: 8, precision: 'fp8', fp8Params: true, sharding: 'zero-2' });
    expect(zero2.map((i) => i.message)).toEqual([
      'trainplan plans fp8Params only with the distributed optimizer or ZeRO-3: use distributedOptimizer true in place of zeroStage 2, or zeroStage 3']);
    // A GPU without FP8 tensor cores is told so, not sent to precision "fp8" to be refused again.
    const v100 = checkPlan({ ...llamaOnH100, gpu: gpuById('v100-32gb')!, precision: 'fp16', fp8Params: true }).find((i) => i.path === 'training.fp8Params');
    expect(v100?.message).toMatch(/has no FP8 tensor cores: leave fp8Params out, or use a GPU that has them \(h100-sxm/);
  });
});

describe('FP8 weights gathered as FP8 (fp8Params)', () => {
  const fp8 = { ...llamaOnH100, precision: 'fp8' as const };
  const groups = parallelGroups(fp8);
  it('the sharded optimizer all-gathers the weight matrices at 1 byte and the rest at 2', () => {
    const layers = [20, 20, 20, 20];
    const params = stageParameters({ shape: fp8.model, tensorParallel: fp8.tensor, layersPerStage: layers });
    const widths = gatheredBytesPerParameter({ ...fp8, fp8Params: true }, layers, params)!;
    const matrices = (20 * parameterBreakdown(fp8.model).perLayerMatrices) / fp8.tensor;
    // A middle stage is all layers: its matrices at 1 B, its norms at 2 B.
    expect(widths[1]! * params[1]!).toBeCloseTo(2 * params[1]! - matrices, 0);
    expect(gatheredBytesPerParameter(fp8, layers, params)).toBeUndefined();
    // The collective then moves those bytes: less than the 16-bit gather of the same stage.
    expect(dataParallelComm(fp8, groups, params[1]!, 8, widths[1]!)).toBeLessThan(dataParallelComm(fp8, groups, params[1]!, 8));
  });
  it('so a step spends less on data-parallel communication with fp8Params, and nothing else changes', () => {
    const without = estimatePlan(fp8);
    const withParams = estimatePlan({ ...fp8, fp8Params: true });
    if (!without.ok || !withParams.ok) throw new Error('fixture plans must run');
    expect(withParams.breakdown.dataParallelCommTotalSeconds).toBeLessThan(without.breakdown.dataParallelCommTotalSeconds);
    expect(withParams.breakdown.computeSeconds).toBe(without.breakdown.computeSeconds);
  });
});
