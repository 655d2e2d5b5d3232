/**
 * The scenario of ../shared/docs/scenario-contract.md as one schema definition, from which come
 * both the validator (`validateScenario`, `validateScenarios`) and the published JSON Schema
 * (`scenarioJsonSchema`, `scenariosJsonSchema`). Field names are the contract's and never change.
 *
 * Defaults. The contract says "Omitted fields take the defaults above", and "above" is an example
 * (GPT-3 175B with recompute "full" and tensor 8). We read it as naming which fields have defaults,
 * not as the default values: an omitted field takes the neutral value (tensor, pipeline, virtualStages,
 * context 1; sequenceParallel and distributedOptimizer false; recompute "none"; microBatchSize 1;
 * precision "bf16", which the example shows), so omitting a field never turns a feature on.
 *
 * Only checks about the input itself live here; whether a preset exists, whether the degrees divide
 * the GPUs or the model, and whether it fits in memory are the planner's answers.
 */
import { billion, formatGrouped, million, thousand, trillion } from '@trainplan/units';
import { clusterGpusCap, MAX_CLUSTER_GPUS, MAX_CLUSTER_NODES, MAX_GPUS_PER_NODE } from './cluster-caps.ts';
import { array, map, union } from './schema/compose.ts';
import { defaultLimits } from './schema/context.ts';
import { object, optional, withDefault } from './schema/object.ts';
import { boolean, enumOf, integer, number, string } from './schema/scalars.ts';
import type { JsonSchema, Schema } from './schema/types.ts';
import { jsonSchemaDocument, validate } from './schema/validate.ts';
import type { ResolvedScenarioInput } from './resolved.ts';
import { GRADIENT_ACCUMULATION_IDS, type FieldIssue } from './wire.ts';

/** The most scenarios one request may carry: a hostile-input guard, stated in the JSON Schema too. */
export const MAX_SCENARIOS = 1024;
/**
 * An empty array of scenarios, refused alike wherever one is read: the API's 400 (validateScenarios) and the CLI's
 * `estimate` (runEstimate, which has no MAX_SCENARIOS cap to name). QA: the API said "expected an array of 1 to 1024
 * scenarios, got 0" where the CLI said this.
 */
export const NO_SCENARIOS = 'expected a scenario or a non-empty array of scenarios, got an empty array';
const MAX_ID_LENGTH = 64;

const presetId = (description: string): Schema<string> =>
  string({ minLength: 1, maxLength: MAX_ID_LENGTH, description });
const positive = (max: number, description: string): Schema<number> => integer({ min: 1, max, description });
const flag = (value: boolean, description: string) => withDefault(boolean({ description }), value);

