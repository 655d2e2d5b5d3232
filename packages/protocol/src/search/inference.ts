import { planInference, type InferenceAnswer, type InferenceBatching, type InferenceEstimate } from '@trainplan/search';
import { runsBf16 } from '@trainplan/planner';
import { formatGrouped, formatPercent, formatSeconds, million } from '@trainplan/units';
import { issuesMessage } from '../problem.ts';
import { array } from '../schema/compose.ts';
import { defaultedLater, object, optional, withDefault } from '../schema/object.ts';
import { enumOf, integer, number } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { ResolvedModelObject } from '../resolved.ts';
import type { FieldIssue } from '../wire.ts';
import { pricePerGpuHourField, searchClusterFields } from './request-parts.ts';
import { resolveSearch } from './resolve-search.ts';
import { resolveModel } from '../resolve.ts';

export interface InferenceRequest {
  model: string | ResolvedModelObject;
  cluster: { gpu: string; gpusPerNode?: number; network?: string };
  precision?: 'fp16' | 'bf16' | 'fp8';
  promptTokens: number;
  outputTokens: number;
  tensor?: number[];
  pipeline?: number[];
  batches?: number[];
  /** Filled in as 'static' when the request leaves it out. */
  batching: InferenceBatching;
  prefillChunkTokens?: number;
  gpuMemoryUtilization?: number;
  sharedPrefixTokens?: number;
  kvCachePrecision?: 'fp16' | 'bf16' | 'fp8';
  gpus?: number;
  maxDecodeSecondsPerToken?: number;
  maxPrefillSeconds?: number;
  requestsPerSecond?: number;
  pricePerGpuHour?: number;
  speculative?: { draftModel: string | ResolvedModelObject; draftTokens: number; acceptanceRate: number };
}

/** The KV-cache block a shared prefix is cached in whole (vLLM's block_size, @trainplan/search): said by the CLI, widget and bot. */
export { KV_BLOCK_TOKENS } from '@trainplan/search';

/** γ, the most tokens a draft may propose a step (vLLM's num_speculative_tokens runs in this range). */
export const MAX_DRAFT_TOKENS = 16;

/** The most GPUs a request may offer (a very large cluster); a shape is tried only if its t·p divides it. */
export const MAX_INFERENCE_GPUS = 65_536;

const sizes = (description: string) => optional(array(integer({ min: 1, max: 1024, description }), { minItems: 1, maxItems: 16 }));

