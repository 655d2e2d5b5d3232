/** The answer to POST /v1/inference (`InferenceResponseJson` in inference.ts) as one toolkit schema. */
import { array, union } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { boolean, enumOf, integer, literal, number, string } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from '../schema/validate.ts';
import { cost, count, issuesSchema, message, open, seconds } from './response-parts.ts';
import type { IdleFleetJson, InferencePointJson, InferenceRemedyJson, InferenceResponseJson, RemedyFieldJson } from './inference-json.ts';

/** The request lists at most 16 tensor and 16 pipeline degrees (inferenceRequestSchema): 256 shapes. */
const MAX_SHAPES = 16 * 16;
/** …and at most 64 batch sizes, so the frontier has at most one point per shape and batch. */
const MAX_FRONTIER = MAX_SHAPES * 64;

const bytes = (description: string) => number({ min: 0, description: `${description}, in bytes.` });

const inferencePoint: Schema<InferencePointJson> = object({
  tensor: count('Tensor-parallel degree.'),
  pipeline: count('Pipeline-parallel degree.'),
  batch: count('Sequences decoded together.'),
  gpus: count('GPUs of one replica (tensor × pipeline).'),
  // Optional: answers from before continuous batching and the request's gpus still validate.
  batching: optional(enumOf(['static', 'continuous'], { description: 'The batching the figures are for (the request\'s); absent: static.' })),
  prefillChunkTokens: optional(integer({ min: 1, description: 'Continuous batching\'s prefill chunk, in tokens, when the request gives one.' })),
  sharedPrefixTokens: optional(integer({ min: 1, description: 'Continuous batching\'s shared, cached prompt prefix, in tokens, when the request gives one.' })),
  cachedPrefixTokens: optional(integer({ min: 0, description: 'With sharedPrefixTokens: the prefix tokens cached, whole 16-token blocks of it within the prompt\'s first promptTokens − 1 tokens (a prompt wholly shared recomputes its last block).' })),
  sharedKvCacheBytesPerGpu: optional(bytes('With sharedPrefixTokens: the cached prefix\'s KV cache per GPU, held once for all sequences and included in kvCacheBytesPerGpu')),
  kvCachePrecision: optional(enumOf(['fp16', 'bf16', 'fp8'], { description: 'The KV cache\'s number format, when the request gives one.' })),
  replicas: optional(count('Replicas of this shape on the request\'s gpus: gpus / (tensor × pipeline); only when the request gives gpus.')),
  prefillSeconds: seconds('Time to first token (static: the batch\'s prompts\' forward pass; continuous: a running iteration waited out, then the iterations that prefill the prompt, whole or in chunks)'),
  decodeStepSeconds: seconds('Time per generated token of a sequence (with PP: a round of the micro-batches through the stages; '
    + 'continuous: an iteration as the sequence sees it, which also prefills the other sequences\' prompts admitted while it decodes; its own is in prefillSeconds)'),
  tokensPerSecondPerGpu: number({ min: 0, description: 'Generated tokens per second per GPU, the prompts\' prefill counted: continuous batching\'s '
    + 'iterations carry it; static batching\'s figure is a batch\'s b·O tokens over its prefill and O − 1 decode steps.' }),
  weightsBytesPerGpu: bytes('Weights per GPU'),
  kvCacheBytesPerGpu: bytes('KV cache per GPU at this batch'),
  activationBytesPerGpu: optional(bytes('The activations of the largest forward pass at this batch per GPU (in totalBytesPerGpu): '
    + 'the residual stream and one sublayer\'s intermediates over forwardTokens tokens, in 16 bits')),
  forwardTokens: optional(count('Tokens the largest forward pass takes at once: static, a micro-batch\'s prompts; continuous, an iteration\'s '
    + 'decode tokens and the prompts or chunks admitted into it.')),
  totalBytesPerGpu: bytes('Memory per GPU in all'),
  capacityBytes: bytes("The GPU's memory capacity"),
  load: optional(object({
    requestsPerSecond: number({ greaterThan: 0, description: 'The request\'s rate.' }),
    replicas: count('Replicas of this point the rate needs.'),
    gpus: count('Their GPUs: replicas × tensor × pipeline.'),
    utilization: number({ min: 0, max: 1, description: 'The rate over what those replicas finish at this batch.' }),
    queueSeconds: seconds('Mean wait for a slot before the prompt is admitted'),
    firstTokenSeconds: seconds('Time to first token with that wait'),
  }, { ...open, description: 'With requestsPerSecond: what serving that rate takes of this point.' })),
  cost: optional(object({
    perMillionOutputTokens: cost('A million generated tokens (their GPUs\' time, the prompts\' prefill included; with requestsPerSecond at the load served)'),
    perHour: optional(cost('With requestsPerSecond: an hour of the GPUs the rate needs')),
  }, { ...open, description: 'With pricePerGpuHour: what serving costs at that price.' })),
  speculation: optional(object({
    draftTokens: count('γ: tokens the draft proposes a step.'),
    acceptanceRate: number({ greaterThan: 0, max: 1, description: 'α: the chance the target accepts each draft token.' }),
    tokensPerStep: number({ min: 1, description: 'Tokens a verification step yields on average: (1 − α^(γ+1))/(1 − α).' }),
    draftTensor: count('The draft\'s tensor-parallel degree.'),
    draftWeightsBytesPerGpu: bytes('The draft\'s weights per GPU (in weightsBytesPerGpu too)'),
    draftKvCacheBytesPerGpu: bytes('The draft\'s KV cache per GPU at this batch (in kvCacheBytesPerGpu too)'),
    draftStepSeconds: seconds('One draft decode step of the batch'),
    draftPrefillSeconds: optional(seconds('The draft building its KV cache over the prompt (static: the batch\'s prompts), in prefillSeconds')),
  }, { ...open, description: 'With speculative decoding: its figures.' })),
  usableBytesPerGpu: optional(bytes('The memory the server may use per GPU (capacityBytes × the request\'s gpuMemoryUtilization), when the request gives one')),
  maxBatch: integer({ min: 0, description: 'The largest batch that fits: its KV cache and the activations of its largest forward pass beside the weights.' }),
  chunkBatchLimit: optional(integer({ min: 1, description: 'With prefillChunkTokens (continuous batching): the most sequences the chunks keep running, an iteration prefilling at most a chunk of prompt tokens while each sequence holds its slot for its chunks and then its decode steps; the batch is at most this and maxBatch.' })),
  memoryBound: boolean({ description: 'Whether decode is bound by HBM bandwidth rather than compute.' }),
}, { ...open, description: 'One serving shape and batch: latency, throughput and memory per GPU.' });

