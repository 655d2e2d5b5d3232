/** The inference request on the wire: its fields, their bounds and descriptions (the OpenAPI document's). */
import type { InferenceBatching } from '@trainplan/search';
import { million } from '@trainplan/units';
import { array } from '../schema/compose.ts';
import { object, optional, withDefault } from '../schema/object.ts';
import { enumOf, integer, number } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { ResolvedModelObject } from '../resolved.ts';
import { LOOSEST_BOUND_SECONDS } from './loosest-bound.ts';
import { pricePerGpuHourField, searchClusterFields } from './request-parts.ts';

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
  precision: optional(enumOf(['fp16', 'bf16', 'fp8'], {
    description: 'Weights and KV cache precision; default: bf16, or fp16 on a GPU without BF16 (V100).',
  })),
  promptTokens: integer({ min: 1, max: million(10), description: 'Prompt length, in tokens.' }),
  outputTokens: integer({ min: 1, max: million(10), description: 'Generated tokens per sequence.' }),
  tensor: sizes('Tensor-parallel degrees to try. Default: powers of two up to the NVLink domain (and up to gpus); with a rate where '
    + 'within the domain the first-token bound is met only by replicas under half loaded (the prompt\'s prefill leaving too little of '
    + 'it for the wait for a slot), twice the domain too: tensor parallelism across two nodes, which shortens the prefill.'),
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
  maxDecodeSecondsPerToken: optional(number({ greaterThan: 0, max: LOOSEST_BOUND_SECONDS, description: 'Latency bound per generated token.' })),
  maxPrefillSeconds: optional(number({ greaterThan: 0, max: LOOSEST_BOUND_SECONDS, description: 'Bound on the time to first token (with requestsPerSecond, the wait for a slot included; '
    + 'there, without it, 2 s, MLPerf Inference\'s Llama 2 70B server bound, so that replicas are not run all but fully loaded).' })),
  speculative: optional(object({
    draftModel: modelSchema,
    draftTokens: integer({ min: 1, max: MAX_DRAFT_TOKENS, description: 'γ: tokens the draft proposes a step (vLLM\'s num_speculative_tokens).' }),
    acceptanceRate: number({ greaterThan: 0, max: 1, description: 'α: the chance the target accepts each draft token (measured on your traffic; '
      + 'Leviathan et al. 2023 report 0.5–0.9 across tasks and drafts).' }),
  }, {
    expected: 'a speculative decoding object',
    description: 'Speculative decoding (Leviathan et al., ICML 2023): a draft model (a preset id such as llama3.2-1b, or a shape; smaller than the target, with its vocabulary) proposes '
      + 'draftTokens tokens, one decode step each, and the target checks them all in one pass, yielding (1 − α^(γ+1))/(1 − α) tokens a step. '
      + 'The draft runs on the same GPUs (its weights and KV cache beside the target\'s), on the target\'s TP when its heads split so, else whole '
      + 'on each GPU; one pipeline stage only. It pays while decoding is memory-bound (small batches) and loses once the batch makes it compute-bound.',
  })),
  requestsPerSecond: optional(number({ greaterThan: 0, max: million(1), description: 'Continuous batching only: a request rate to serve. Each point then gives '
    + 'its load: the replicas the rate needs of it (Poisson arrivals spread evenly over them, each replica an M/D/b queue of b slots held O iterations), '
    + 'their utilization and the mean wait for a slot (Erlang C with the Allen–Cunneen correction); the best plan is the one needing the fewest GPUs '
    + '(at most gpus, when given), and maxPrefillSeconds (by default 2 s) bounds the first token with the wait.' })),
  pricePerGpuHour: pricePerGpuHourField('Price of one GPU-hour: every point then gives what a million '
    + 'generated tokens cost at it (their GPUs\' time, the prompts\' prefill included; static batching over a whole batch\'s life), and with '
    + 'requestsPerSecond at the load served (idle slots paid too) and what an hour of the GPUs it needs costs.'),
}, { expected: 'an inference request object', description: 'Serving a model: latency, KV cache, batch and throughput per TP and PP choice.' });

export const inferenceRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(inferenceRequestSchema, {
  id: 'https://trainplan.dev/schemas/inference-request.json', title: 'Inference request',
});