export const inferenceRequestSchema: Schema<InferenceRequest> = object({
  model: modelSchema,
  cluster: object(searchClusterFields, { expected: 'a cluster object', description: 'The node type serving one replica.' }),
  precision: defaultedLater(enumOf(['fp16', 'bf16', 'fp8'], {
    description: 'Weights and KV cache precision; default: bf16, or fp16 on a GPU without BF16 (V100).',
  }), 'bf16'),
  promptTokens: integer({ min: 1, max: million(10), description: 'Prompt length, in tokens.' }),
  outputTokens: integer({ min: 1, max: million(10), description: 'Generated tokens per sequence.' }),
  tensor: sizes('Tensor-parallel degrees to try.'),
  pipeline: sizes('Pipeline-parallel degrees to try.'),
  batches: optional(array(integer({ min: 1, max: million(1), description: 'A batch size.' }), { minItems: 1, maxItems: 64 })),
  batching: withDefault(enumOf(['static', 'continuous'], {
    description: 'static: each batch is prefilled together, then decoded (the first token waits for every prompt of it). '
      + 'continuous: iteration-level scheduling (Orca, OSDI 2022; vLLM, SOSP 2023; TensorRT-LLM in-flight batching): '
      + 'each decode iteration of the b sequences also prefills the b/outputTokens prompts replacing those that finished '
      + '(fused into the decode kernels, each prompt whole or in chunks of prefillChunkTokens as Sarathi-Serve, OSDI 2024), so a prompt waits one iteration rather than a whole batch; '
      + 'the KV cache is paged (vLLM\'s PagedAttention), each sequence holding its prompt and, on average, half its output.',
  }), 'static'),
  prefillChunkTokens: optional(integer({ min: 1, max: million(10), description: 'Continuous batching only: the most prompt tokens one iteration '
    + 'prefills (chunked prefill, Sarathi-Serve, OSDI 2024; vLLM\'s max_num_batched_tokens less the running decodes). Smaller chunks hide more '
    + 'of the prefill under the decode\'s weight reads (a faster token) and spread a prompt over more iterations (a later first token). '
    + 'Default: each prompt prefilled whole in one iteration (TensorRT-LLM\'s default).' })),
  sharedPrefixTokens: optional(integer({ min: 1, max: million(10), description: 'Continuous batching only: the tokens every prompt opens with, '
    + 'the same for all (a system prompt, few-shot examples), which a prefix-caching engine keeps once and does not prefill again '
    + '(vLLM\'s automatic prefix caching, SGLang\'s RadixAttention, TensorRT-LLM\'s KV cache reuse): whole 16-token blocks of it are shared, '
    + 'so each prompt prefills only the rest (attending over all of it) and each sequence holds only the rest in the KV cache; the decode still '
    + 'reads the prefix for every sequence. At most promptTokens. Default: none shared.' })),
  kvCachePrecision: optional(enumOf(['fp16', 'bf16', 'fp8'], {
    description: 'The KV cache\'s number format, when it is not the weights\' (vLLM\'s kv_cache_dtype "fp8", TensorRT-LLM\'s FP8 KV cache): '
      + 'FP8 halves the cache\'s memory, so about twice the sequences fit, and the bytes each decode step reads from it, as an attention kernel that '
      + 'loads FP8 and dequantizes in registers does (TensorRT-LLM\'s XQA, FlashInfer; vLLM\'s docs state its FP8 cache gains capacity but no latency yet). '
      + 'Attention still computes in 16 bits, so an FP8 cache needs no FP8 tensor cores (E5M2 converts in software before Hopper). Default: precision.',
  })),
  gpuMemoryUtilization: optional(number({ greaterThan: 0, max: 1, description: 'The fraction of each GPU\'s memory the server may fill with weights, '
    + 'runtime buffers and KV cache; the rest is headroom it never allocates, so fewer sequences fit. vLLM\'s gpu_memory_utilization (0.9 by default there), '
    + 'SGLang\'s mem_fraction_static. Default: 1, all of it.' })),
  gpus: optional(integer({ min: 1, max: MAX_INFERENCE_GPUS, description: 'GPUs available: only TP × PP shapes that divide it are tried, each a replica (gpus / (TP × PP) replicas).' })),
  maxDecodeSecondsPerToken: optional(number({ greaterThan: 0, max: 3600, description: 'Latency bound per generated token.' })),
  maxPrefillSeconds: optional(number({ greaterThan: 0, max: 3600, description: 'Bound on the time to first token (with requestsPerSecond, the wait for a slot included).' })),
  speculative: optional(object({
    draftModel: modelSchema,
    draftTokens: integer({ min: 1, max: MAX_DRAFT_TOKENS, description: 'γ: tokens the draft proposes a step (vLLM\'s num_speculative_tokens).' }),
    acceptanceRate: number({ greaterThan: 0, max: 1, description: 'α: the chance the target accepts each draft token (measured on your traffic; '
      + 'Leviathan et al. 2023 report 0.5–0.9 across tasks and drafts).' }),
  }, {
    expected: 'a speculative decoding object',
    description: 'Speculative decoding (Leviathan et al., ICML 2023): a draft model (a preset id such as llama3.2-1b, or a shape) proposes '
      + 'draftTokens tokens, one decode step each, and the target checks them all in one pass, yielding (1 − α^(γ+1))/(1 − α) tokens a step. '
      + 'The draft runs on the same GPUs (its weights and KV cache beside the target\'s), on the target\'s TP when its heads split so, else whole '
      + 'on each GPU; one pipeline stage only. It pays while decoding is memory-bound (small batches) and loses once the batch makes it compute-bound.',
  })),
  requestsPerSecond: optional(number({ greaterThan: 0, max: million(1), description: 'Continuous batching only: a request rate to serve. Each point then gives '
    + 'its load: the replicas the rate needs of it (Poisson arrivals spread evenly over them, each replica an M/D/b queue of b slots held O iterations), '
    + 'their utilization and the mean wait for a slot (Erlang C with the Allen–Cunneen correction); the best plan is the one needing the fewest GPUs '
    + '(at most gpus, when given), and maxPrefillSeconds bounds the first token with the wait.' })),
  pricePerGpuHour: pricePerGpuHourField('Price of one GPU-hour: every point then gives what a million '
    + 'generated tokens cost at it (their GPUs\' time, the prompts\' prefill included; static batching over a whole batch\'s life), and with '
    + 'requestsPerSecond at the load served (idle slots paid too) and what an hour of the GPUs it needs costs.'),
}, { expected: 'an inference request object', description: 'Serving a model: latency, KV cache, batch and throughput per TP and PP choice.' });

