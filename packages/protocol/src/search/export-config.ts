import { validateScenario } from '../scenario-schema.ts';
import { resolveScenario } from '../resolve.ts';
import type { PlanInput } from '@trainplan/planner';

/** The plan behind a scenario, or undefined when it does not validate or resolve. */
function planOf(scenario: unknown): PlanInput | undefined {
  const v = validateScenario(scenario);
  if (!v.ok) return undefined;
  const r = resolveScenario(v.value);
  return r.ok ? r.value.plan : undefined;
}

/**
 * A contract scenario as Megatron-LM command-line arguments (megatron/training/arguments.py names,
 * Megatron-Core 0.9+), ready to paste after `pretrain_gpt.py`. Model flags are included when the
 * model is known; data, tokenizer and checkpoint paths are the user's. Answers `undefined` for a
 * scenario that does not validate.
 */
export function toMegatronArgs(scenario: unknown): string | undefined {
  const plan = planOf(scenario);
  if (plan === undefined) return undefined;
  const m = plan.model;
  const args: string[] = [
    `--num-layers ${m.layers}`, `--hidden-size ${m.hiddenSize}`, `--num-attention-heads ${m.attentionHeads}`,
    `--ffn-hidden-size ${m.ffnHiddenSize}`, `--seq-length ${plan.seqLength}`, `--max-position-embeddings ${plan.seqLength}`,
  ];
  if (m.kvHeads !== m.attentionHeads) args.push('--group-query-attention', `--num-query-groups ${m.kvHeads}`);
  if (m.gatedMlp) args.push('--swiglu');
  if (!m.tiedEmbeddings) args.push('--untie-embeddings-and-output-weights');
  if (m.positionEmbedding === 'rotary') args.push('--position-embedding-type rope');
  if (m.normalization === 'rmsnorm') args.push('--normalization RMSNorm');
  if (!m.linearBias) args.push('--disable-bias-linear');
  args.push(
    `--tensor-model-parallel-size ${plan.tensor}`, `--pipeline-model-parallel-size ${plan.pipeline}`,
    `--micro-batch-size ${plan.microBatchSize}`, `--global-batch-size ${plan.globalBatchSize}`,
  );
  if (plan.context > 1) args.push(`--context-parallel-size ${plan.context}`);
  if (plan.virtualStages > 1) args.push(`--num-layers-per-virtual-pipeline-stage ${m.layers / (plan.pipeline * plan.virtualStages)}`);
  if (plan.sequenceParallel) args.push('--sequence-parallel');
  if (plan.recompute === 'selective') args.push('--recompute-granularity selective');
  if (plan.recompute === 'full') {
    args.push('--recompute-granularity full', '--recompute-method block', `--recompute-num-layers ${plan.recomputeLayers ?? Math.ceil(m.layers / plan.pipeline)}`);
  }
  if (plan.sharding === 'distributed-optimizer') args.push('--use-distributed-optimizer');
  if (plan.sharding.startsWith('zero-')) args.push(`# ZeRO stage ${plan.sharding.slice(5)} is DeepSpeed's (Megatron-DeepSpeed --zero-stage ${plan.sharding.slice(5)})`);
  if (plan.precision === 'bf16') args.push('--bf16');
  if (plan.precision === 'fp16') args.push('--fp16');
  if (plan.precision === 'fp8') args.push('--bf16', '--fp8-format hybrid');
  if (plan.attentionKernel === 'flash') args.push('--use-flash-attn');
  // Megatron fuses gradient accumulation into the weight-gradient GEMM by default; an unfused add is its fallback.
  if ((plan.gradientAccumulation ?? 'fused') !== 'fused') args.push('--no-gradient-accumulation-fusion');
  if (plan.gradientAccumulation === 'fp32') args.push('--accumulate-allreduce-grads-in-fp32');
  if (!plan.dropout) args.push('--attention-dropout 0', '--hidden-dropout 0');
  if (plan.overlapGradReduce) args.push('--overlap-grad-reduce');
  if (plan.overlapGradReduce && plan.sharding === 'distributed-optimizer') args.push('--overlap-param-gather');
  if (plan.overlapTensorParallelComm) args.push('--tp-comm-overlap');
  if (plan.overlapPipelineComm && plan.virtualStages > 1) args.push('--overlap-p2p-communication');
  // Scatter-gather of pipeline sends was Megatron 2021's default and is gone from Megatron-Core: no flag either way.
  return args.join(' \\\n  ');
}

/**
 * The same plan as a NeMo (Megatron GPT) YAML fragment under `model:` (NeMo 1.x / NeMo-Megatron
 * launcher config keys), ready to paste into a training config.
 */
export function toNemoYaml(scenario: unknown): string | undefined {
  const plan = planOf(scenario);
  if (plan === undefined) return undefined;
  const m = plan.model;
  const lines = [
    'trainer:',
    `  num_nodes: ${plan.nodes}`,
    `  devices: ${plan.gpusPerNode}`,
    `  precision: ${plan.precision === 'fp16' ? 16 : 'bf16'}`,
    'model:',
    `  micro_batch_size: ${plan.microBatchSize}`,
    `  global_batch_size: ${plan.globalBatchSize}`,
    `  tensor_model_parallel_size: ${plan.tensor}`,
    `  pipeline_model_parallel_size: ${plan.pipeline}`,
    `  virtual_pipeline_model_parallel_size: ${plan.virtualStages > 1 ? plan.virtualStages : 'null'}`,
    `  context_parallel_size: ${plan.context}`,
    `  sequence_parallel: ${plan.sequenceParallel}`,
    `  encoder_seq_length: ${plan.seqLength}`,
    `  max_position_embeddings: ${plan.seqLength}`,
    `  num_layers: ${m.layers}`,
    `  hidden_size: ${m.hiddenSize}`,
    `  ffn_hidden_size: ${m.ffnHiddenSize}`,
    `  num_attention_heads: ${m.attentionHeads}`,
    `  num_query_groups: ${m.kvHeads}`,
    `  activations_checkpoint_granularity: ${plan.recompute === 'none' ? 'null' : plan.recompute}`,
    `  activations_checkpoint_method: ${plan.recompute === 'full' ? 'block' : 'null'}`,
    `  activations_checkpoint_num_layers: ${plan.recompute === 'full' ? plan.recomputeLayers ?? Math.ceil(m.layers / plan.pipeline) : 'null'}`,
    `  hidden_dropout: ${plan.dropout ? 0.1 : 0}`,
    `  attention_dropout: ${plan.dropout ? 0.1 : 0}`,
    `  use_flash_attention: ${plan.attentionKernel === 'flash'}`,
    `  gradient_accumulation_fusion: ${(plan.gradientAccumulation ?? 'fused') === 'fused'}`,
  ];
  if (plan.precision === 'fp8') lines.push('  fp8: true', '  fp8_hybrid: true');
  if (plan.overlapTensorParallelComm) lines.push('  ub_tp_comm_overlap: true');
  lines.push('  optim:', `    name: ${plan.sharding === 'distributed-optimizer' ? 'distributed_fused_adam' : 'fused_adam'}`);
  if (plan.sharding === 'distributed-optimizer' && plan.overlapGradReduce) lines.push('    overlap_grad_sync: true', '    overlap_param_sync: true');
  return `${lines.join('\n')}\n`;
}
