/**
 * The estimate of ../shared/docs/scenario-contract.md (`EstimateJson` in wire.ts) as one schema:
 * the JSON Schema that documents every field with its unit, and a validator for clients (the
 * widget, the bot) that read answers.
 *
 * Unlike the scenario, an estimate's objects strip unknown keys instead of refusing them: the
 * contract lets the project add output fields, and a widget bundle already embedded in someone's
 * page must keep reading answers from a newer API. For the same reason the reader's schema
 * (validateEstimate, estimateJsonSchema: what /openapi.json and https://trainplan.dev/schemas/estimate.json
 * publish) requires only the contract's fields: the contract's fields are "the stable minimum that
 * outside tools rely on", so an answer of another implementation, or of an older trainplan, that
 * lacks an extension is still an answer. trainplan's own answers carry every extension, which
 * fullEstimateOkSchema requires (the plans of search, nodes and scale answers; estimate-schema.test.ts
 * holds runEstimate's answers to it).
 */
import { array, union } from './schema/compose.ts';
import { object, optional } from './schema/object.ts';
import { boolean, enumOf, integer, literal, number, string } from './schema/scalars.ts';
import type { JsonSchema, Presence, Schema } from './schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from './schema/validate.ts';
import { GRADIENT_ACCUMULATION_IDS, type EstimateOk, type FieldIssue, type ReceivedEstimateJson, type ReceivedEstimateOk } from './wire.ts';

const open = { unknownKeys: 'strip' } as const;
const MAX_MESSAGE_LENGTH = 4096;

const bytes = (description: string) => number({ min: 0, description: `${description}, in bytes.` });
const seconds = (description: string) => number({ min: 0, description: `${description}, in seconds.` });
const amount = (description: string) => number({ min: 0, description });
const count = (description: string) => integer({ min: 1, description });
// Lenient on purpose: a reader of answers should not reject one over an empty name.
const id = (description: string) => string({ description });

/**
 * How a schema takes an extension field, which trainplan's answers always carry: `optional` in the reader's schema,
 * `required` in trainplan's own. A field only some answers carry (timeToTrain, resolved.fp8Params) is optional in both.
 */
type Extension<P extends Presence> = <T>(schema: Schema<T>) => Schema<T> & { readonly presence: P };
const required: Extension<'required'> = (schema) => ({ ...schema, presence: 'required' });

const precision = enumOf(['fp16', 'bf16', 'fp8']);
const recompute = enumOf(['none', 'selective', 'full']);
const schedule = enumOf(['1f1b', 'interleaved', 'gpipe']);

/** Memory per GPU by part: the estimate's most loaded GPU, and each stage of a memory answer (memory-answer.ts). */
export const memoryPartFields = {
  weightsBytes: bytes('Model weights per GPU (with FP8, also Transformer Engine\'s FP8 copy and transpose of each weight matrix unless fp8Params)'),
  gradientsBytes: bytes('Gradients per GPU'),
  optimizerBytes: bytes('Optimizer state (master weights and moments) per GPU'),
  activationsBytes: bytes('Activations kept for the backward pass per GPU'),
  otherBytes: bytes('Buffers, workspace and fragmentation per GPU, and the larger of ZeRO-3\'s gathered layer with its gradient and the optimizer step\'s fp32 gradient copy beyond the activations '
    + '(trainplan\'s answers split it in otherParts)'),
  totalBytes: bytes('Sum of the parts above'),
};

const wholeBytes = (description: string) => integer({ min: 0, description: `${description}, in bytes.` });

/** What otherBytes holds, each part named (model reference §3: fragmentation and buffers "as a separate, named term"). */
export const otherPartsSchema = object({
  runtimeReserveBytes: wholeBytes('The runtime reserve: CUDA context, cuBLAS workspaces and NCCL buffers, a fixed allowance'),
  fragmentationBytes: wholeBytes('The caching allocator\'s fragmentation: 10% of activationsBytes, rounded up'),
  zero3GatheredBytes: wholeBytes('ZeRO-3\'s largest unit of the stage gathered whole (its 16-bit gradient, and its 16-bit weights where other ranks hold them; 0 under any other sharding)'),
  optimizerStepBytes: wholeBytes('What the optimizer step\'s fp32 copy of the 16-bit gradients needs beyond the forward and backward peak '
    + '(the activations, their fragmentation and the gathered unit, all freed before the step; 0 where that peak is the higher)'),
}, {
  ...open,
  description: 'Extension: what otherBytes holds, each part named, in whole bytes that sum to otherBytes exactly.',
});