export const inferenceRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(inferenceRequestSchema, {
  id: 'https://trainplan.dev/schemas/inference-request.json', title: 'Inference request',
});

export interface InferencePointJson {
  tensor: number; pipeline: number; batch: number; gpus: number;
  /** The batching the figures are for (absent from answers older than it: static). */
  batching?: InferenceBatching;
  /** Continuous batching's prefill chunk, when the request gives one. */
  prefillChunkTokens?: number;
  /** Continuous batching's shared, cached prompt prefix, when the request gives one. */
  sharedPrefixTokens?: number;
  /** The KV cache's number format, when the request gives one. */
  kvCachePrecision?: 'fp16' | 'bf16' | 'fp8';
  /**
   * With sharedPrefixTokens: the prefix tokens actually cached (whole 16-token blocks, at most promptTokens − 1) and
   * their KV cache per GPU, held once for all sequences and included in kvCacheBytesPerGpu (the rest is per sequence).
   */
  cachedPrefixTokens?: number;
  sharedKvCacheBytesPerGpu?: number;
  /** Replicas of this shape on the request's gpus: gpus / (tensor × pipeline); only when the request gives gpus. */
  replicas?: number;
  /** The memory the server may use per GPU, capacityBytes × the request's gpuMemoryUtilization; only when the request gives one. */
  usableBytesPerGpu?: number;
  /** With speculative decoding: γ, α, the tokens a step yields, the draft's TP, memory per GPU and step (weights and KV above include the draft's). */
  speculation?: {
    draftTokens: number; acceptanceRate: number; tokensPerStep: number; draftTensor: number;
    draftWeightsBytesPerGpu: number; draftKvCacheBytesPerGpu: number; draftStepSeconds: number;
  };
  /** With requestsPerSecond: the replicas the rate needs of this point, their GPUs and utilization, the wait for a slot and the first token with it. */
  load?: { requestsPerSecond: number; replicas: number; gpus: number; utilization: number; queueSeconds: number; firstTokenSeconds: number };
  /** With pricePerGpuHour, in its currency: a million generated tokens, and with requestsPerSecond an hour of the GPUs the rate needs. */
  cost?: { perMillionOutputTokens: number; perHour?: number };
  prefillSeconds: number; decodeStepSeconds: number; tokensPerSecondPerGpu: number;
  weightsBytesPerGpu: number; kvCacheBytesPerGpu: number; totalBytesPerGpu: number; capacityBytes: number; maxBatch: number; memoryBound: boolean;
}
export type InferenceResponseJson =
  | {
    ok: true; promptTokens: number; outputTokens: number; best?: InferencePointJson; frontier: InferencePointJson[];
    byShape: ({ tensor: number; pipeline: number } & ({ ok: true; largestBatch: InferencePointJson } | { ok: false; reason: string; message: string }))[];
    closest?: { why: string; point: InferencePointJson };
    /** When no shape tried can serve the model at all (memory, divisibility, or none divides gpus): why. */
    unservable?: string;
    /** Caveats about the request, e.g. a context longer than the model's sequence length. */
    warnings?: string[];
  }
  | { ok: false; reason: 'invalid'; message: string; issues: FieldIssue[] };