const modelObject = map(
  object({
    layers: positive(1000, 'Transformer layers.'),
    hiddenSize: positive(million(1), 'Hidden size (model dimension).'),
    attentionHeads: positive(thousand(100), 'Attention heads.'),
    vocabSize: positive(million(10), 'Vocabulary size, in tokens.'),
    seqLength: positive(million(10), 'Sequence length, in tokens.'),
    kvHeads: optional(positive(thousand(100), 'Key/value heads (grouped-query attention); default: attentionHeads.')),
    ffnHiddenSize: optional(positive(million(10), 'Hidden size of the MLP; default: 4 × hiddenSize.')),
    gatedMlp: flag(false, 'A gated MLP (SwiGLU): three weight matrices instead of two. Default false (GPT-2/3); a Llama-style model sets true.'),
    tiedEmbeddings: flag(true, 'Input and output embeddings share one matrix. Default true (GPT-2/3); Llama 2 and Llama 3 8B, 70B and 405B set false.'),
    name: optional(string({ minLength: 1, maxLength: 200, description: 'A name for humans.' })),
    positionEmbedding: optional(enumOf(['learned', 'rotary', 'alibi'], {
      description: 'Extension: how positions are encoded. Default "learned" (GPT-2/3): a table of hiddenSize parameters per position, '
        + 'as many positions as the longer of the model\'s and the training\'s seqLength; "rotary" (Llama, Nemotron-4) and "alibi" (BLOOM) '
        + 'add none. A Llama-style model sets "rotary".',
    })),
    linearBias: optional(boolean({
      description: 'Extension: linear layers carry a bias vector. Default true (GPT-3, BLOOM); a Llama-style model sets false.',
    })),
    normalization: optional(enumOf(['layernorm', 'rmsnorm'], {
      description: 'Extension: the normalization layers. Default "layernorm" (GPT-2/3): a scale and a bias, 2 × hiddenSize parameters each; '
        + '"rmsnorm" (Llama) a scale only. A Llama-style model sets "rmsnorm".',
    })),
  }, {
    expected: 'a model object',
    description: 'A transformer given by its shape (hiddenSize a multiple of attentionHeads; kvHeads divides attentionHeads). '
      + 'What it leaves out takes GPT-2/3\'s conventions: a Llama-style model sets gatedMlp true, tiedEmbeddings false, '
      + 'positionEmbedding "rotary", linearBias false and normalization "rmsnorm".',
    // Megatron-LM's own checks (megatron/training/arguments.py): hidden_size % num_attention_heads == 0
    // (the head size, when kv_channels is not given) and num_attention_heads % num_query_groups == 0.
    refine(raw, issue) {
      const whole = (x: unknown): x is number => Number.isInteger(x) && (x as number) > 0;
      const { hiddenSize, attentionHeads, kvHeads } = raw;
      if (whole(hiddenSize) && whole(attentionHeads) && hiddenSize % attentionHeads !== 0) {
        issue('hiddenSize', `must be a multiple of attentionHeads (${attentionHeads}): each head has hiddenSize / attentionHeads dimensions, got ${hiddenSize}`);
      }
      if (whole(kvHeads) && whole(attentionHeads) && attentionHeads % kvHeads !== 0) {
        issue('kvHeads', `must divide attentionHeads (${attentionHeads}): each key/value head serves a whole group of query heads, got ${kvHeads}`);
      }
    },
  }),
  (model) => ({ ...model, kvHeads: model.kvHeads ?? model.attentionHeads, ffnHiddenSize: model.ffnHiddenSize ?? 4 * model.hiddenSize }),
);

const cluster = object({
  gpu: presetId('GPU preset id, e.g. a100-80gb; or (an extension) a system id, e.g. dgx-h100, standing for its GPU, GPUs per node and network.'),
  gpusPerNode: optional(positive(MAX_GPUS_PER_NODE, "GPUs per node; default: the GPU's preset system's.")),
  nodes: optional(positive(MAX_CLUSTER_NODES, 'Nodes; give this or gpus.')),
  gpus: optional(positive(MAX_CLUSTER_GPUS, 'GPUs in all; give this or nodes. At most 1,000,000 nodes of the machine\'s size: 8,000,000 on 8-GPU nodes.')),
  network: optional(presetId("Inter-node fabric preset id, e.g. hdr-ib-8x; default: the GPU's usual DGX-class system.")),
  communicationModel: optional(enumOf(['closed-form', 'emulated'], {
    description: "Extension: cost collectives with NCCL's closed-form model (default) or the discrete-event emulator over the topology graph.",
  })),
  oversubscription: optional(number({ min: 1, max: 64, description: 'Extension: fat-tree leaf oversubscription the emulator uses (1, the default: non-blocking).' })),
}, {
  expected: 'a cluster object',
  description: 'The machines. Exactly one of nodes and gpus is given.',
  refine(raw, issue) {
    const hasNodes = raw.nodes !== undefined;
    if (hasNodes === (raw.gpus !== undefined)) {
      issue('nodes', `give either cluster.nodes or cluster.gpus, ${hasNodes ? 'not both' : 'got neither'}`);
    }
    clusterGpusCap(raw, issue);
  },
  jsonSchema: { oneOf: [{ required: ['nodes'] }, { required: ['gpus'] }] },
});

/**
 * Precision and attention kernel: left open by validation, their defaults follow the GPU (resolve.ts), so their JSON Schema
 * states no `default` keyword, whose one value a tool filling defaults in would send (QA: `"default": "bf16"` sent on a V100,
 * which has no BF16, is refused, where leaving the field out plans FP16); the descriptions say the rule.
 */
