import { GPU_IDS, GPUS } from '@trainplan/hardware';
import { pipelineSplit, slotCount, splitsIntoChunks, type PipelineSlots, type PipelineSplit } from '@trainplan/model';
import { countOf, formatGrouped } from '@trainplan/units';
import type { PlanInput } from './plan-input.ts';
import { runsBf16, runsFlashAttention } from './gpu-support.ts';

/**
 * Which of Megatron's rules a plan breaks: one id per rule, so callers sort refusals without reading the prose.
 * 'heads-indivisible' is the rule that tensor parallelism splits the layer evenly: attention heads, key/value heads
 * and the FFN width alike (the search's prune reasons count them as one, prune-reason.ts).
 */
export type PlanRule =
  | 'gpus-indivisible' | 'heads-indivisible' | 'batch-indivisible' | 'interleave-rounds' | 'too-many-stages' | 'pipeline-split'
  | 'interleave-needs-pipeline' | 'interleave-indivisible' | 'interleave-needs-overlap' | 'sequence-indivisible'
  | 'sequence-parallel-indivisible' | 'context-needs-fused-attention' | 'tp-overlap-needs-sequence-parallel' | 'tp-overlap-crosses-nvlink'
  | 'precision-unsupported' | 'attention-unsupported' | 'recompute-layers' | 'recompute-layers-needs-full' | 'fp8-params-needs-fp8'
  | 'fp8-params-needs-distributed-optimizer' | 'zero-with-pipeline';

/**
 * The rules a size breaks by not dividing another (the contract's reason "indivisible"); every other
 * rule is a setting that cannot go with another, or with the GPU (reason "invalid").
 */
const DIVISIBILITY_RULES: ReadonlySet<PlanRule> = new Set<PlanRule>([
  'gpus-indivisible', 'heads-indivisible', 'batch-indivisible', 'interleave-rounds', 'too-many-stages', 'pipeline-split',
  'interleave-indivisible', 'sequence-indivisible', 'sequence-parallel-indivisible', 'recompute-layers',
]);

/** The contract's reason for a plan refused with `issues`: indivisible if any size does not divide, else invalid. */
export const refusalKind = (issues: readonly PlanIssue[]): 'indivisible' | 'invalid' =>
  issues.some((i) => DIVISIBILITY_RULES.has(i.rule)) ? 'indivisible' : 'invalid';

/** A reason a plan cannot run as asked, naming the scenario-contract field to change and the rule. */
export interface PlanIssue {
  readonly path: string;
  readonly message: string;
  readonly rule: PlanRule;
}

/** Records one issue (a plain function: no closure is made per plan checked, the search checks millions). */
const push = (issues: PlanIssue[], path: string, rule: PlanRule, message: string): void => { issues.push({ path, rule, message }); };

/** The interleave-needs-overlap rule in words: the planner's refusal and the search's prune reason say it alike. */
export const INTERLEAVE_NEEDS_OVERLAP = 'the interleaved schedule on 2 pipeline stages needs overlapped pipeline sends (overlapPipelineComm); '
  + 'without them Megatron asks for more than 2 stages';

/**
 * Divisibility and consistency rules Megatron-LM enforces at start-up (megatron/training/arguments.py
 * validate_args, megatron/core/transformer/transformer_config.py __post_init__, parallel_state.py),
 * stated as data. An empty list means the plan can run (memory aside).
 */