const point = (e: InferenceEstimate, gpus: number | undefined): InferencePointJson => ({
  tensor: e.shape.tensor, pipeline: e.shape.pipeline, batch: e.shape.batch, gpus: e.shape.tensor * e.shape.pipeline, batching: e.batching,
  ...(e.shape.prefillChunkTokens !== undefined && { prefillChunkTokens: e.shape.prefillChunkTokens }),
  ...(e.shape.sharedPrefixTokens !== undefined && { sharedPrefixTokens: e.shape.sharedPrefixTokens }),
  ...(e.sharedPrefix !== undefined && { cachedPrefixTokens: e.sharedPrefix.cachedTokens, sharedKvCacheBytesPerGpu: e.sharedPrefix.kvCacheBytesPerGpu }),
  ...(e.shape.kvCachePrecision !== undefined && { kvCachePrecision: e.shape.kvCachePrecision }),
  ...(gpus !== undefined && { replicas: gpus / (e.shape.tensor * e.shape.pipeline) }),
  prefillSeconds: e.prefillSeconds, decodeStepSeconds: e.decodeStepSeconds, tokensPerSecondPerGpu: e.tokensPerSecondPerGpu,
  weightsBytesPerGpu: e.weightsBytesPerGpu, kvCacheBytesPerGpu: e.kvCacheBytesPerGpu, totalBytesPerGpu: e.totalBytesPerGpu,
  capacityBytes: e.capacityBytes, maxBatch: e.maxBatch, memoryBound: e.memoryBound,
  ...(e.shape.gpuMemoryUtilization !== undefined && { usableBytesPerGpu: e.usableBytes }),
  ...(e.load !== undefined && { load: { ...e.load } }),
  ...(e.speculation !== undefined && { speculation: { ...e.speculation } }),
  ...(e.cost !== undefined && { cost: { ...e.cost } }),
});

const shapeJson = (tensor: number, pipeline: number, a: InferenceAnswer, gpus: number | undefined) => (a.ok
  ? { tensor, pipeline, ok: true as const, largestBatch: point(a, gpus) }
  : { tensor, pipeline, ok: false as const, reason: a.reason, message: a.message });

const invalid = (issues: FieldIssue[]): InferenceResponseJson => ({ ok: false, reason: 'invalid', message: issuesMessage(issues), issues });

/**
 * The time to first token an interactive service is held to: MLPerf Inference's Llama 2 70B server
 * scenario bounds it at 2 s (and the time per output token at 200 ms; MLCommons, Inference v4.0, 2024).
 */
export const INTERACTIVE_TTFT_SECONDS = 2;
/** …and the time per output token of that scenario (same source). */
export const INTERACTIVE_TOKEN_SECONDS = 0.2;

/**
 * A request that bounds the time per output token (an interactive service) but not the time to first
 * token may get a best plan whose first token comes late. Static batching: a batch of hundreds of
 * prompts is prefilled together, so its first token waits for all of them; continuous batching admits
 * prompts as sequences finish, which is suggested. Continuous batching: the first token is one prompt's
 * prefill plus a running iteration of the batch, past the bound only for a long prompt or a slow
 * iteration. Said when the wait passes INTERACTIVE_TTFT_SECONDS. Without any bound (throughput, as for
 * offline batch work) nothing is said.
 */
