import { gpuById } from '@trainplan/hardware';
import { describe, expect, it } from 'vitest';
import { checkPlan, estimatePlan, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

const paths = (input: PlanInput) => checkPlan(input).map((i) => i.path);

/** The estimate, or the one the planner gives as if memory were unlimited. */
function estimateOf(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  const estimate = e.ok ? e : e.estimate;
  if (!estimate) throw new Error(`expected an estimate: ${e.ok ? '' : e.message}`);
  return estimate;
}

/** GPT-3 175B (96 layers) with TP 8 on p pipeline stages and no data parallelism: 8·p GPUs. */
const gpt3OnStages = (p: number, rest: Partial<PlanInput> = {}): PlanInput => ({
  ...gpt3OnSelene, nodes: p, pipeline: p, data: 1, globalBatchSize: 64 * p, ...rest,
});

describe('checkPlan: the pipeline split (Megatron-Core first/middle/last stages)', () => {
  it('96 layers on 25 stages run as first 2, 23 middle stages of 4, last 2', () => {
    expect(checkPlan(gpt3OnStages(25))).toEqual([]);
    expect(estimateOf(gpt3OnStages(25)).stages.map((s) => s.layers)).toEqual([2, ...Array(23).fill(4), 2]);
  });

  it('96 layers on 26 stages have no split (24 middle stages of ⌈96/26⌉ = 4 hold all 96): refused, naming parallelism.pipeline', () => {
    const e = estimatePlan(gpt3OnStages(26));
    expect(e.ok).toBe(false);
    expect(e.ok ? [] : e.issues?.map((i) => i.path)).toEqual(['parallelism.pipeline']);
  });

  it('interleaving an uneven split needs every stage (first, middle and last) divisible by v', () => {
    // 96 on 25: 2, 4 × 23, 2. v = 2 divides all; v = 4 not the 2 on the first and last stage.
    expect(paths(gpt3OnStages(25, { virtualStages: 2, schedule: 'interleaved' }))).toEqual([]);
    expect(paths(gpt3OnStages(25, { virtualStages: 4, schedule: 'interleaved' }))).toEqual(['parallelism.virtualStages']);
  });

  it('interleaving an even split needs v to divide the layers per stage (96 / 8 = 12: v 3 yes, v 5 no)', () => {
    const interleaved = { ...gpt3OnSelene, schedule: 'interleaved' as const };
    expect(paths({ ...interleaved, virtualStages: 3 })).toEqual([]);
    expect(paths({ ...interleaved, virtualStages: 5 })).toEqual(['parallelism.virtualStages']);
  });

  it('the interleaved schedule on 2 stages needs overlapped pipeline sends (Megatron asserts p > 2 without them)', () => {
    const two = gpt3OnStages(2, { virtualStages: 2, schedule: 'interleaved' });
    expect(paths(two)).toEqual(['parallelism.virtualStages']);
    expect(paths({ ...two, overlapPipelineComm: true })).toEqual([]);
    expect(paths(gpt3OnStages(3, { virtualStages: 2, schedule: 'interleaved' }))).toEqual([]);
  });
});

describe('checkPlan: partial recompute is per model chunk in Megatron', () => {
  const interleaved = { ...gpt3OnSelene, virtualStages: 2, schedule: 'interleaved' as const, recompute: 'full' as const };
  it('with v chunks per stage the recomputed layers per stage come in multiples of v', () => {
    expect(paths({ ...interleaved, recomputeLayers: 3 })).toEqual(['parallelism.recomputeLayers']);
    expect(paths({ ...interleaved, recomputeLayers: 4 })).toEqual([]);
    expect(paths({ ...interleaved, virtualStages: 1, schedule: '1f1b', recomputeLayers: 3 })).toEqual([]);
  });
});

describe('checkPlan: key/value heads', () => {
  it('TP must divide the key/value groups, as Megatron-Core divides them (attention.py): Llama 3 70B\'s 8 at TP 16 is refused, at TP 8 runs', () => {
    // llamaOnH100: TP 4 · PP 4 · CP 2 · DP 2 on 64 GPUs; TP 16 · DP 1 · PP 2 keeps the GPU count.
    const tp16 = { ...llamaOnH100, tensor: 16, pipeline: 2, data: 1 };
    expect(checkPlan(tp16).map((i) => [i.path, i.rule])).toContainEqual(['parallelism.tensor', 'heads-indivisible']);
    expect(checkPlan({ ...llamaOnH100, tensor: 8, pipeline: 2, data: 2 }).some((i) => i.rule === 'heads-indivisible')).toBe(false);
  });
});

describe('checkPlan: sequence parallelism and tensor-parallel overlap', () => {
  it('--tp-comm-overlap needs sequence parallelism, which needs tensor parallelism (arguments.py)', () => {
    expect(paths({ ...gpt3OnSelene, overlapTensorParallelComm: true })).toEqual(['parallelism.overlapTensorParallelComm']);
    expect(paths({ ...gpt3OnSelene, overlapTensorParallelComm: true, sequenceParallel: true })).toEqual([]);
    const tensor1 = { ...gpt3OnSelene, tensor: 1, data: 128, overlapTensorParallelComm: true, sequenceParallel: true };
    expect(paths(tensor1)).toEqual(['parallelism.overlapTensorParallelComm']);
  });

  it('--tp-comm-overlap keeps tensor parallelism inside an NVLink domain (Transformer Engine\'s Userbuffers: TransformerEngine#1071)', () => {
    const tp16 = { ...gpt3OnSelene, tensor: 16, data: 8, sequenceParallel: true };
    expect(checkPlan({ ...tp16, overlapTensorParallelComm: true }).map((i) => i.rule)).toEqual(['tp-overlap-crosses-nvlink']);
    expect(paths(tp16)).toEqual([]);
    // A 72-GPU NVL72 domain holds TP 16.
    expect(paths({ ...tp16, overlapTensorParallelComm: true, nvlinkDomainGpus: 72 })).toEqual([]);
  });

  it('sequence parallelism splits each context rank\'s s/c tokens evenly over the TP ranks', () => {
    // Llama 3 70B, TP 4, CP 2: 8192 / 2 = 4096 tokens per rank split 4 ways; 8196 / 2 = 4098 does not.
    expect(paths(llamaOnH100)).toEqual([]);
    expect(paths({ ...llamaOnH100, seqLength: 8196 })).toEqual(['parallelism.sequenceParallel']);
    expect(paths({ ...llamaOnH100, seqLength: 8196, sequenceParallel: false })).toEqual([]);
  });

  it('at TP 1 sequence parallelism is accepted and costs nothing either way: Korthikanti\'s split over t = 1 ranks is no split', () => {
    // Megatron's validate_args turns it off at TP 1 with a warning (the exports leave the flag out); the plan must not
    // credit it with memory nor charge it with time there. PP 4 so the pipeline sends (sent split under SP) count too.
    const tensor1 = { ...gpt3OnSelene, tensor: 1, pipeline: 4, data: 256, globalBatchSize: 1024 };
    const on = { ...tensor1, sequenceParallel: true };
    expect(paths(on)).toEqual([]);
    const [withSp, without] = [estimateOf(on), estimateOf(tensor1)];
    expect(withSp.stepTimeSeconds).toBe(without.stepTimeSeconds);
    expect(withSp.memory.totalBytes).toBe(without.memory.totalBytes);
    expect(withSp.stages.map((s) => s.memory.activationsBytes)).toEqual(without.stages.map((s) => s.memory.activationsBytes));
    expect(withSp.warnings).toContain('sequence parallelism has no effect without tensor parallelism');
  });
});

describe('checkPlan: precision the GPU has no tensor cores for', () => {
  const v100 = gpuById('v100-32gb')!;
  it('refuses bf16 on a V100 (FP16 tensor cores only), naming training.precision and suggesting fp16', () => {
    const issues = checkPlan({ ...gpt3OnSelene, gpu: v100, precision: 'bf16', attentionKernel: 'unfused' });
    expect(issues.map((i) => i.path)).toEqual(['training.precision']);
    expect(issues[0]!.message).toContain('fp16');
    expect(paths({ ...gpt3OnSelene, gpu: v100, precision: 'fp16', attentionKernel: 'unfused' })).toEqual([]);
  });
  it('refuses FlashAttention on a V100 (Ampere or newer), naming training.attentionKernel and suggesting unfused', () => {
    const issues = checkPlan({ ...gpt3OnSelene, gpu: v100, precision: 'fp16', attentionKernel: 'flash' });
    expect(issues.map((i) => i.path)).toEqual(['training.attentionKernel']);
    expect(issues[0]!.message).toContain('unfused');
    expect(paths({ ...gpt3OnSelene, precision: 'fp16', attentionKernel: 'flash' })).toEqual([]);
  });
  it('refuses fp8 on an A100, as before', () => {
    expect(paths({ ...gpt3OnSelene, precision: 'fp8' })).toEqual(['training.precision']);
  });
});

describe('checkPlan: ZeRO-2 and ZeRO-3 under a pipeline', () => {
  // DeepSpeed's PipelineEngine asserts ZeRO stage < 2 ("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism",
  // deepspeed/runtime/pipe/engine.py); Megatron-FSDP, the Megatron export's ZeRO-2/3, composes with TP, CP and EP only
  // (NVIDIA/Megatron-LM#1455). GPT-3 175B at TP 8 on 16 nodes: DP 8 on 2 stages, DP 16 on 1.
  const onStages = (pipeline: number, sharding: PlanInput['sharding']): PlanInput => ({ ...gpt3OnSelene, nodes: 16, pipeline, data: 128 / (8 * pipeline), sharding });

  it('ZeRO-3 on 2 pipeline stages is refused at parallelism.zeroStage, naming ZeRO-1 and the distributed optimizer as what runs', () => {
    expect(checkPlan(onStages(2, 'zero-3'))).toEqual([{
      path: 'parallelism.zeroStage', rule: 'zero-with-pipeline',
      message: 'ZeRO-3 does not run with a pipeline (DeepSpeed and Megatron-FSDP refuse it): use zeroStage 1, distributedOptimizer true or pipeline 1',
    }]);
  });

  it.each([
    ['zero-2', 2, ['zero-with-pipeline']],
    ['zero-3', 1, []],
    ['zero-2', 1, []],
    ['zero-1', 2, []],
    ['distributed-optimizer', 2, []],
    ['none', 2, []],
  ] as const)('%s on %i stage(s): %j', (sharding, pipeline, rules) => {
    expect(checkPlan(onStages(pipeline, sharding)).map((i) => i.rule)).toEqual(rules);
  });
});