export const precisionSchema = optional(enumOf(['fp16', 'bf16', 'fp8'], {
  description: 'Arithmetic precision of the matrix multiplies; default: bf16, or fp16 on a GPU without BF16 (V100).',
}));
export const attentionKernelSchema = optional(enumOf(['flash', 'unfused'], {
  description: "Extension: fused flash attention, or Megatron 2021–22's unfused softmax attention; default: flash, or unfused "
    + 'on a GPU that cannot run FlashAttention (V100).',
}));

const training = object({
  globalBatchSize: positive(billion(1), 'Sequences per optimizer step.'),
  microBatchSize: withDefault(positive(million(1), 'Sequences per micro-batch.'), 1),
  precision: precisionSchema,
  seqLength: optional(positive(million(10), "Sequence length, in tokens; overrides the model's.")),
  tokens: optional(number({ greaterThan: 0, max: trillion(1000), description: 'Extension: a token budget; the estimate then carries the time to train.' })),
  dropout: optional(boolean({
    description: "Extension: hidden and attention dropout on (0.1, Megatron's default). Default: as the model was trained "
      + '(off for the Llama and Nemotron presets, on for GPT-3, Megatron, MT-NLG and BLOOM), on for a model given by its shape.',
  })),
  attentionKernel: attentionKernelSchema,
  crossEntropyKernel: optional(enumOf(['fused', 'unfused'], {
    description: "Extension: the loss over the vocabulary: fused (default; NeMo's cross_entropy_loss_fusion), or Megatron-LM's "
      + 'unfused vocab-parallel cross entropy in fp32 (its default without --cross-entropy-loss-fusion).',
  })),
  gradientAccumulation: optional(enumOf(GRADIENT_ACCUMULATION_IDS, {
    description: "Extension: how weight gradients accumulate across micro-batches: 'fused' (default) inside the weight-gradient GEMM "
      + "(Megatron's gradient_accumulation_fusion, Transformer Engine) into Megatron's main-gradient buffer, fp32 under bf16 and fp8; "
      + "'fused-16-bit', fused the same into a 16-bit buffer that the data-parallel reduction sends at 2 bytes (Megatron's "
      + '--grad-reduce-in-bf16, NeMo\'s grad_reduce_in_fp32 False or grad_sync_dtype bf16, as NVIDIA\'s performance recipes set; under '
      + "fp16 the buffer is 16-bit already, so it equals 'fused'); or '16-bit' / 'fp32', a separate add per parameter per micro-batch "
      + 'into a buffer of that width (PyTorch DDP, DeepSpeed, Megatron-LM 2021), which is also the width the data-parallel reduction sends.',
  })),
  fp8Params: optional(boolean({
    description: "Extension: with precision \"fp8\", keep the weights themselves in FP8 (Megatron's --fp8-param-gather, NeMo's fp8_params, "
      + "which NVIDIA's DGX Cloud benchmarks set); default false, Megatron's default, where Transformer Engine keeps an FP8 copy and its "
      + 'transpose beside each 16-bit weight matrix: 2 bytes more per matrix parameter.',
  })),
}, { expected: 'a training object', description: 'The batch and the precision.' });

const degree = (description: string) => withDefault(positive(thousand(64), description), 1);