const memoryOf = <P extends Presence>(extension: Extension<P>) => object({
  ...memoryPartFields,
  capacityBytes: bytes("The GPU's memory capacity"),
  fits: boolean({ description: 'Whether totalBytes ≤ capacityBytes.' }),
  otherParts: extension(otherPartsSchema),
  stage: extension(integer({ min: 0, description: 'Extension: the pipeline stage, from 0, these figures are of: the most loaded one.' })),
}, { ...open, description: 'Memory per GPU, for the most loaded GPU.' });

const breakdownOf = <P extends Presence>(extension: Extension<P>) => object({
  computeSeconds: seconds('Compute per step, recompute included'),
  tensorParallelCommSeconds: seconds('Tensor-parallel communication per step, not overlapped'),
  pipelineBubbleSeconds: seconds('Pipeline bubble (idle time) per step'),
  pipelineCommSeconds: seconds('Pipeline point-to-point communication per step'),
  dataParallelCommSeconds: seconds('Data-parallel communication per step left after overlap'),
  optimizerSeconds: seconds('Optimizer step per global batch: gradient norm, update, copy into the 16-bit weights, and the gradient buffer reset before the next step'),
  contextParallelCommSeconds: extension(seconds('Extension: context-parallel communication per step left exposed (not hidden behind attention): '
    + 'a part of stepTimeSeconds beside the six contract fields')),
  contextParallelCommTotalSeconds: extension(seconds('Extension: context-parallel communication per step before it overlaps attention '
    + '(ring attention hides each K/V exchange behind the attention block it feeds; contextParallelCommSeconds is what is left)')),
  recomputeSeconds: extension(seconds('Extension: the part of computeSeconds spent re-running forward passes')),
  dataParallelCommTotalSeconds: extension(seconds('Extension: data-parallel communication per step before overlap')),
}, {
  ...open,
  description: 'Where the time of one step goes: stepTimeSeconds is the sum of the six contract fields and contextParallelCommSeconds '
    + '(0 without context parallelism or where attention hides it; absent, as every extension may be, from an API that does not send it); '
    + 'recomputeSeconds is a part of computeSeconds, and '
    + 'dataParallelCommTotalSeconds and contextParallelCommTotalSeconds the data- and context-parallel communication before '
    + 'overlap, none added again.',
});

/** A model given by its shape as planned: the scenario's model object with every default filled in (ResolvedModelShape). */
const modelShape = object({
  layers: count('Transformer layers.'),
  hiddenSize: count('Hidden size.'),
  attentionHeads: count('Attention heads.'),
  kvHeads: count('Key/value heads.'),
  ffnHiddenSize: count('Hidden size of the MLP.'),
  vocabSize: count('Vocabulary size, in tokens.'),
  seqLength: count("The model's own sequence length, in tokens (the run's is resolved.seqLength)."),
  gatedMlp: boolean({ description: 'A gated MLP (SwiGLU).' }),
  tiedEmbeddings: boolean({ description: 'Input and output embeddings share one matrix.' }),
  positionEmbedding: enumOf(['learned', 'rotary', 'alibi'], { description: 'How positions are encoded.' }),
  linearBias: boolean({ description: 'Linear layers carry a bias vector.' }),
  normalization: enumOf(['layernorm', 'rmsnorm'], { description: 'The normalization layers.' }),
  name: optional(id('The name the scenario gave it.')),
}, {
  ...open,
  description: 'Extension, for a model given by its shape (absent for a preset): the model object as planned, every default filled in; '
    + 'a scenario fed back from this block gives it as its model.',
});

const switchOf = <P extends Presence>(extension: Extension<P>, field: string) =>
  extension(boolean({ description: `Extension: parallelism.${field} as planned (default false).` }));

