import { inferenceBoundsText, runInference, type InferencePointJson, type InferenceResponseJson } from '@trainplan/protocol';
import { DEFAULT_GPU } from '../defaults.ts';
import { modelInputOf } from '../model-of.ts';
import type { AskParameters } from '../question.ts';
import { speculativeOf } from './serving-speculation.ts';

/** The request a serving answer asks the protocol's runInference (serving-answer.ts), from the question's parameters. */

/** How the requests are batched: continuous, or static where the question asks it (serving-answer.ts ASKS_STATIC). */
export type Batching = 'static' | 'continuous';

/** runInference's answer where it plans (ok). */
export type Served = Extract<InferenceResponseJson, { ok: true }>;

/** The protocol's inference request for the question's parameters, on `gpus` where given, batched as `batching`. */
export function requestOf(p: AskParameters, gpus: number | undefined, batching: Batching): Record<string, unknown> {
  return {
    model: modelInputOf(p),
    cluster: { gpu: p.system ?? p.gpu ?? DEFAULT_GPU, ...(p.gpusPerNode !== undefined && { gpusPerNode: p.gpusPerNode }), ...(p.network !== undefined && { network: p.network }) },
    ...(p.precision !== undefined && { precision: p.precision }),
    ...(p.kvCachePrecision !== undefined && { kvCachePrecision: p.kvCachePrecision }),
    // "with 90% memory", "vllm gpu_memory_utilization 0.9": the share the server may fill (protocol inference-request.ts).
    ...(p.memoryFraction !== undefined && { gpuMemoryUtilization: p.memoryFraction }),
    promptTokens: p.promptTokens, outputTokens: p.outputTokens,
    ...(p.sharedPrefixTokens !== undefined && { sharedPrefixTokens: p.sharedPrefixTokens }),
    ...(p.maxTokenSeconds !== undefined && { maxDecodeSecondsPerToken: p.maxTokenSeconds }),
    ...(p.maxFirstTokenSeconds !== undefined && { maxPrefillSeconds: p.maxFirstTokenSeconds }),
    ...(p.tensor !== undefined && { tensor: [p.tensor] }),
    ...(p.pipeline !== undefined && { pipeline: [p.pipeline] }),
    ...(p.concurrency !== undefined && { batches: [p.concurrency] }),
    ...(gpus !== undefined && { gpus }),
    ...(p.requestsPerSecond !== undefined && { requestsPerSecond: p.requestsPerSecond }),
    ...(speculativeOf(p) !== undefined && { speculative: speculativeOf(p) }),
    ...(p.pricePerGpuHour !== undefined && { pricePerGpuHour: p.pricePerGpuHour }),
    batching,
  };
}

/** "≤ 2.00 s to the first token, ≤ 200 ms per token": the bounds the plan was held to. */
export const boundsText = (p: AskParameters): string | undefined =>
  inferenceBoundsText({ maxDecodeSecondsPerToken: p.maxTokenSeconds, maxPrefillSeconds: p.maxFirstTokenSeconds });

/** A replica's shape at one batch with no latency bound or rate (serving-capacity.ts asks which bound a larger batch misses); undefined where it plans none. */
export function pointAt(p: AskParameters, x: InferencePointJson, batch: number, batching: Batching): InferencePointJson | undefined {
  const at = { ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: batch, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined, requestsPerSecond: undefined };
  const again = runInference(requestOf(at, x.gpus, batching));
  return again.ok && again.best?.batch === batch ? again.best : undefined;
}
