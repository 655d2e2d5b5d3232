import type { InferenceRequest, ModelObjectInput } from '@trainplan/protocol';
import { ms, seconds } from '@trainplan/units';
import { hiddenFor, type FieldValues } from '../form/fields.ts';
import { CUSTOM_MODEL, modelShape, SHAPE_PATH_TO_FIELD } from '../form/model-shape.ts';
import { parseFields, type FieldIssue } from '../form/parse-field.ts';
import { SERVING_FIELDS } from './serving-fields.ts';

/**
 * An inference request as the form sends it: a custom model as the reader gave it (a blank KV heads or FFN
 * size left out), which runInference completes with the protocol's defaults.
 */
export type ServingRequest = Omit<InferenceRequest, 'model'> & { model: string | ModelObjectInput };

export type ServingRequestResult = { ok: true; request: ServingRequest } | { ok: false; issues: FieldIssue[] };

/**
 * The serving form's values → an inference request (runInference / POST /v1/inference). Each field is
 * checked alone here; what only the protocol knows (fp8 on a GPU without it, a model the GPUs cannot
 * hold) comes back in its answer, mapped to a field by `servingFieldForPath`. The latency bounds are
 * typed in ms per token and s to the first token and sent in seconds, as the request states them. A custom
 * shape's fields are read only with model "custom" (under a preset they are hidden, and ignored); the draft tokens
 * and acceptance rate only with a draft model, which makes the request's `speculative` (blank: no speculation).
 */
export function inferenceRequestFromFields(values: FieldValues): ServingRequestResult {
  const parsed = parseFields(SERVING_FIELDS, values, hiddenFor(values));
  if (!parsed.ok) return parsed;
  const v = parsed.values;
  const num = (name: string) => v[name] as number | undefined;
  const tokenMs = num('max-token-ms');
  const ttft = num('max-ttft');
  const prompt = num('prompt')!;
  const output = num('output')!;
  return {
    ok: true,
    request: {
      model: v.model === CUSTOM_MODEL ? modelShape(v, num('seq') ?? prompt + output) : (v.model as string),
      cluster: { gpu: v.gpu as string },
      ...(v.precision ? { precision: v.precision as NonNullable<InferenceRequest['precision']> } : {}),
      ...(v['kv-cache'] ? { kvCachePrecision: v['kv-cache'] as NonNullable<InferenceRequest['kvCachePrecision']> } : {}),
      promptTokens: prompt,
      outputTokens: output,
      batching: v.batching as InferenceRequest['batching'],
      ...(num('prefill-chunk') !== undefined ? { prefillChunkTokens: num('prefill-chunk') } : {}),
      ...(num('shared-prefix') !== undefined ? { sharedPrefixTokens: num('shared-prefix') } : {}),
      ...(num('gpus') !== undefined ? { gpus: num('gpus') } : {}),
      ...(num('rate') !== undefined ? { requestsPerSecond: num('rate') } : {}),
      ...(num('gpu-memory') !== undefined ? { gpuMemoryUtilization: num('gpu-memory') } : {}),
      ...(num('price') !== undefined ? { pricePerGpuHour: num('price') } : {}),
      ...(tokenMs !== undefined ? { maxDecodeSecondsPerToken: ms(tokenMs) } : {}),
      ...(ttft !== undefined ? { maxPrefillSeconds: seconds(ttft) } : {}),
      ...(v['draft-model'] ? { speculative: { draftModel: v['draft-model'] as string, draftTokens: num('draft-tokens')!, acceptanceRate: num('acceptance')! } } : {}),
    },
  };
}

/** The protocol's issue paths in an inference request → the serving field showing each. */
export const SERVING_PATHS: Readonly<Record<string, string>> = {
  ...SHAPE_PATH_TO_FIELD, cluster: 'gpu', 'cluster.gpu': 'gpu', precision: 'precision', kvCachePrecision: 'kv-cache', promptTokens: 'prompt', outputTokens: 'output',
  batching: 'batching', prefillChunkTokens: 'prefill-chunk', sharedPrefixTokens: 'shared-prefix', gpus: 'gpus', requestsPerSecond: 'rate', pricePerGpuHour: 'price', gpuMemoryUtilization: 'gpu-memory', maxDecodeSecondsPerToken: 'max-token-ms', maxPrefillSeconds: 'max-ttft',
  speculative: 'draft-model', 'speculative.draftModel': 'draft-model', 'speculative.draftTokens': 'draft-tokens', 'speculative.acceptanceRate': 'acceptance',
};

/** The serving field to show a protocol issue beside, from its JSON path ('' when none fits: the status line says it). */
export function servingFieldForPath(path: string): string {
  return SERVING_PATHS[path] ?? '';
}