const resolvedOf = <P extends Presence>(extension: Extension<P>) => object({
  model: id('Model preset id, or the name of a model given by its shape ("custom" where it has none; modelShape holds the shape).'),
  modelShape: optional(modelShape),
  gpu: id('GPU preset id.'),
  network: id('Inter-node fabric preset id.'),
  gpusPerNode: count('GPUs per node.'),
  nodes: count('Nodes.'),
  gpus: count('GPUs in all.'),
  tensor: count('Tensor-parallel degree.'),
  pipeline: count('Pipeline-parallel degree.'),
  data: count('Data-parallel degree.'),
  context: count('Context-parallel degree.'),
  virtualStages: count('Model chunks per pipeline stage.'),
  microBatchSize: count('Sequences per micro-batch.'),
  microBatches: count('Micro-batches per step per pipeline.'),
  globalBatchSize: count('Sequences per step.'),
  seqLength: count('Sequence length, in tokens.'),
  precision,
  dropout: extension(boolean({ description: "Extension: hidden and attention dropout was on (0.1); by default as the model was trained." })),
  attentionKernel: extension(enumOf(['flash', 'unfused'], { description: 'Extension: the attention kernel costed: the scenario\'s, or the GPU\'s default (unfused on a V100, else flash).' })),
  crossEntropyKernel: extension(enumOf(['fused', 'unfused'], { description: 'Extension: the loss kernel costed: the scenario\'s, or fused.' })),
  gradientAccumulation: extension(enumOf(GRADIENT_ACCUMULATION_IDS, { description: 'Extension: how weight gradients accumulated: the scenario\'s, or fused.' })),
  fp8Params: optional(boolean({
    description: 'Extension, FP8 plans only: whether the weights were FP8 alone (true), or 16-bit with Transformer Engine\'s FP8 copies beside them (false).',
  })),
  recompute,
  recomputeLayers: optional(count('Extension: layers per pipeline stage whose forward is recomputed, where full recompute covers only some.')),
  sequenceParallel: boolean(),
  distributedOptimizer: boolean(),
  zeroStage: integer({ min: 0, max: 3, description: 'ZeRO stage (0 = none).' }),
  schedule,
  embeddingInPipelineSplit: extension(boolean({ description: "Extension: the word embedding took one layer's place on the first pipeline stage." })),
  lossInPipelineSplit: extension(boolean({ description: "Extension: the output layer and the loss took one layer's place on the last pipeline stage." })),
  layersPerStage: extension(array(count('Transformer layers on one pipeline stage.'), { description: 'Extension: transformer layers on each pipeline stage, first to last.' })),
  communicationModel: extension(enumOf(['closed-form', 'emulated'], {
    description: "Extension: how the collectives were costed: NCCL's closed form, or the discrete-event emulator on the topology graph.",
  })),
  oversubscription: extension(number({ min: 1, description: "Extension: the fat tree's leaf oversubscription (1: non-blocking); only the emulator's topology uses it." })),
  scatterGather: switchOf(extension, 'scatterGather'),
  overlapGradReduce: switchOf(extension, 'overlapGradReduce'),
  overlapTensorParallelComm: switchOf(extension, 'overlapTensorParallelComm'),
  overlapPipelineComm: switchOf(extension, 'overlapPipelineComm'),
  asyncTensorParallelGradComm: switchOf(extension, 'asyncTensorParallelGradComm'),
  tokens: optional(amount('Extension: training.tokens, where given, in tokens.')),
}, {
  ...open,
  description: 'Extension: the scenario as evaluated, every default and derived value filled in. Fed back as a scenario, it gives the same '
    + 'estimate: modelShape (where present, else model) as the model; gpu, gpusPerNode, nodes, network, communicationModel and '
    + 'oversubscription in cluster; globalBatchSize, microBatchSize, seqLength, precision, tokens, dropout, attentionKernel, '
    + 'crossEntropyKernel, gradientAccumulation and fp8Params in training; the rest in parallelism, zeroStage only where above 0. '
    + 'gpus, microBatches and layersPerStage are derived, not fed back.',
});

const timeToTrain = object({
  tokens: amount('Token budget, in tokens.'),
  seconds: seconds('Time to train on the budget'),
  days: amount('Time to train on the budget, in days.'),
  gpuHours: amount('GPU time to train on the budget, in GPU-hours.'),
}, { ...open, description: 'Extension: present when training.tokens was given.' });