const shapeOk = object({
  tensor: count('Tensor-parallel degree.'),
  pipeline: count('Pipeline-parallel degree.'),
  ok: literal(true),
  largestBatch: inferencePoint,
}, { ...open, description: 'A shape that holds the model: its largest batch that fits, maxBatch (with a prefill chunk, at most its '
  + 'chunkBatchLimit; with batches, the largest of them that fits), whatever the latency bounds and rate: best and frontier are the plans within them.' });

const shapeFail = object({
  tensor: count('Tensor-parallel degree.'),
  pipeline: count('Pipeline-parallel degree.'),
  ok: literal(false),
  reason: string({ description: 'Why this shape does not serve, e.g. out-of-memory.' }),
  message: message('The reason, for humans.'),
}, { ...open, description: 'A shape that does not serve, and why.' });

const remedyField: Schema<RemedyFieldJson> = object({
  field: string({ description: 'A request field, by its path: gpus, maxDecodeSecondsPerToken, precision, cluster.gpu, …' }),
  value: optional(union([number(), string()], { description: 'The value the remedy gives it (seconds for a bound); absent where it names the field alone (another GPU).' })),
}, { ...open, description: 'A request field the remedy names.' });

const remedy: Schema<InferenceRemedyJson> = object({
  message: message('What to change for a plan, in the request\'s field names, e.g. "to serve it, give gpus 22, the fewest that serve: …". '
    + 'Each change it names is checked by asking again where it can be.'),
  fields: array(remedyField, { maxItems: 16, description: 'The request fields the message names, in its order: changes it offers, some of them alternatives.' }),
  template: message('The message with fields[i] as {i} ({i+j}: given together), for a surface that writes fields in its own terms (the CLI as flags).'),
}, { ...open, description: 'Where there is no plan (unservable for memory, or closest): what to change to get one.' });

