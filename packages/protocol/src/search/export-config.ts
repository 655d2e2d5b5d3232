import { learnedPositionRows, pipelineSplit, slotsTaken, type PipelineSplit } from '@trainplan/model';
import { checkPlan, fusedAccumulation, type PlanInput } from '@trainplan/planner';
import { modelById, type ModelPreset } from '@trainplan/presets';
import { validateScenario } from '../scenario-schema.ts';
import { resolveScenario } from '../resolve.ts';
import { megatronArchitecture, nemoArchitecture, nemoModelClassLine, nemoUsesLegacyModel } from './export-architecture.ts';
import {
  coreVersionLine, megatronLaunch, MEGATRON_LEFT_OUT, NEMO_LAUNCH, NEMO_LEFT_OUT, plannedClusterLine, tokenizerNote, type CoreRequirement,
} from './export-header.ts';
import { megatronGradReduceInBf16, nemoGradientText } from './export-gradients.ts';
import { nemoFsdpStrategy, nemoFsdpText } from './export-nemo-fsdp.ts';
import { nemoLegacyWarning, nemoSplitLines } from './export-nemo-split.ts';
import { recomputeNumLayers } from './export-recompute.ts';
import { megatronEnvironment, megatronSharding, usesMegatronFsdp } from './export-sharding.ts';
import { presetTokenizer } from './export-tokenizer.ts';
import { DEFAULT_VOCAB_DIVISOR, unpaddedRowsNote, vocabPadding } from './export-vocab.ts';

/** What the caller knows of the plan that the scenario does not say. */
export interface ExportOptions {
  /**
   * Why the plan's cluster size, where it was one of several (`trainplan nodes --frontier`: "the time–cost curve's
   * cheapest size"), for the header line that names the size.
   */
  readonly sizeWhy?: string;
}

/** A runnable plan and its layer split, or undefined when the scenario does not validate, resolve or pass checkPlan. */
function planOf(scenario: unknown): { plan: PlanInput; split: PipelineSplit; preset?: ModelPreset } | undefined {
  const v = validateScenario(scenario);
  if (!v.ok) return undefined;
  const r = resolveScenario(v.value);
  // A plan Megatron would refuse at start-up (checkPlan) has no command line to write.
  if (!r.ok || checkPlan(r.value.plan).length > 0) return undefined;
  const split = pipelineSplit(r.value.plan.model.layers, r.value.plan.pipeline, r.value.plan.pipelineSlots);
  const preset = typeof v.value.model === 'string' ? modelById(v.value.model) : undefined;
  return split && { plan: r.value.plan, split, ...(preset !== undefined && { preset }) };
}

/**
 * The position table's rows: a learned table keeps its published length when the run is shorter (model/shape.ts
 * maxPositions), so the checkpoint and the parameter count estimated stay the model's; rotary and ALiBi need only s.
 */
const maxPositions = (plan: PlanInput): number =>
  (plan.model.positionEmbedding === 'learned' ? learnedPositionRows(plan.model, plan.seqLength) : plan.seqLength);

/**
 * The Megatron-Core releases a plan's split and sharding need (export-header.ts): the uneven split 0.9 for Megatron-LM's
 * flags, 0.14 for NeMo's TransformerConfig names (not pinned earlier: export-nemo-split.ts), and with virtual stages
 * 0.11; the embedding or the loss counted as a layer 0.14; Megatron-FSDP 0.14 (Megatron-LM only); the unfused
 * attention's --attention-backend 0.10 (Megatron-LM only).
 */
function coreRequirements(plan: PlanInput, split: PipelineSplit, megatron: boolean, ropeScaling: boolean): CoreRequirement[] {
  const needs: CoreRequirement[] = [];
  if (split.uneven) {
    needs.push(megatron ? { minor: 9, why: 'the uneven pipeline split' }
      : { minor: 14, why: 'the uneven split\'s num_layers_in_first/last_pipeline_stage, as named where checked' });
  }
  if (split.uneven && plan.virtualStages > 1) needs.push({ minor: 11, why: 'the uneven split with virtual stages' });
  if (megatron && plan.virtualStages > 1 && (split.uneven || split.slots !== 'layers')) needs.push({ minor: 11, why: '--num-virtual-stages-per-pipeline-rank' });
  if (megatron && ropeScaling) needs.push({ minor: 11, why: '--rope-scaling-factor' });
  if (split.slots !== 'layers') needs.push({ minor: 14, why: 'the embedding or the loss counted as a layer in the pipeline split' });
  if (megatron && usesMegatronFsdp(plan)) needs.push({ minor: 14, why: 'Megatron-FSDP (--use-megatron-fsdp)' });
  if (megatron && plan.attentionKernel === 'unfused') needs.push({ minor: 10, why: '--attention-backend' });
  return needs;
}

