import type { PlanInput } from './plan-input.ts';

/** A reason a plan cannot run as asked, naming the scenario-contract field to change. */
export interface PlanIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Divisibility and consistency rules Megatron-LM enforces at start-up (megatron/training/arguments.py
 * and parallel_state.py), stated as data. An empty list means the plan can run (memory aside).
 */
export function checkPlan(input: PlanInput): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const { model, tensor: t, pipeline: p, context: c, data: d, virtualStages: v } = input;
  const gpus = input.nodes * input.gpusPerNode;
  const add = (path: string, message: string) => issues.push({ path, message });

  if (t * p * c * d !== gpus) {
    add('parallelism.data', `tensor × pipeline × context × data = ${t}×${p}×${c}×${d} = ${t * p * c * d}, but the cluster has ${gpus} GPUs`);
  }
  if (model.attentionHeads % t !== 0) add('parallelism.tensor', `${model.attentionHeads} attention heads do not split evenly over ${t} tensor-parallel ranks`);
  else if (model.kvHeads % t !== 0 && t % model.kvHeads !== 0) {
    add('parallelism.tensor', `${model.kvHeads} key/value heads do not split evenly over ${t} tensor-parallel ranks`);
  }
  if (model.ffnHiddenSize % t !== 0) add('parallelism.tensor', `FFN size ${model.ffnHiddenSize} does not split evenly over ${t} ranks`);
  if (p > model.layers) add('parallelism.pipeline', `${p} pipeline stages for ${model.layers} layers: each stage needs at least one layer`);
  if (v > 1 && model.layers % (p * v) !== 0) {
    add('parallelism.virtualStages', `the interleaved schedule needs layers (${model.layers}) divisible by pipeline × virtualStages (${p}×${v})`);
  }
  if (v > 1 && p === 1) add('parallelism.virtualStages', 'virtual stages need a pipeline of more than one stage');
  const perStep = input.microBatchSize * d;
  if (input.globalBatchSize % perStep !== 0) {
    add('training.globalBatchSize', `global batch ${input.globalBatchSize} is not a multiple of micro-batch × data-parallel = ${input.microBatchSize}×${d} = ${perStep}`);
  } else if (v > 1 && p > 1 && (input.globalBatchSize / perStep) % p !== 0) {
    // megatron/core/pipeline_parallel/schedules.py: "number of microbatches ... is not divisible by
    // pipeline-model-parallel-size ... when using interleaved schedule".
    add('parallelism.virtualStages', `the interleaved schedule needs the micro-batches per step (${input.globalBatchSize / perStep}) in whole rounds of the ${p} pipeline stages`);
  }
  if (input.seqLength % c !== 0) {
    add('parallelism.context', `sequence length ${input.seqLength} does not split evenly over ${c} context-parallel ranks`);
  } else if (c > 1 && (input.seqLength / c) % 2 !== 0) {
    // Transformer Engine splits each rank's chunk in two for causal load balancing: "Sequence length per GPU needs to be divisible by 2!"
    add('parallelism.context', `sequence length ${input.seqLength} does not split into 2 × ${c} equal chunks for load-balanced ring attention`);
  }
  // megatron/core/transformer/dot_product_attention.py: "Context parallelism is only supported by TEDotProductAttention!"
  if (c > 1 && input.attentionKernel === 'unfused') {
    add('parallelism.context', 'context parallelism runs only in Transformer Engine\'s fused attention: use attentionKernel "flash" or context 1');
  }
  if (input.precision === 'fp8' && input.gpu.peakFlops.fp8 === undefined) {
    add('training.precision', `${input.gpu.name} has no FP8 tensor cores`);
  }
  if (input.recomputeLayers !== undefined && input.recompute !== 'full') {
    add('parallelism.recomputeLayers', 'recomputeLayers applies only with recompute "full"');
  }
  return issues;
}
