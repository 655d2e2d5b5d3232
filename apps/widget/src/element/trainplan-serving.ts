/// <reference lib="dom" />
import type { InferenceResponseJson } from '@trainplan/protocol';
import { labelledIssue } from '../form/field-names.ts';
import { inferenceRequestFromFields, SERVING_PATHS, servingFieldForPath, type ServingRequest } from '../serving/request-from-fields.ts';
import { SERVING_DEFAULTS, SERVING_FIELDS, SERVING_FIELD_NAMES } from '../serving/serving-fields.ts';
import { servingSections } from '../serving/serving-results.ts';
import { servingView } from '../serving/serving-view.ts';
import { FormElement } from './form-element.ts';
import { servingTemplate } from './serving-template.ts';
import { emit } from './shadow-form.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;

/**
 * `<trainplan-serving>`: "how do I serve model X on GPU Y" for any page. Attributes preset the request
 * (serving/serving-fields.ts: model, gpu, precision, kv-cache, prompt, output, batching, prefill-chunk, shared-prefix,
 * gpus, rate, price, max-token-ms, max-ttft, gpu-memory, draft-model, draft-tokens, acceptance; custom shapes as the
 * estimator's: model="custom" layers hidden-size heads kv-heads ffn vocab gated, and seq, blank for the context,
 * prompt + output); `api="https://…"` asks a trainplan API (POST /v1/inference) instead of computing in the page;
 * `theme="light|dark"` overrides prefers-color-scheme.
 * Batching is continuous unless `batching="static"`. With `rate` (requests/s, continuous batching only) the plan
 * shown is the one needing the fewest GPUs, with the replicas and GPUs the rate takes, how loaded they are, the
 * mean wait for a slot and the first token with that wait (max-ttft then bounds it, wait included). With
 * `draft-model` (a preset id; blank: none) the request speculates (Leviathan et al. 2023): the draft proposes
 * `draft-tokens` tokens a step (γ, 1–16, 4 unless given), each accepted with chance `acceptance` (α, in (0, 1],
 * 0.7 unless given), and the figures add the tokens a step yields and the draft's memory; only one pipeline
 * stage is tried. Without a draft model the other two are hidden and not sent.
 *
 * Like `<trainplan-estimator>` it never throws into the host page, shows an input's issue beside its field
 * and keeps the last answer on screen. Events (bubbling, composed): `trainplan-inference` with
 * `{ request, response }` after each answer (one that serves nothing too: it is an answer);
 * `trainplan-invalid` with `{ issues }` when the input cannot be asked.
 */
export class TrainplanServing extends FormElement<{ request: ServingRequest; response: Served }> {
  static readonly observedAttributes = [...SERVING_FIELD_NAMES, 'api'];

  constructor() {
    super({ fields: SERVING_FIELDS, defaults: SERVING_DEFAULTS, template: servingTemplate(), keptNote: ' Showing the last answer.' });
  }

  /** The last request answered (the protocol's inference request, a custom model as typed), or undefined before the first. */
  get request(): ServingRequest | undefined {
    return this.answer?.request;
  }

  /** The last answer (runInference's JSON, ok), or undefined before the first. */
  get response(): Served | undefined {
    return this.answer?.response;
  }

  protected async update(run: number): Promise<void> {
    const parsed = inferenceRequestFromFields(this.values);
    if (!parsed.ok) return this.showIssues(parsed.issues);
    const { request } = parsed;
    let response: InferenceResponseJson;
    this.pending('Estimating…');
    try {
      response = await this.backend.inference(request);
    } catch (e) {
      return this.unreachable(run, e);
    }
    if (!this.isCurrent(run)) return;
    if (!response.ok) {
      const issues = response.issues.map((i) => labelledIssue({ field: servingFieldForPath(i.path), message: i.message }, SERVING_FIELDS, SERVING_PATHS));
      return this.showIssues(issues.length > 0 ? issues : [{ field: '', message: response.message }]);
    }
    this.show({ request, response }, servingSections(servingView(response, request), request.maxDecodeSecondsPerToken));
    emit(this, 'trainplan-inference', { request, response });
  }
}

/** Registers `<trainplan-serving>` once (a page may load the module twice). */
export function defineTrainplanServing(name = 'trainplan-serving'): void {
  if (!customElements.get(name)) customElements.define(name, TrainplanServing);
}