export function checkPlan(input: PlanInput): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const { model, tensor: t, pipeline: p, context: c, data: d } = input;
  const gpus = input.nodes * input.gpusPerNode;

  if (t * p * c * d !== gpus) {
    push(issues, 'parallelism.data', 'gpus-indivisible', `tensor × pipeline × context × data = ${[t, p, c, d].map((x) => formatGrouped(x)).join('×')} = ${formatGrouped(t * p * c * d)}, but the cluster has ${countOf(gpus, 'GPU')}`);
  }
  if (model.attentionHeads % t !== 0) push(issues, 'parallelism.tensor', 'heads-indivisible', `${model.attentionHeads} attention heads do not split evenly over ${t} tensor-parallel ranks`);
  // Megatron-Core splits the key/value groups over the TP ranks as it splits the heads (attention.py:
  // num_query_groups_per_partition = divide(num_query_groups, world_size), which asserts divisibility): TP 16 on
  // Llama 3's 8 KV heads does not start, though an inference engine would replicate them (vLLM).
  else if (model.kvHeads % t !== 0) {
    push(issues, 'parallelism.tensor', 'heads-indivisible', `${model.kvHeads} key/value heads do not split evenly over ${t} tensor-parallel ranks`);
  }
  if (model.ffnHiddenSize % t !== 0) push(issues, 'parallelism.tensor', 'heads-indivisible', `FFN size ${formatGrouped(model.ffnHiddenSize)} does not split evenly over ${t} ranks`);
  checkPipeline(input, issues);
  const perStep = input.microBatchSize * d;
  if (input.globalBatchSize % perStep !== 0) {
    push(issues, 'training.globalBatchSize', 'batch-indivisible', `global batch ${formatGrouped(input.globalBatchSize)} is not a multiple of micro-batch × data-parallel = ${formatGrouped(input.microBatchSize)}×${formatGrouped(d)} = ${formatGrouped(perStep)}`);
  } else if (input.virtualStages > 1 && p > 1 && (input.globalBatchSize / perStep) % p !== 0) {
    // megatron/core/pipeline_parallel/schedules.py: "number of microbatches ... is not divisible by
    // pipeline-model-parallel-size ... when using interleaved schedule".
    push(issues, 'parallelism.virtualStages', 'interleave-rounds', `the interleaved schedule needs the micro-batches per step (${formatGrouped(input.globalBatchSize / perStep)}) in whole rounds of the ${p} pipeline stages`);
  }
  checkSequence(input, issues);
  // No framework trainplan exports to starts ZeRO-2 or 3 under a pipeline: DeepSpeed's PipelineEngine asserts
  // `zero_optimization_stage() < ZeroStageEnum.gradients, "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"`
  // (deepspeed/runtime/pipe/engine.py), and Megatron-FSDP, the Megatron export's ZeRO-2/3 (export-sharding.ts), composes
  // with TP, CP and EP only (NVIDIA/Megatron-LM#1455, open; PP is on its roadmap, #4003). ZeRO-1's split is what both run.
  if ((input.sharding === 'zero-2' || input.sharding === 'zero-3') && p > 1) {
    push(issues, 'parallelism.zeroStage', 'zero-with-pipeline', `ZeRO-${input.sharding.slice(5)} does not run with a pipeline (DeepSpeed and Megatron-FSDP `
      + 'refuse it): use zeroStage 1, distributedOptimizer true or pipeline 1');
  }
  checkPrecision(input, issues);
  checkRecompute(input, issues);
  // Megatron-LM arguments.py: --fp8-param-gather is "only supported with distributed optimizer, torch fsdp2, megatron fsdp":
  // the fp32 master weights it casts from live in the sharded optimizer. ZeRO-3 is exported as Megatron-FSDP (export-sharding.ts).
  if (input.fp8Params === true && input.precision === 'fp8' && input.sharding !== 'distributed-optimizer' && input.sharding !== 'zero-3') {
    const instead = input.sharding === 'none' ? '' : ` in place of zeroStage ${input.sharding.slice(5)}`;
    // ZeRO-2 is exported as Megatron-FSDP too (optim_grads), which that check accepts: the refusal is trainplan's own, so the
    // message says what trainplan plans rather than what Megatron runs (QA). Short: the widget bundle is at its 80 kB budget.
    push(issues, 'training.fp8Params', 'fp8-params-needs-distributed-optimizer',
      `trainplan plans fp8Params only with the distributed optimizer or ZeRO-3: use distributedOptimizer true${instead}, or zeroStage 3`);
  }
  return issues;
}