/**
 * Sequence parallelism at TP 1: Korthikanti et al. 2022 (§4.2.2) split the LayerNorm and dropout activations over the t
 * tensor-parallel ranks, so at t = 1 it splits nothing and moves nothing, and the planner costs it so (activations.ts
 * divides by t; the collectives of one rank cost nothing). Megatron-LM's validate_args ("Disabling sequence parallelism
 * because tensor model parallelism is disabled") and NeMo turn it off there, so the exports leave it out and say why.
 */
const sequenceParallelNoOp = (plan: PlanInput): boolean => plan.sequenceParallel && plan.tensor === 1;
const writesSequenceParallel = (plan: PlanInput): boolean => plan.sequenceParallel && plan.tensor > 1;
const SEQUENCE_PARALLEL_AT_TP1 = 'sequence parallelism: left out, as at tensor-parallel size 1 it splits nothing and the plan gains nothing from it';

/**
 * A contract scenario as Megatron-LM command-line arguments (megatron/training/arguments.py names; the
 * Megatron-Core release they need is the first line), ready to paste after `pretrain_gpt.py`. Model flags are
 * included when the model is known; data, tokenizer, schedule and checkpoint paths are the user's (a comment
 * says so). Notes Megatron has no flag for come first as `#` lines, then any environment the run needs as
 * `export` lines, so the backslash-continued argument block stays one shell command. Answers `undefined`
 * for a scenario that does not validate, or that Megatron would refuse (checkPlan).
 */