const parallelism = map(
  object({
    tensor: degree('Tensor-parallel degree.'),
    pipeline: degree('Pipeline-parallel degree (stages).'),
    data: optional(positive(million(10), 'Data-parallel degree; default: GPUs / (tensor · pipeline · context).')),
    virtualStages: withDefault(positive(1000, 'Model chunks per pipeline stage (interleaved schedule).'), 1),
    context: degree('Context-parallel degree.'),
    sequenceParallel: flag(false, 'Megatron sequence parallelism (with tensor parallelism).'),
    recompute: withDefault(enumOf(['none', 'selective', 'full'], { description: 'Activation recomputation.' }), 'none'),
    distributedOptimizer: flag(false, "Shard the optimizer state across data-parallel ranks, as Megatron-LM's distributed optimizer does "
      + '(fp32 main gradients beside 16-bit weights: 6 + 12/d bytes per parameter).'),
    zeroStage: optional(enumOf([0, 1, 2, 3], { description: 'DeepSpeed ZeRO stage; give this or distributedOptimizer: true. Not the same plan as '
      + "the distributed optimizer: DeepSpeed keeps 16-bit gradients (stage 1: 2 + 2 + 12/d bytes per parameter, Rajbhandari et al. 2020) "
      + "and reduces each partition to its owner, where Megatron's accumulates fp32 gradients." })),
    schedule: optional(enumOf(['1f1b', 'interleaved', 'gpipe'], {
      description: "Extension: the pipeline schedule; default: '1f1b' when virtualStages is 1, else 'interleaved'.",
    })),
    scatterGather: flag(false, "Extension: Megatron's scatter-gather of pipeline sends."),
    overlapGradReduce: flag(false, 'Extension: overlap the gradient reduction with the backward pass.'),
    recomputeLayers: optional(positive(1000, "Extension: with recompute 'full', layers recomputed per stage.")),
    overlapTensorParallelComm: flag(false, "Extension: overlap tensor-parallel collectives with GEMMs (Transformer Engine's --tp-comm-overlap)."),
    overlapPipelineComm: flag(false, "Extension: overlap pipeline sends with compute (Megatron-Core's overlap_p2p_comm)."),
    embeddingInPipelineSplit: optional(boolean({
      description: "Extension: the word embedding takes one layer's place on the first pipeline stage when the layers are split "
        + "(Megatron-Core's --account-for-embedding-in-pipeline-split): the first stage holds one layer fewer; default false.",
    })),
    lossInPipelineSplit: optional(boolean({
      description: "Extension: the output layer and the loss take one layer's place on the last pipeline stage (Megatron-Core's "
        + '--account-for-loss-in-pipeline-split); default false. With both, L + 2 slots must divide over the stages (and into p × v '
        + "chunks when interleaved): Llama 3 405B's 126 layers make 16 stages of 8 slots (Dubey et al. 2024, §3.3.2).",
    })),
    asyncTensorParallelGradComm: optional(boolean({
      description: "Extension: Megatron-LM's asynchronous tensor-parallel communication in the backward of column-parallel linears "
        + '(--async-tensor-model-parallel-allreduce, on by default in Megatron-LM since late 2021); default false.',
    })),
  }, {
    expected: 'a parallelism object',
    description: 'How the model is split over the GPUs. An omitted field takes its default, not the value the contract\'s example shows '
      + '(tensor 8, pipeline 8, recompute "full"): tensor 1, pipeline 1, context 1, virtualStages 1, recompute "none", '
      + 'sequenceParallel false, distributedOptimizer false (every GPU holds the whole model; nothing is recomputed or sharded), '
      + 'and data GPUs / (tensor · pipeline · context).',
    refine(raw, issue) {
      if (raw.zeroStage !== undefined && raw.distributedOptimizer === true) {
        issue('zeroStage', 'give either parallelism.zeroStage or parallelism.distributedOptimizer: true, not both');
      }
      const virtualStages = raw.virtualStages ?? 1;
      // Only when virtualStages is itself valid: an invalid one is reported on its own. Virtual stages are the interleaved
      // schedule's model chunks (Narayanan et al. 2021 §2.2.2): 1F1B or GPipe with v > 1 would be costed with the
      // interleaved bubble (p − 1)/(v·m) and its own schedule's memory, a plan no framework runs (QA: 1F1B at v 2 halved
      // the bubble and kept 1F1B's activations).
      const { schedule } = raw;
      if (schedule !== undefined && typeof virtualStages === 'number' && (schedule === 'interleaved') !== (virtualStages > 1)) {
        issue('schedule', `schedule "${schedule}" needs virtualStages ${schedule === 'interleaved' ? '> 1' : '1'}, got ${virtualStages}`);
      }
    },
    jsonSchema: {
      allOf: [
        { not: { required: ['zeroStage', 'distributedOptimizer'], properties: { distributedOptimizer: { const: true } } } },
        {
          if: { required: ['schedule'], properties: { schedule: { const: 'interleaved' } } },
          then: { required: ['virtualStages'], properties: { virtualStages: { minimum: 2 } } },
        },
        {
          if: { required: ['schedule'], properties: { schedule: { enum: ['1f1b', 'gpipe'] } } },
          then: { properties: { virtualStages: { maximum: 1 } } },
        },
      ],
    },
  }),
  (p) => ({ ...p, schedule: p.schedule ?? (p.virtualStages > 1 ? 'interleaved' : '1f1b') }),
);