/** The layer split over the stages and the interleaved schedule's rules. */
function checkPipeline(input: PlanInput, issues: PlanIssue[]): void {
  const { model, pipeline: p, virtualStages: v } = input;
  const L = model.layers;
  if (p > L) {
    push(issues, 'parallelism.pipeline', 'too-many-stages', `${p} pipeline stages for ${L} layers: each stage needs at least one layer`);
    return;
  }
  const slots = input.pipelineSlots ?? 'layers';
  const split = pipelineSplit(L, p, slots);
  if (split === undefined) {
    // The stage counts suggested are those this cluster can also take: TP × PP × CP dividing its GPUs (QA: 49 and 48 on 64 GPUs).
    const gpus = input.nodes * input.gpusPerNode;
    const fitsGpus = (q: number): boolean => gpus % (input.tensor * q * input.context) === 0;
    push(issues, 'parallelism.pipeline', 'pipeline-split', noSplitText(L, p, slots, fitsGpus));
    return;
  }
  if (v > 1 && p === 1) {
    push(issues, 'parallelism.virtualStages', 'interleave-needs-pipeline', 'virtual stages need a pipeline of more than one stage');
    return;
  }
  if (!splitsIntoChunks(split, v)) {
    // transformer_config.py: the first and last stage's layers and each middle stage's "must be divisible
    // by virtual pipeline parallel degree"; an even split (arguments.py, --num-layers-per-virtual-pipeline-stage)
    // needs the layers per stage divisible by the layers per model chunk, the same rule. With the embedding or
    // the loss counted, the slots must make p·v equal chunks.
    push(issues, 'parallelism.virtualStages', 'interleave-indivisible', slots === 'layers'
      ? `the interleaved schedule splits every stage's layers into ${v} equal model chunks; ${describeSplit(split)}${slotsThatSplitText(L, p, v)}`
      : `${L} layers with ${slotWords(slots)} make ${slotCount(L, slots)} slots, which do not split into the interleaved schedule's ${p} × ${v} equal model chunks`);
  }
  if (v > 1 && p === 2 && !input.overlapPipelineComm) {
    // arguments.py: "When interleaved schedule is used and p2p communication overlap is disabled,
    // pipeline-model-parallel size should be greater than 2".
    push(issues, 'parallelism.virtualStages', 'interleave-needs-overlap', INTERLEAVE_NEEDS_OVERLAP);
  }
}

/** Why L layers have no split over p stages with these slots; `fitsGpus`: whether the cluster's GPUs take q stages. */
function noSplitText(L: number, p: number, slots: PipelineSlots, fitsGpus: (q: number) => boolean): string {
  if (slots !== 'layers') {
    // transformer_config.py: "num_layers += 1" for each of the embedding and the loss accounted for, then
    // "must be divisible by" the pipeline size.
    const total = slotCount(L, slots);
    const sizes = Array.from({ length: L - 1 }, (_, i) => i + 2).filter((n) => total % n === 0);
    return `${L} layers and ${slotWords(slots)} make ${total} slots, which ${p} pipeline stages do not divide `
      + `(--account-for-embedding/loss-in-pipeline-split): use ${sizes.length > 0 ? `${sizes.join(', ')} stages` : 'another pipeline size'}, `
      + 'or leave embeddingInPipelineSplit and lossInPipelineSplit off';
  }
  const b = Math.ceil(L / p);
  const left = L - (p - 2) * b;
  // Megatron's uneven split (--decoder-first/last-pipeline-num-layers) would also take thinner middle stages with thicker
  // first and last ones; trainplan plans middle stages of ⌈L/p⌉ only (pipelineSplit, packages/model), so it says so.
  const shortBy = left < 0
    ? `the ${p - 2} middle stages at ⌈L/p⌉ = ${countOf(b, 'layer')} each take ${(p - 2) * b}, more than the ${L}`
    : `${countOf(b, 'layer')} on each of the ${p - 2} middle stages (⌈L/p⌉) leave ${left} for the first and last, which need at least one each`;
  return `${L} layers have no split over ${p} stages that trainplan plans: ${shortBy} (Megatron's --decoder-first/last-pipeline-num-layers `
    + `allow thinner middle stages; trainplan plans ⌈L/p⌉); ${fewerStagesText(L, p, fitsGpus)}${slotsThatSplitText(L, p, 1)}`;
}

/**
 * "; or count the embedding and the loss each as a layer (parallelism.embeddingInPipelineSplit and lossInPipelineSplit):
 * each stage then holds 16 slots": the fewest of Megatron's --account-for-embedding/loss-in-pipeline-split flags under
 * which L layers split over p stages into v equal model chunks (transformer_config.py adds a slot for each), or nothing
 * when none does. Llama 3.1 405B's 126 layers on PP 8 · v 8 need both (QA: NeMo's and Megatron-Bridge's 405B recipes set
 * them; without, the stages hold 15, 16 × 6, 15 layers).
 */