export function toMegatronArgs(scenario: unknown, options: ExportOptions = {}): string | undefined {
  const planned = planOf(scenario);
  if (planned === undefined) return undefined;
  const { plan, split, preset } = planned;
  const m = plan.model;
  const v = plan.virtualStages;
  const architecture = megatronArchitecture(m, preset);
  const sharding = megatronSharding(plan);
  const vocab = vocabPadding(m.vocabSize, plan.tensor, presetTokenizer(preset));
  const notes: string[] = [
    coreVersionLine(coreRequirements(plan, split, true, preset?.ropeScalingFactor !== undefined), 'Megatron-LM arguments for pretrain_gpt.py'),
    plannedClusterLine(plan, megatronLaunch(plan), options.sizeWhy),
    MEGATRON_LEFT_OUT,
    tokenizerNote(m.vocabSize, 'add --tokenizer-type and --tokenizer-model (or --vocab-file) for it'),
    `# ${vocab.note}`,
    ...unpaddedRowsNote(vocab, m.vocabSize, plan.tensor, `drop --make-vocab-size-divisible-by ${vocab.divisor} for the default`).map((n) => `# ${n}`),
    ...architecture.notes,
    ...sharding.notes,
    ...(sequenceParallelNoOp(plan) ? [`# ${SEQUENCE_PARALLEL_AT_TP1}; Megatron-LM's validate_args turns --sequence-parallel off there, with a warning`] : []),
  ];
  const args: string[] = [
    `--num-layers ${m.layers}`, `--hidden-size ${m.hiddenSize}`, `--num-attention-heads ${m.attentionHeads}`,
    `--ffn-hidden-size ${m.ffnHiddenSize}`, `--seq-length ${plan.seqLength}`, `--max-position-embeddings ${maxPositions(plan)}`,
    ...architecture.lines,
  ];
  if (vocab.divisor !== DEFAULT_VOCAB_DIVISOR) args.push(`--make-vocab-size-divisible-by ${vocab.divisor}`);
  args.push(
    `--tensor-model-parallel-size ${plan.tensor}`, `--pipeline-model-parallel-size ${plan.pipeline}`,
    `--micro-batch-size ${plan.microBatchSize}`, `--global-batch-size ${plan.globalBatchSize}`,
  );
  // Uneven split: first and last stage's layers (the middle ones follow); transformer_config.py "Uneven PP".
  if (split.uneven) args.push(`--decoder-first-pipeline-num-layers ${split.first}`, `--decoder-last-pipeline-num-layers ${split.last}`);
  // The embedding and/or the loss counted as a layer each (transformer_config.py account_for_*_in_pipeline_split).
  const { embedding, loss } = slotsTaken(split.slots);
  if (embedding) args.push('--account-for-embedding-in-pipeline-split');
  if (loss) args.push('--account-for-loss-in-pipeline-split');
  if (plan.context > 1) args.push(`--context-parallel-size ${plan.context}`);
  // arguments.py: with an uneven split, "please use --num-virtual-stages-per-pipeline-rank to specify virtual
  // pipeline parallel degree"; an even one may give the layers per chunk. A split counting the embedding or the
  // loss has chunks of unequal layer counts (the first and last one layer fewer), so it names the degree too.
  const byDegree = split.uneven || split.slots !== 'layers';
  if (v > 1) args.push(byDegree ? `--num-virtual-stages-per-pipeline-rank ${v}` : `--num-layers-per-virtual-pipeline-stage ${m.layers / (plan.pipeline * v)}`);
  if (writesSequenceParallel(plan)) args.push('--sequence-parallel');
  if (plan.recompute === 'selective') args.push('--recompute-granularity selective');
  if (plan.recompute === 'full') {
    args.push('--recompute-granularity full', '--recompute-method block', `--recompute-num-layers ${recomputeNumLayers(plan.recomputeLayers, split, v)}`);
  }
  args.push(...sharding.args);
  if (plan.precision === 'bf16') args.push('--bf16');
  if (plan.precision === 'fp16') args.push('--fp16');
  if (plan.precision === 'fp8') args.push('--bf16', '--fp8-format hybrid');
  if (plan.precision === 'fp8' && plan.fp8Params === true) args.push('--fp8-param-gather');
  // Megatron-Core's --attention-backend (AttnBackend in megatron/core/transformer/enums.py: flash, fused, unfused, local,
  // auto) defaults to auto, which lets Transformer Engine pick its flash or fused kernel: the flash plan's, so it keeps
  // the flag it has always had. The unfused plan (Megatron 2021's softmax attention, SC'21's runs) must name its backend,
  // or the run it plans for would use a fused kernel: unfused sets NVTE_UNFUSED_ATTN=1 and the other two 0 (LanguageModule).
  if (plan.attentionKernel === 'flash') args.push('--use-flash-attn');
  if (plan.attentionKernel === 'unfused') args.push('--attention-backend unfused');
  // Megatron fuses gradient accumulation into the weight-gradient GEMM by default ('fused', and 'fused-16-bit', whose
  // 16-bit buffer --grad-reduce-in-bf16 below asks for); an unfused add is its fallback, and Megatron-FSDP requires it
  // (its README's "Required Configurations").
  if (!fusedAccumulation(plan.gradientAccumulation) || usesMegatronFsdp(plan)) args.push('--no-gradient-accumulation-fusion');
  if (plan.gradientAccumulation === 'fp32') args.push('--accumulate-allreduce-grads-in-fp32');
  // 16-bit gradients (a 16-bit add, or ZeRO's 16-bit buffer whatever the stage) under --bf16: without the flag Megatron
  // keeps them fp32, twice the bytes planned (export-gradients.ts).
  if (megatronGradReduceInBf16(plan)) args.push('--grad-reduce-in-bf16');
  if (!plan.dropout) args.push('--attention-dropout 0', '--hidden-dropout 0');
  if (plan.overlapGradReduce) args.push('--overlap-grad-reduce');
  // Needs --sequence-parallel ("Tensor parallel communication/GEMM overlap can happen only when sequence
  // parallelism is enabled"), which checkPlan makes sure of.
  if (plan.overlapTensorParallelComm) args.push('--tp-comm-overlap');
  // arguments.py: `--no-overlap-p2p-communication` (store_false, dest overlap_p2p_comm): the overlap is on by
  // default with the interleaved schedule (Megatron-LM had the opt-in `--overlap-p2p-communication` when the
  // option arrived in 2023 and the negative form by early 2024, well before Megatron-Core 0.9); without
  // interleaving Megatron turns it off itself ("non-interleaved schedule does not support overlapping p2p
  // communication"), so no flag either way.
  if (v > 1 && !plan.overlapPipelineComm) args.push('--no-overlap-p2p-communication');
  // Scatter-gather of pipeline sends was Megatron 2021's default and is gone from Megatron-Core: no flag either way.
  return [...notes, ...megatronEnvironment(plan), args.join(' \\\n  ')].join('\n');
}