/** The scenario's `model`: a preset id or a model object (shared with the search requests). */
export const modelSchema = union([presetId('Model preset id, e.g. gpt3-175b.'), modelObject], {
  expected: 'a model preset id (a non-empty string) or a model object',
  description: 'The model: a preset id, or a transformer given by its shape.',
});

/** One scenario. The annotation checks at compile time that the validated type is the resolved input. */
export const scenarioSchema: Schema<ResolvedScenarioInput> = object({
  model: modelSchema,
  cluster,
  training,
  parallelism: withDefault(parallelism, {}),
}, { expected: 'a scenario object', description: 'A training run: the model, the machines, the batch and the parallel strategy.' });

/** A request body: one scenario, or an array of them answered in the same order. */
// The /* @__PURE__ */ marks let a bundle that only validates drop the published documents.
export const scenariosSchema = /* @__PURE__ */ union([scenarioSchema, array(scenarioSchema, { minItems: 1, maxItems: MAX_SCENARIOS })], {
  expected: 'a scenario object or an array of them',
});

export const scenarioJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(scenarioSchema, {
  id: 'https://trainplan.dev/schemas/scenario.json', title: 'Scenario',
});
export const scenariosJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(scenariosSchema, {
  id: 'https://trainplan.dev/schemas/scenarios.json', title: 'One scenario or an array of scenarios',
});

export type ScenarioValidation = { ok: true; value: ResolvedScenarioInput } | { ok: false; issues: FieldIssue[] };

/**
 * Many scenarios: `results` has one entry per scenario, in order, so an answer can report each
 * one on its own; `issues` gathers them all. Paths of an array's scenarios start with `[i].`.
 */
export type ScenariosValidation =
  | { ok: true; array: boolean; values: ResolvedScenarioInput[]; results: ScenarioValidation[] }
  | { ok: false; array: boolean; issues: FieldIssue[]; results: ScenarioValidation[] };

/** Validates one scenario and fills in its defaults. Never throws. */
export function validateScenario(value: unknown): ScenarioValidation {
  return validate(scenarioSchema, value);
}

/** Validates one scenario or an array of 1 to MAX_SCENARIOS of them. Never throws. */
export function validateScenarios(value: unknown): ScenariosValidation {
  try {
    if (!Array.isArray(value)) return gather(false, [validateScenario(value)]);
    if (value.length < 1 || value.length > MAX_SCENARIOS) {
      const message = value.length < 1 ? NO_SCENARIOS : `expected an array of 1 to ${formatGrouped(MAX_SCENARIOS)} scenarios, got ${formatGrouped(value.length)}`;
      return { ok: false, array: true, issues: [{ path: '', message }], results: [] };
    }
    const results: ScenarioValidation[] = [];
    for (let i = 0; i < value.length; i++) results.push(validate(scenarioSchema, value[i], { at: [i] }));
    return gather(true, results);
  } catch {
    const issues = [{ path: '', message: 'could not be read: the value threw while being inspected' }];
    return { ok: false, array: false, issues, results: [] };
  }
}

/**
 * Many scenarios' issues are bounded as one scenario's are (defaultLimits.maxIssues, 100): scenarios are
 * listed whole, each with its own count of what it left out, until 100 issues are listed; the scenarios
 * after that are counted in one last issue about the whole array. 1,024 scenarios of 100 issues each
 * answered 100,000 issues before, past the 1,024 the published Problem schema allows (apps/api openapi).
 */
function gather(isArray: boolean, results: ScenarioValidation[]): ScenariosValidation {
  const values: ResolvedScenarioInput[] = [];
  const issues: FieldIssue[] = [];
  let unlisted = 0;
  for (const result of results) {
    if (result.ok) values.push(result.value);
    else if (issues.length < defaultLimits.maxIssues) issues.push(...result.issues);
    else unlisted += 1;
  }
  if (unlisted > 0) issues.push({ path: '', message: `the issues of ${unlisted} more ${unlisted === 1 ? 'scenario' : 'scenarios'} are not shown` });
  return issues.length === 0
    ? { ok: true, array: isArray, values, results }
    : { ok: false, array: isArray, issues, results };
}