function slotsThatSplitText(L: number, p: number, v: number): string {
  const slots = (['embedding', 'loss', 'embedding-and-loss'] as const).find((s) => {
    const split = pipelineSplit(L, p, s);
    return split !== undefined && splitsIntoChunks(split, v);
  });
  if (slots === undefined) return '';
  const fields = slots === 'embedding-and-loss' ? 'embeddingInPipelineSplit and lossInPipelineSplit' : slots === 'embedding' ? 'embeddingInPipelineSplit' : 'lossInPipelineSplit';
  const each = slots === 'embedding-and-loss' ? ' each' : '';
  return `; or count ${slotWords(slots)}${each} as a layer (parallelism.${fields}): each stage then holds ${countOf(slotCount(L, slots) / p, 'slot')}`;
}

/**
 * "use fewer stages: 32 is the most that split and that the GPUs take": of the stage counts below p that L layers have a
 * split over (packages/model pipelineSplit) and that the cluster's GPUs divide into, the most, and the most that split the
 * layers evenly where that is fewer; not every count between has a split (96 layers on 26 stages has none).
 */
function fewerStagesText(L: number, p: number, fitsGpus: (q: number) => boolean): string {
  let most: number | undefined;
  let even: number | undefined;
  for (let q = Math.min(p - 1, L); q >= 1 && even === undefined; q--) {
    if (!fitsGpus(q) || pipelineSplit(L, q) === undefined) continue;
    most ??= q;
    if (L % q === 0) even = q;
  }
  if (most === undefined) return 'use fewer stages';
  const taken = 'that the GPUs take';
  if (most === even) return `use fewer stages: ${most} is the most that split, evenly, ${taken}`;
  return `use fewer stages: ${most} is the most that split ${taken}${even === undefined ? '' : `, ${even} the most that split evenly`}`;
}

const slotWords = (slots: PipelineSlots): string =>
  slots === 'embedding-and-loss' ? 'the embedding and the loss' : slots === 'embedding' ? 'the embedding' : 'the loss';

/** "each stage holds 12 layers", or "the stages hold 2, 4 × 23, 2 layers" for an uneven split. */
function describeSplit(split: PipelineSplit): string {
  const p = split.stages.length;
  if (!split.uneven) return `each stage holds ${countOf(split.first, 'layer')}`;
  return `the stages hold ${p <= 3 ? split.stages.join(', ') : `${split.first}, ${split.middle} × ${p - 2}, ${split.last}`} layers`;
}

/** Context and sequence parallelism split the sequence; Transformer Engine and Megatron split it evenly. */
function checkSequence(input: PlanInput, issues: PlanIssue[]): void {
  const { tensor: t, context: c, seqLength: s } = input;
  if (s % c !== 0) {
    push(issues, 'parallelism.context', 'sequence-indivisible', `sequence length ${s} does not split evenly over ${c} context-parallel ranks`);
  } else if (c > 1 && (s / c) % 2 !== 0) {
    // Transformer Engine splits each rank's chunk in two for causal load balancing: "Sequence length per GPU needs to be divisible by 2!"
    push(issues, 'parallelism.context', 'sequence-indivisible', `sequence length ${s} does not split into 2 × ${c} equal chunks for load-balanced ring attention`);
  } else if (input.sequenceParallel && t > 1 && (s / c) % t !== 0) {
    // megatron/core/tensor_parallel/mappings.py _split_along_first_dim / _reduce_scatter_along_first_dim:
    // the [s/c, b, h] activations split on the sequence, "First dimension of the tensor should be
    // divisible by tensor parallel size".
    push(issues, 'parallelism.sequenceParallel', 'sequence-parallel-indivisible', `sequence parallelism splits each rank's ${s / c} tokens over ${t} tensor-parallel ranks, which does not divide them`);
  }
  // megatron/core/transformer/dot_product_attention.py: "Context parallelism is only supported by TEDotProductAttention!"
  if (c > 1 && input.attentionKernel === 'unfused') {
    push(issues, 'parallelism.context', 'context-needs-fused-attention', 'context parallelism runs only in Transformer Engine\'s fused attention: use attentionKernel "flash" or context 1');
  }
  // arguments.py: sequence_parallel is turned off when tensor_model_parallel_size == 1, then "Tensor parallel
  // communication/GEMM overlap can happen only when sequence parallelism is enabled" (--tp-comm-overlap).
  if (input.overlapTensorParallelComm && !(input.sequenceParallel && t > 1)) {
    push(issues, 'parallelism.overlapTensorParallelComm', 'tp-overlap-needs-sequence-parallel', t > 1
      ? 'tensor-parallel communication overlap (--tp-comm-overlap) needs sequence parallelism: set sequenceParallel'
      : 'tensor-parallel communication overlap (--tp-comm-overlap) needs sequence parallelism, which Megatron turns off at tensor 1');
  }
  // Transformer Engine's comm+GEMM overlap (Userbuffers) moves data through CUDA IPC / multicast handles, which reach
  // only GPUs of one NVLink domain: "currently only possible with single-node tensor-parallelism"
  // (NVIDIA/TransformerEngine#1071; a multi-node NVLink domain, GB200 NVL72, since TE 2.2: #1470).
  if (input.overlapTensorParallelComm && t > input.nvlinkDomainGpus) {
    push(issues, 'parallelism.overlapTensorParallelComm', 'tp-overlap-crosses-nvlink',
      `tensor-parallel communication overlap (--tp-comm-overlap) runs only within an NVLink domain (${countOf(input.nvlinkDomainGpus, 'GPU')}): tensor ${t} crosses it`);
  }
}