function ttftWarning(best: InferenceEstimate | undefined, req: Pick<InferenceRequest, 'maxDecodeSecondsPerToken' | 'maxPrefillSeconds'>): string[] {
  const interactive = req.maxDecodeSecondsPerToken !== undefined && req.maxPrefillSeconds === undefined;
  const firstToken = best?.load?.firstTokenSeconds ?? best?.prefillSeconds;
  if (best === undefined || firstToken === undefined || !interactive || firstToken <= INTERACTIVE_TTFT_SECONDS) return [];
  const why = best.batching === 'continuous'
    ? `it is one prompt's prefill plus waiting for a running iteration of its ${best.shape.batch} sequences (continuous batching)`
      + (best.load === undefined ? '' : ` and ${formatSeconds(best.load.queueSeconds)} on average for a slot, its replicas ${formatPercent(best.load.utilization, 0)} loaded`)
    : `its batch of ${best.shape.batch} prompts is prefilled together (a static batch: use batching "continuous" to admit prompts as sequences finish)`;
  return [`the best plan's time to first token is ${formatSeconds(firstToken)}: ${why}; `
    + `MLPerf Inference's Llama 2 70B server scenario bounds it at ${INTERACTIVE_TTFT_SECONDS} s, so give maxPrefillSeconds for an interactive service`];
}

/**
 * A request's latency bounds in words, "≤ 50.0 ms per token, ≤ 2.00 s to the first token", and its rate when it
 * gives one ("…, 100 requests/s"), or undefined when it sets none: how the CLI, the widget and the chat bot name
 * them. A bound that is not a number is left out.
 */