/** Whether NeMo 1.x turns gradient-accumulation fusion off: fused_adam at pipeline size 1 with data parallelism (toNemoYaml). */
const nemoUnfusesOnFusedAdam = (plan: PlanInput, optimizer: string): boolean => optimizer === 'fused_adam' && plan.pipeline === 1 && plan.data > 1;

/**
 * NeMo's optimizer for a plan's state sharding. ZeRO-2 and ZeRO-3 run on torch FSDP with fused_adam (export-nemo-fsdp.ts:
 * NeMo asserts "Distributed optimizer cannot be used with FSDP"). The distributed optimizer and ZeRO-1 take
 * distributed_fused_adam, Apex's DistributedFusedAdam. Apex's docstring calls it "the ZeRO-2 algorithm", but NeMo builds
 * it with contiguous_grad_buffer (MegatronBaseModel.setup_optimization: `get_config_arg('contiguous_grad_buffer', True)`,
 * and a ValueError when it is off with megatron_amp_O2), a persistent buffer of every parameter's gradient (Apex:
 * "allocate gradient buckets out of a large persistent buffer … prevents some memory optimizations"): the gradients are
 * held whole, the optimizer state sharded, which is ZeRO-1's footprint.
 */
function nemoOptimizer(plan: PlanInput): { name: string; note?: string } {
  if (plan.sharding === 'none' || nemoFsdpStrategy(plan) !== undefined) return { name: 'fused_adam' };
  if (plan.sharding === 'distributed-optimizer') return { name: 'distributed_fused_adam' };
  return {
    name: 'distributed_fused_adam',
    note: 'ZeRO-1 (this plan), which NeMo has no setting of its own for: the nearest is distributed_fused_adam, which shards the optimizer '
      + 'state over the data-parallel ranks and, in the contiguous gradient buffer NeMo allocates (optim.contiguous_grad_buffer, on by default '
      + 'and required with megatron_amp_O2), holds the gradients whole, as ZeRO-1 does',
  };
}

/**
 * The same plan as a NeMo (Megatron GPT) YAML fragment under `model:` (NeMo 1.x / NeMo-Megatron
 * launcher config keys), ready to paste into a training config. An uneven pipeline split is written as
 * Megatron-Core's TransformerConfig fields num_layers_in_first/last_pipeline_stage, which NeMo 1.x's
 * MegatronBaseModel.build_transformer_config passes through from `model:` by name ("then config"). megatron_amp_O2 and
 * optim.grad_sync_dtype hold the plan's gradient bytes, or a note says what the run holds (export-gradients.ts); a ZeRO-2
 * or ZeRO-3 plan runs on torch FSDP (export-nemo-fsdp.ts); a plan NeMo's legacy model cannot start says so on the first
 * line (export-nemo-split.ts nemoLegacyWarning).
 */