/**
 * What the GPU cannot run of the plan's arithmetic: its precision's tensor cores and its attention
 * kernel. The search asks this alone of its base plan, before any parallel strategy is chosen.
 */
export function gpuIssues(input: Pick<PlanInput, 'gpu' | 'precision' | 'attentionKernel' | 'fp8Params'>): PlanIssue[] {
  const issues: PlanIssue[] = [];
  checkPrecision(input, issues);
  return issues;
}

/** The GPU presets with FP8 tensor cores (Hopper and Blackwell), as an FP8 refusal offers them. */
const fp8GpuIds = (): string[] => GPU_IDS.filter((id) => GPUS[id]?.peakFlops.fp8 !== undefined);

function checkPrecision(input: Pick<PlanInput, 'gpu' | 'precision' | 'attentionKernel' | 'fp8Params'>, issues: PlanIssue[]): void {
  if (input.fp8Params === true && input.precision !== 'fp8') {
    // On a GPU without FP8 tensor cores, precision "fp8" would be refused in turn: say what runs it instead.
    const fix = input.gpu.peakFlops.fp8 === undefined
      ? `${input.gpu.name} has no FP8 tensor cores: leave fp8Params out, or use a GPU that has them (${fp8GpuIds().join(', ')})`
      : `use precision "fp8" with it (the plan's precision is ${input.precision})`;
    push(issues, 'training.fp8Params', 'fp8-params-needs-fp8', `fp8Params keeps the weights in FP8: ${fix}`);
  }
  if (input.precision === 'fp8' && input.gpu.peakFlops.fp8 === undefined) {
    push(issues, 'training.precision', 'precision-unsupported',
      `${input.gpu.name} has no FP8 tensor cores: use precision "${runsBf16(input.gpu) ? 'bf16' : 'fp16'}", or a GPU that has them (${fp8GpuIds().join(', ')})`);
  }
  if (input.precision === 'bf16' && !runsBf16(input.gpu)) {
    push(issues, 'training.precision', 'precision-unsupported', `${input.gpu.name} has no BF16 tensor cores: use precision "fp16"`);
  }
  if (input.attentionKernel === 'flash' && !runsFlashAttention(input.gpu)) {
    push(issues, 'training.attentionKernel', 'attention-unsupported', `${input.gpu.name} cannot run FlashAttention (Ampere or newer): use attentionKernel "unfused"`);
  }
}

function checkRecompute(input: PlanInput, issues: PlanIssue[]): void {
  const { recomputeLayers: n, virtualStages: v } = input;
  if (n === undefined) return;
  if (input.recompute !== 'full') {
    push(issues, 'parallelism.recomputeLayers', 'recompute-layers-needs-full', 'recomputeLayers applies only with recompute "full"');
  } else if (v > 1 && n % v !== 0) {
    // Megatron applies --recompute-num-layers (method block) in each model chunk: TransformerBlock
    // checkpoints the first recompute_num_layers of its own layers, and a stage holds v chunks.
    push(issues, 'parallelism.recomputeLayers', 'recompute-layers', `with ${v} model chunks per stage Megatron recomputes the same number of layers in each: `
      + `recomputeLayers ${n} per stage is not a multiple of ${v}`);
  }
}