const estimateOkOf = <P extends Presence>(extension: Extension<P>) => object({
  ok: literal(true),
  stepTimeSeconds: seconds('Time of one optimizer step'),
  tokensPerSecond: amount('Throughput of the whole cluster, in tokens per second.'),
  modelTflopsPerGpu: amount('Model FLOPs (recompute excluded) per GPU, in TFLOP/s.'),
  hardwareTflopsPerGpu: amount('Hardware FLOPs (recompute included) per GPU, in TFLOP/s.'),
  mfu: amount('Model FLOPs utilization: model FLOP/s over peak FLOP/s, a ratio.'),
  hfu: amount('Hardware FLOPs utilization: hardware FLOP/s over peak FLOP/s, a ratio.'),
  peakTflopsPerGpu: extension(amount('Extension: the peak FLOP/s per GPU that mfu and hfu are of, in TFLOP/s: the FP8 peak for an FP8 plan, else the BF16 (or FP16) peak.')),
  memory: memoryOf(extension),
  breakdown: breakdownOf(extension),
  samplesPerSecond: extension(amount('Extension: throughput, in sequences per second.')),
  modelFlopsPerStep: extension(amount('Extension: model FLOPs of one step on all GPUs, in FLOP.')),
  hardwareFlopsPerStep: extension(amount('Extension: hardware FLOPs of one step on all GPUs, in FLOP.')),
  parameters: extension(amount('Extension: model parameters, a count.')),
  resolved: extension(resolvedOf(extension)),
  timeToTrain: optional(timeToTrain),
  warnings: extension(array(string({ maxLength: MAX_MESSAGE_LENGTH }), { description: 'Extension: advice for humans.' })),
}, {
  ...open,
  expected: 'a feasible estimate',
  description: 'A feasible scenario: its step time, throughput and memory. The contract\'s fields are required; each extension '
    + '(a description starting "Extension") may be absent from an API that does not send it, though trainplan\'s answers carry each.',
});

/** A feasible estimate as a reader takes it from an API: the contract's fields required, every extension optional. */
export const estimateOkSchema: Schema<ReceivedEstimateOk> = estimateOkOf(optional);

/** A feasible estimate as trainplan answers it, every extension there: the plans of search, nodes and scale answers. */
export const fullEstimateOkSchema: Schema<EstimateOk> = estimateOkOf(required);

/** One offending field, as every ok: false answer lists them. */
export const fieldIssueSchema: Schema<FieldIssue> = object({
  path: string({ description: 'JSON path of the offending field, e.g. parallelism.tensor or [2].model.layers.' }),
  message: string({ maxLength: MAX_MESSAGE_LENGTH, description: 'What was expected and what was got.' }),
  rule: optional(string({ description: "Extension: the planner's rule the plan breaks (e.g. batch-indivisible), where one raised it." })),
}, open);

const estimateInfeasible = object({
  ok: literal(false),
  reason: enumOf(['out-of-memory', 'indivisible', 'invalid'], { description: 'Why there is no estimate.' }),
  message: string({ maxLength: MAX_MESSAGE_LENGTH, description: 'The reason, for humans.' }),
  neededBytes: optional(bytes("For 'out-of-memory': memory needed per GPU")),
  availableBytes: optional(bytes("For 'out-of-memory': memory available per GPU")),
  // Extension, for 'out-of-memory': the plan as evaluated (every default filled in), its most loaded GPU's memory, its parameters.
  resolved: optional(resolvedOf(optional)),
  memory: optional(memoryOf(optional)),
  parameters: optional(count("Extension, for 'out-of-memory': the model's parameters.")),
  issues: optional(array(fieldIssueSchema, { description: "For 'invalid' and 'indivisible': each offending field." })),
}, { ...open, expected: 'an infeasible answer', description: 'An infeasible scenario: an answer, not a crash.' });

/** One estimate as a reader takes it. The annotation checks at compile time that the validated type is wire.ts's ReceivedEstimateJson. */
export const estimateSchema: Schema<ReceivedEstimateJson> = union([estimateOkSchema, estimateInfeasible], {
  expected: 'an estimate object with ok true or ok false',
});

export const estimateJsonSchema: JsonSchema = jsonSchemaDocument(estimateSchema, {
  id: 'https://trainplan.dev/schemas/estimate.json', title: 'Estimate',
});

/**
 * Validates an answer read from an API: the contract's fields must be there, trainplan's extensions may be (each one
 * there is checked); unknown (newer) fields are dropped. Never throws.
 */
export function validateEstimate(value: unknown): Validation<ReceivedEstimateJson> {
  return validate(estimateSchema, value);
}