export function toNemoYaml(scenario: unknown, options: ExportOptions = {}): string | undefined {
  const planned = planOf(scenario);
  if (planned === undefined) return undefined;
  const { plan, split, preset } = planned;
  const m = plan.model;
  const optimizer = nemoOptimizer(plan);
  const architecture = nemoArchitecture(m, preset);
  const vocab = vocabPadding(m.vocabSize, plan.tensor, presetTokenizer(preset));
  // A ZeRO-2/3 plan's FSDP keys say its gradients too (export-nemo-fsdp.ts); any other plan's, export-gradients.ts.
  const fsdp = nemoFsdpText(plan);
  const gradients = fsdp ?? nemoGradientText(plan, optimizer.name === 'distributed_fused_adam');
  const lines = [
    ...nemoLegacyWarning(plan, split, nemoUsesLegacyModel(m)),
    coreVersionLine(coreRequirements(plan, split, false, false), 'NeMo 1.x config keys (NeMo-Megatron launcher) to merge into a training config'),
    plannedClusterLine(plan, NEMO_LAUNCH, options.sizeWhy),
    NEMO_LEFT_OUT,
    tokenizerNote(m.vocabSize, 'set model.tokenizer (library, type, model or vocab_file) for it'),
    'trainer:',
    `  num_nodes: ${plan.nodes}`,
    `  devices: ${plan.gpusPerNode}`,
    `  precision: ${plan.precision === 'fp16' ? 16 : 'bf16'}`,
    'model:',
    nemoModelClassLine(m),
    `  micro_batch_size: ${plan.microBatchSize}`,
    `  global_batch_size: ${plan.globalBatchSize}`,
    `  tensor_model_parallel_size: ${plan.tensor}`,
    `  pipeline_model_parallel_size: ${plan.pipeline}`,
    `  virtual_pipeline_model_parallel_size: ${plan.virtualStages > 1 ? plan.virtualStages : 'null'}`,
    ...nemoSplitLines(plan, split),
    `  context_parallel_size: ${plan.context}`,
    ...(sequenceParallelNoOp(plan) ? [`  # ${SEQUENCE_PARALLEL_AT_TP1}; NeMo's MegatronBaseModel._validate_and_override_config sets sequence_parallel False there`] : []),
    `  sequence_parallel: ${writesSequenceParallel(plan)}`,
    `  encoder_seq_length: ${plan.seqLength}`,
    `  max_position_embeddings: ${maxPositions(plan)}`,
    `  num_layers: ${m.layers}`,
    `  hidden_size: ${m.hiddenSize}`,
    `  ffn_hidden_size: ${m.ffnHiddenSize}`,
    `  num_attention_heads: ${m.attentionHeads}`,
    `  num_query_groups: ${m.kvHeads}`,
    ...architecture.notes,
    ...architecture.lines,
    `  # ${vocab.note}`,
    ...unpaddedRowsNote(vocab, m.vocabSize, plan.tensor, 'set make_vocab_size_divisible_by to 128').map((n) => `  # ${n}`),
    `  make_vocab_size_divisible_by: ${vocab.divisor}`,
    `  activations_checkpoint_granularity: ${plan.recompute === 'none' ? 'null' : plan.recompute}`,
    `  activations_checkpoint_method: ${plan.recompute === 'full' ? 'block' : 'null'}`,
    // NeMo hands this to Megatron-Core's recompute_num_layers: per model chunk, as for Megatron-LM.
    `  activations_checkpoint_num_layers: ${plan.recompute === 'full' ? recomputeNumLayers(plan.recomputeLayers, split, plan.virtualStages) : 'null'}`,
    `  hidden_dropout: ${plan.dropout ? 0.1 : 0}`,
    `  attention_dropout: ${plan.dropout ? 0.1 : 0}`,
    `  use_flash_attention: ${plan.attentionKernel === 'flash'}`,
    // Written as NeMo runs it: MegatronBaseModel._validate_and_override_config turns the fusion off under FSDP ("When using
    // FSDP, gradient accumulation cannot be fused") and for fused_adam at PP 1 with DP > 1 ("When not using pipeline model
    // parallel, gradient accumulation fusion can only be used with distributed_fused_adam").
    `  gradient_accumulation_fusion: ${fsdp === undefined && fusedAccumulation(plan.gradientAccumulation) && !nemoUnfusesOnFusedAdam(plan, optimizer.name)}`,
    ...(fsdp === undefined && fusedAccumulation(plan.gradientAccumulation) && nemoUnfusesOnFusedAdam(plan, optimizer.name)
      ? ['  # gradient_accumulation_fusion: NeMo allows it at pipeline size 1 only with distributed_fused_adam (the distributed optimizer); '
        + 'without it each weight-gradient GEMM writes a gradient the next kernel adds into the fp32 main gradient']
      : []),
    ...gradients.notes,
    ...gradients.model,
  ];
  if (plan.precision === 'fp8') lines.push('  fp8: true', '  fp8_hybrid: true');
  if (plan.precision === 'fp8' && plan.fp8Params === true) lines.push('  fp8_params: true');
  if (plan.overlapTensorParallelComm) lines.push('  ub_tp_comm_overlap: true');
  // NeMo's model.overlap_p2p_comm (off by default, unlike Megatron-LM's flag) overlaps the interleaved schedule's sends;
  // batch_p2p_comm must be off with it (Megatron-Core schedules.py: "Can not use both overlap_p2p_comm and batch_p2p_comm").
  if (plan.overlapPipelineComm && plan.virtualStages > 1) lines.push('  overlap_p2p_comm: true', '  batch_p2p_comm: false');
  if (optimizer.note !== undefined) lines.push(`  # ${optimizer.note}`);
  lines.push('  optim:', `    name: ${optimizer.name}`, ...gradients.optim);
  if (optimizer.name === 'distributed_fused_adam' && plan.overlapGradReduce) lines.push('    overlap_grad_sync: true', '    overlap_param_sync: true');
  return `${lines.join('\n')}\n`;
}