const idleFleet: Schema<IdleFleetJson> = object({
  why: message('In words: the prefill\'s share of the first-token bound, the wait it leaves, the load it holds the replicas to, and the bound loosened.'),
  maxPrefillSeconds: seconds('The first-token bound applied (the request\'s, or with a rate and none given, 2 s)'),
  prefillSeconds: seconds('The best plan\'s first token without a queue'),
  waitBudgetSeconds: number({ description: 'The bound less that first token: all the wait for a slot the plan may have, in seconds.' }),
  slotSeconds: seconds('How long a request holds its slot'),
  loadFloor: number({ greaterThan: 0, max: 1, description: 'The load under which the bound, not the rate, sizes the fleet.' }),
  atLoadFloor: object({
    firstTokenSeconds: seconds('The soonest first token of the points tried with their replicas at least loadFloor busy, the wait included'),
    replicas: count('That point\'s replicas: the most that keep each loadFloor busy.'),
    gpus: count('Their GPUs.'),
    point: inferencePoint,
  }, { ...open, description: 'The point tried that serves the rate soonest at loadFloor or more.' }),
  loosened: object({
    maxPrefillSeconds: seconds('atLoadFloor\'s first token rounded up to three figures: the bound loosened'),
    best: optional(inferencePoint),
  }, { ...open, description: 'The first-token bound loosened, and the best plan on asking again with it, where it has one.' }),
  remedy: optional(remedy),
}, { ...open, description: 'With a rate: where the best plan meets the first-token bound only with its replicas kept under loadFloor busy, why, and what serves the rate at a real load.' });

const inferenceOk = object({
  ok: literal(true),
  promptTokens: count('Prompt length, in tokens.'),
  outputTokens: count('Generated tokens per sequence.'),
  best: optional(inferencePoint),
  frontier: array(inferencePoint, { maxItems: MAX_FRONTIER, description: 'The latency–throughput Pareto frontier.' }),
  byShape: array(union([shapeOk, shapeFail]), { maxItems: MAX_SHAPES, description: 'Each tensor × pipeline shape tried.' }),
  closest: optional(object({
    why: message('Why no shape meets the bounds, and what comes closest.'),
    point: inferencePoint,
  }, { ...open, description: 'When no shape meets the latency bounds: the nearest point.' })),
  unservable: optional(message('When no shape tried can serve the model at all (memory, divisibility, or none divides gpus): why. Also the first warning.')),
  remedy: optional(remedy),
  idleFleet: optional(idleFleet),
  warnings: optional(array(message('A caveat.'), { maxItems: 16, description: 'Caveats about the request, e.g. a context longer than the model\'s sequence length.' })),
}, { ...open, expected: 'an inference answer', description: 'Serving plans per tensor × pipeline shape.' });

const inferenceFail = object({
  ok: literal(false),
  reason: enumOf(['invalid'], { description: 'Why there is no answer.' }),
  message: message('The reason, for humans.'),
  issues: issuesSchema,
}, { ...open, expected: 'an inference failure', description: 'No answer: the reason and each offending field.' });

/** The annotation checks at compile time that the validated type is inference-json.ts's InferenceResponseJson. */
export const inferenceResponseSchema: Schema<InferenceResponseJson> = union([inferenceOk, inferenceFail], {
  expected: 'an inference answer with ok true or ok false',
});

export const inferenceResponseJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(inferenceResponseSchema, {
  id: 'https://trainplan.dev/schemas/inference-response.json', title: 'Inference response',
});

/** Validates an inference answer read from the API; unknown (newer) fields are dropped. Never throws. */
export function validateInferenceResponse(value: unknown): Validation<InferenceResponseJson> {
  return validate(inferenceResponseSchema, value);
}
