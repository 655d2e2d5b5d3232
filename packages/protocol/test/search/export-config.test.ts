import { describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE, toMegatronArgs, toNemoYaml } from '../../src/index.ts';

const LLAMA = {
  model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 },
  training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 4, pipeline: 4, context: 2, virtualStages: 5, sequenceParallel: true, recompute: 'selective', distributedOptimizer: true, overlapGradReduce: true },
};

describe('toMegatronArgs', () => {
  it('writes the contract example as Megatron-LM flags', () => {
    const args = toMegatronArgs(CONTRACT_EXAMPLE)!;
    for (const flag of ['--tensor-model-parallel-size 8', '--pipeline-model-parallel-size 8', '--micro-batch-size 1', '--global-batch-size 1536',
      '--num-layers 96', '--hidden-size 12288', '--num-attention-heads 96', '--recompute-granularity full', '--recompute-num-layers 12', '--bf16']) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--sequence-parallel');
  });

  it('spells out GQA, SwiGLU, CP, interleaving (layers per virtual stage = L / (p·v)) and the distributed optimizer', () => {
    const args = toMegatronArgs(LLAMA)!;
    for (const flag of ['--num-query-groups 8', '--swiglu', '--context-parallel-size 2', '--num-layers-per-virtual-pipeline-stage 4',
      '--sequence-parallel', '--recompute-granularity selective', '--use-distributed-optimizer', '--overlap-grad-reduce', '--untie-embeddings-and-output-weights']) {
      expect(args).toContain(flag);
    }
  });

  it('turns off gradient-accumulation fusion only for an unfused add, and asks for fp32 accumulation where the plan has it', () => {
    expect(toMegatronArgs(LLAMA)).not.toContain('--no-gradient-accumulation-fusion');
    const fp32 = toMegatronArgs({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: 'fp32' } })!;
    expect(fp32).toContain('--no-gradient-accumulation-fusion');
    expect(fp32).toContain('--accumulate-allreduce-grads-in-fp32');
    const sixteen = toMegatronArgs({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: '16-bit' } })!;
    expect(sixteen).toContain('--no-gradient-accumulation-fusion');
    expect(sixteen).not.toContain('--accumulate-allreduce-grads-in-fp32');
  });

  it('answers undefined for an invalid scenario', () => {
    expect(toMegatronArgs({ model: 'x' })).toBeUndefined();
  });
});

describe('toNemoYaml', () => {
  it('writes the parallel sizes under model: and the node count under trainer:', () => {
    const yaml = toNemoYaml(LLAMA)!;
    expect(yaml).toMatch(/^trainer:\n {2}num_nodes: 8\n {2}devices: 8\n/);
    for (const line of ['  tensor_model_parallel_size: 4', '  pipeline_model_parallel_size: 4', '  virtual_pipeline_model_parallel_size: 5',
      '  context_parallel_size: 2', '  sequence_parallel: true', '  activations_checkpoint_granularity: selective', '    name: distributed_fused_adam']) {
      expect(yaml.split('\n')).toContain(line);
    }
  });
  it('states gradient_accumulation_fusion as the plan has it', () => {
    expect(toNemoYaml(LLAMA)!.split('\n')).toContain('  gradient_accumulation_fusion: true');
    const unfused = toNemoYaml({ ...LLAMA, training: { ...LLAMA.training, gradientAccumulation: '16-bit' } })!;
    expect(unfused.split('\n')).toContain('  gradient_accumulation_fusion: false');
  });
});