export function inferenceBoundsText(bounds: { readonly maxDecodeSecondsPerToken?: unknown; readonly maxPrefillSeconds?: unknown; readonly requestsPerSecond?: unknown }): string | undefined {
  const { maxDecodeSecondsPerToken: token, maxPrefillSeconds: first, requestsPerSecond: rate } = bounds;
  const parts = [
    ...(typeof token === 'number' ? [`≤ ${formatSeconds(token)} per token`] : []),
    ...(typeof first === 'number' ? [`≤ ${formatSeconds(first)} to the first token`] : []),
    ...(typeof rate === 'number' ? [`${formatGrouped(rate)} requests/s`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : undefined;
}

type ShapeJson = Extract<InferenceResponseJson, { ok: true }>['byShape'][number];

/** The shape of the most GPUs among those tried (the likeliest to hold the model), or undefined when none was tried. */
export const widestShape = <S extends { tensor: number; pipeline: number }>(byShape: readonly S[]): S | undefined =>
  byShape.reduce<S | undefined>((a, s) => (a === undefined || s.tensor * s.pipeline > a.tensor * a.pipeline ? s : a), undefined);

/**
 * Why nothing serves at all (memory or divisibility, not the latency bounds), or undefined when some
 * shape does: with the GPUs given, that no shape tried divides them; else the widest shape's reason.
 */
function unservableMessage(byShape: readonly ShapeJson[], gpus: number | undefined): string | undefined {
  if (byShape.some((s) => s.ok)) return undefined;
  const widest = widestShape(byShape);
  if (widest === undefined) {
    return gpus === undefined ? undefined
      : `no tensor × pipeline shape tried divides the ${gpus.toLocaleString('en-US')} GPUs given (gpus): give tensor and pipeline degrees whose product divides it`;
  }
  if (widest.ok) return undefined;
  return `no tensor × pipeline shape tried can serve the model (each shape's reason is given with it); the widest, TP ${widest.tensor} · PP ${widest.pipeline}: ${widest.message}`;
}

/** Request fields that only continuous batching serves, and why: refused beside the field with static batching. */
const CONTINUOUS_ONLY: readonly (readonly ['prefillChunkTokens' | 'sharedPrefixTokens' | 'requestsPerSecond', string])[] = [
  ['prefillChunkTokens', 'chunked prefill applies to continuous batching'],
  ['sharedPrefixTokens', 'prefix caching applies to continuous batching (a paged KV cache shares the prefix\'s blocks)'],
  ['requestsPerSecond', 'a request rate is served by continuous batching (requests join as sequences finish)'],
];

/** Inference planning on the wire: prefill/decode latency, KV cache, largest batch, tokens/s/GPU, frontier. */
export function runInference(request: unknown): InferenceResponseJson {
  const valid = validate(inferenceRequestSchema, request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const staticOnly = req.batching === 'continuous' ? undefined : CONTINUOUS_ONLY.find(([field]) => req[field] !== undefined);
  if (staticOnly !== undefined) {
    const [field, why] = staticOnly;
    return invalid([{ path: field, message: `${why}: give batching "continuous", or leave ${field} out` }]);
  }
  const draftIssues: FieldIssue[] = [];
  const draft = req.speculative === undefined ? undefined : resolveModel(req.speculative.draftModel, draftIssues);
  if (draftIssues.length > 0) return invalid(draftIssues.map((i) => ({ ...i, path: 'speculative.draftModel' })));
  if (req.sharedPrefixTokens !== undefined && req.sharedPrefixTokens > req.promptTokens) {
    return invalid([{ path: 'sharedPrefixTokens', message: `the shared prefix (${req.sharedPrefixTokens.toLocaleString('en-US')} tokens) is part of the prompt: at most promptTokens (${req.promptTokens.toLocaleString('en-US')})` }]);
  }
  const resolved = resolveSearch({
    model: req.model, cluster: req.cluster,
    // Precision and attention kernel left to the GPU's defaults (flash where it runs) unless asked.
    training: { globalBatchSize: 1, precision: req.precision, dropout: false },
    settings: { scatterGather: false, overlapGradReduce: false, overlapTensorParallelComm: false, overlapPipelineComm: false },
  }, { nodes: 1 });
  // The request sets precision at its top level: name it so, not as the scenario's training.precision.
  if (!resolved.ok) return invalid(resolved.issues.map((i) => (i.path === 'training.precision' ? { ...i, path: 'precision' } : i)));
  // A 16-bit cache is read by 16-bit attention, so BF16 needs the GPU's BF16 support (Volta has none), as the weights' precision does.
  const { gpu } = resolved.value.base;
  if (req.kvCachePrecision === 'bf16' && !runsBf16(gpu)) {
    return invalid([{ path: 'kvCachePrecision', message: `${gpu.name} has no BF16 tensor cores: use kvCachePrecision "fp16" or "fp8"` }]);
  }
  // The request's fields are the search's, by the same names; a field left out stays undefined there too.
  const { model: _model, cluster: _cluster, precision: _precision, speculative, ...search } = req;
  const result = planInference(resolved.value.base, {
    ...search,
    speculative: speculative === undefined || draft === undefined ? undefined
      : { draft, draftTokens: speculative.draftTokens, acceptanceRate: speculative.acceptanceRate },
  });
  const byShape = result.byShape.map((s) => shapeJson(s.tensor, s.pipeline, s.answer, req.gpus));
  // Nothing serves at all: said first among the warnings too, where answers before `unservable` said it.
  const unservable = unservableMessage(byShape, req.gpus);
  const json = (e: InferenceEstimate) => point(e, req.gpus);
  return {
    ok: true,
    promptTokens: req.promptTokens,
    outputTokens: req.outputTokens,
    ...(result.best && { best: json(result.best) }),
    frontier: result.frontier.map(json),
    byShape,
    ...(result.closest && { closest: { why: result.closest.why, point: json(result.closest.point) } }),
    ...(unservable !== undefined && { unservable }),
    warnings: [...(unservable === undefined ? [] : [unservable]), ...result.warnings, ...ttftWarning(result.best, req)],
  };
}
