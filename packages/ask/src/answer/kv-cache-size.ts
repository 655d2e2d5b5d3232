import { kvCacheBytesPerToken } from '@trainplan/model';
import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatBytes } from '@trainplan/units';
import { modelShapeOf } from '../model-of.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { shapeText } from './serving-text.ts';

/**
 * A question of the KV cache's size ("how big is the kv cache for llama3-70b at 128k context", "kv cache per token for llama
 * 3 70b") answered by that size first: per token, per sequence of the context asked, then on each GPU of the plan. QA: these
 * led with a plan's throughput and latency, the size asked for buried in the memory figure.
 */

/**
 * Not a time before it: "per token" after "50 ms" (or "0.05 s", "50 milliseconds") is a latency bound, not a size asked. QA:
 * "… with fp8 kv cache at 50 ms per token" was read as a KV-cache-size question, its 500 users as one replica's batch,
 * while "… at 50 ms per token with fp8 kv cache" was not.
 */
const LATENCY_NOT_BEFORE = String.raw`(?<!\d\s*(?:ms|msecs?|milliseconds?|s|secs?|seconds?|µs|us|microseconds?)\s+)`;

/**
 * Words asking the KV cache's size: "how big is the kv cache", "KV cache size", "kv cache per token", "memory of the KV cache";
 * and the cache itself asked of a model, the question opening with it: "kv cache of gpt-3 175b at 2048 tokens", "what's the
 * kv cache for llama 3 8b" (QA: answered with a plan's throughput, no KV figure).
 */
export const ASKS_KV_SIZE = new RegExp(String.raw`\b(?:kv|key[\s-]*value)[\s-]*cache\b[^?]*?\b(?:size|sized?|big|large|much|${LATENCY_NOT_BEFORE}per[\s-]+(?:token|sequence|request)|bytes?|footprint)\b`
  + String.raw`|\b(?:how\s+(?:big|large|much(?:\s+(?:memory|vram))?)|size\s+of|memory\s+(?:of|for))\b[^?]*?\b(?:kv|key[\s-]*value)[\s-]*cache\b`
  + String.raw`|^\s*(?:(?:what(?:'s|s|\s+is)|show(?:\s+me)?|give\s+me|tell\s+me)\s+)?(?:the\s+)?(?:kv|key[\s-]*value)[\s-]*cache\s+(?:of|for)\b`, 'i');

/** Bytes of one cached value in the cache's format: FP8 one, the 16-bit formats two (the cache in the weights' format unless its own is given). */
const bytesPerValue = (p: AskParameters): number => ((p.kvCachePrecision ?? p.precision ?? 'bf16') === 'fp8' ? 1 : 2);

/**
 * The tokens a request holds in the cache, its prompt and the tokens it generates (with the defaults: a stated context with
 * no prompt is filled, defaults.ts fillServing), and the window a stated context is where it is longer: a paged KV cache holds
 * the tokens a request has, not its whole window (serving-context.ts contextNote). QA: "how big is the KV cache for
 * llama3-70b with a 2k prompt at a 32k context" gave the 32,768-token window's 10.0 GiB as the size, where the plan beside
 * it holds each request's 2,560 tokens.
 */
function cachedTokens(p: AskParameters): { request: number; window?: number } {
  const request = p.promptTokens !== undefined && p.outputTokens !== undefined ? p.promptTokens + p.outputTokens : (p.seqLength ?? 0);
  return p.seqLength !== undefined && p.seqLength > request && request > 0 ? { request, window: p.seqLength } : { request };
}

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * "KV cache 320 KiB per token (2 × 80 layers × 8 KV heads × 128 dims × 2 bytes); 40.0 GiB per 131,072-token sequence;
 * 5.00 GiB of it on each GPU of TP 8 · PP 1 for a full 131,072-token context", and with a batch asked "; 32 sequences at once: 160 GiB,
 * 20.0 GiB of it on each GPU". Per token: K and V for every layer, each n_kv × d_head wide (Pope et al.
 * 2022, "Efficiently Scaling Transformer Inference", §2; GQA's n_kv heads, Ainslie et al. 2023). On each GPU: a sequence's
 * share in the plan (the KV heads split over TP, the layers over PP). A context stated longer than the request's tokens
 * is said beside them, never in their place: "800 MiB per request of 2,048 prompt + 512 output tokens (a full 32,768-token
 * window would be 10.0 GiB: a paged cache holds a request's tokens, not its window)". Undefined without a model.
 */
