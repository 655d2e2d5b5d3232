import { runInference, type InferenceResponseJson } from '@trainplan/protocol';
import { inferenceRequestFromFields } from '../../src/serving/request-from-fields.ts';
import { SERVING_DEFAULTS } from '../../src/serving/serving-fields.ts';
import { servingView } from '../../src/serving/serving-view.ts';

export type Served = Extract<InferenceResponseJson, { ok: true }>;

/**
 * The request the serving form makes of `values` over its defaults (Llama 3 70B on H100, 2,048 + 512 tokens),
 * runInference's own answer to it, and the view the widget draws of that answer.
 */
export function servingAnswer(values: Record<string, string> = {}) {
  const r = inferenceRequestFromFields({ ...SERVING_DEFAULTS, ...values });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const answer = runInference(r.request);
  if (!answer.ok) throw new Error(answer.message);
  return { request: r.request, answer: answer as Served, view: servingView(answer, r.request) };
}