export function kvCacheSizeText(p: AskParameters, point: InferencePointJson | undefined): string | undefined {
  const shape = modelShapeOf(p);
  if (shape === undefined) return undefined;
  const headDim = shape.hiddenSize / shape.attentionHeads;
  const bytes = bytesPerValue(p);
  const perTokenBytes = kvCacheBytesPerToken({ shape, tensor: 1, layersOnGpu: shape.layers, bytesPerValue: bytes });
  const { request: tokens, window } = cachedTokens(p);
  const full = (perToken: number): string => (window === undefined ? '' : ` (${formatBytes(perToken * window)} for a full ${n(window)}-token window)`);
  const perSequence = tokens === 0 ? ''
    : window === undefined ? `; ${formatBytes(perTokenBytes * tokens)} per ${n(tokens)}-token sequence`
    : `; ${formatBytes(perTokenBytes * tokens)} per request of ${n(p.promptTokens ?? 0)} prompt + ${n(p.outputTokens ?? 0)} output tokens`
      + ` (a full ${n(window)}-token window would be ${formatBytes(perTokenBytes * window)}: a paged cache holds a request's tokens, not its window)`;
  // A sequence's share on each GPU of the plan: its KV heads split over TP, its layers over PP (the fullest stage: ⌈L / p⌉).
  // Not the plan's cache over its batch, which under paged continuous batching is the average a sequence holds (QA: 993 MiB
  // "of" a 1.00 GiB sequence at TP 1).
  const perGpuToken = point === undefined ? 0
    : kvCacheBytesPerToken({ shape, tensor: point.tensor, layersOnGpu: Math.ceil(shape.layers / point.pipeline), bytesPerValue: bytes });
  // Labelled as a full context's (QA: "50.0 MiB of it on each GPU", beside the memory figure's 45.2 MiB paged average a
  // request holds, read as two answers to one question), or as a request's whole tokens where a longer window is stated.
  const held = window === undefined ? `for a full ${n(tokens)}-token context` : `for a request's ${n(tokens)} tokens${full(perGpuToken)}`;
  const onEachGpu = point === undefined || tokens === 0 ? '' : `; ${formatBytes(tokens * perGpuToken)} of it on each GPU of ${shapeText(point)} ${held}`;
  // A batch asked ("for 32 requests of 8k tokens", "with batch 32"): the cache of that many full contexts at once, and its share
  // on each GPU (QA: 32 × 8,192 tokens × 504 KiB = 126 GiB for Llama 3.1 405B was never said, only one sequence's 3.94 GiB).
  const sequences = p.concurrency;
  const onGpus = (perToken: number, each: number): string => `${formatBytes(sequences! * perToken)}${point === undefined ? '' : `, ${formatBytes(sequences! * each)} of it on each GPU`}`;
  const filled = window === undefined ? '' : ` (each filling the ${n(window)}-token window: ${onGpus(window * perTokenBytes, window * perGpuToken)})`;
  const batch = sequences === undefined || tokens === 0 ? ''
    : `; ${countOf(sequences, 'sequence')} at once: ${onGpus(tokens * perTokenBytes, tokens * perGpuToken)}${filled}`;
  return `KV cache ${formatBytes(perTokenBytes)} per token (2 × ${shape.layers} layers × ${shape.kvHeads} KV heads × ${headDim} dims × ${bytes} byte${bytes === 1 ? '' : 's'})${perSequence}${onEachGpu}${batch}`;
}

/** Said among the assumptions where a KV cache's size is asked with no latency bound (withoutAssumedBounds). */
export const NO_BOUND_FOR_KV_SIZE = 'no latency bound: the KV cache\'s size asked does not depend on one, so it is shown in the plan with the most throughput '
  + '(say e.g. "50 ms per token, ttft under 2 s" to hold the plan to bounds)';

/**
 * A KV cache's size asked with no latency bound stated: planned with none, rather than with the interactive bounds a serving
 * question otherwise takes (defaults.ts fillLatencyBounds). QA: "how much memory does the kv cache take for llama3 70b at
 * 128k context" gave the size, then "closest to the bounds, missing them" of bounds the asker never set, which the size does
 * not depend on (per token and per sequence it is the model's; on each GPU, the plan's TP and PP share of it). A bound the
 * question states is kept, and so is the interactive one beside it (a question that bounds one latency asks for a service).
 */
export function withoutAssumedBounds(q: ParsedQuestion): ParsedQuestion {
  const s = q.stated;
  if (!ASKS_KV_SIZE.test(q.text) || s.maxTokenSeconds !== undefined || s.maxFirstTokenSeconds !== undefined) return q;
  const p = q.parameters;
  if (p.maxTokenSeconds === undefined && p.maxFirstTokenSeconds === undefined) return q;
  const { maxTokenSeconds: _perToken, maxFirstTokenSeconds: _firstToken, ...unbounded } = p;
  const defaults = q.defaults.filter((d) => d.field !== 'maxTokenSeconds' && d.field !== 'maxFirstTokenSeconds');
  return { ...q, parameters: { ...unbounded, offline: true }, defaults: [...defaults, { field: 'offline', value: 'no latency bound', text: NO_BOUND_FOR_KV_SIZE }] };
}
