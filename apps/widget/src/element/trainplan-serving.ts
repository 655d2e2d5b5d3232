/// <reference lib="dom" />
import type { InferenceResponseJson } from '@trainplan/protocol';
import { apiBackend, localBackend, type Backend } from '../compute/backend.ts';
import type { FieldValues } from '../form/fields.ts';
import type { FieldIssue } from '../form/parse-field.ts';
import { inferenceRequestFromFields, servingFieldForPath, type ServingRequest } from '../serving/request-from-fields.ts';
import { SERVING_DEFAULTS, SERVING_FIELDS, SERVING_FIELD_NAMES } from '../serving/serving-fields.ts';
import { servingSections } from '../serving/serving-results.ts';
import { servingView } from '../serving/serving-view.ts';
import { servingTemplate } from './serving-template.ts';
import {
  attributeValue, controlValue, emit, guarded, INPUT_DEBOUNCE_MS, markIssues, messageOf, mountShadow, setHtml, showFields, writeFields,
} from './shadow-form.ts';

type Served = Extract<InferenceResponseJson, { ok: true }>;

/**
 * `<trainplan-serving>`: "how do I serve model X on GPU Y" for any page. Attributes preset the request
 * (serving/serving-fields.ts: model, gpu, precision, prompt, output, batching, prefill-chunk, shared-prefix,
 * gpus, rate, max-token-ms, max-ttft, gpu-memory, draft-model, draft-tokens, acceptance; custom shapes as the
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
export class TrainplanServing extends HTMLElement {
  static readonly observedAttributes = [...SERVING_FIELD_NAMES, 'api'];

  readonly #root: ShadowRoot;
  #values: FieldValues = { ...SERVING_DEFAULTS };
  #backend: Backend = localBackend();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #run = 0;
  #connected = false;
  #last: { request: ServingRequest; response: Served } | undefined;

  constructor() {
    super();
    this.#root = mountShadow(this, servingTemplate(), (ev) => this.#guard(() => this.#onInput(ev)));
  }

  /** The last request answered (the protocol's inference request, a custom model as typed), or undefined before the first. */
  get request(): ServingRequest | undefined {
    return this.#last?.request;
  }

  /** The last answer (runInference's JSON, ok), or undefined before the first. */
  get response(): Served | undefined {
    return this.#last?.response;
  }

  connectedCallback(): void {
    this.#guard(() => {
      this.#connected = true;
      for (const name of SERVING_FIELD_NAMES) {
        const attr = this.getAttribute(name);
        if (attr !== null) this.#values[name] = attributeValue(SERVING_FIELDS, name, attr);
      }
      this.#setBackend();
      this.#writeForm();
      this.#schedule(0);
    });
  }

  disconnectedCallback(): void {
    this.#connected = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    this.#guard(() => {
      if (!this.#connected) return;
      if (name === 'api') this.#setBackend();
      else this.#values[name] = value === null ? (SERVING_DEFAULTS[name] ?? '') : attributeValue(SERVING_FIELDS, name, value);
      this.#writeForm();
      this.#schedule(0);
    });
  }

  #guard(fn: () => void | Promise<void>): void {
    guarded(fn, (e) => this.#status(`Something went wrong: ${messageOf(e)}.${this.#lastGood()}`));
  }

  #setBackend(): void {
    const api = this.getAttribute('api');
    this.#backend = api ? apiBackend(api) : localBackend();
  }

  #onInput(ev: Event): void {
    const target = ev.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name) return;
    this.#values[target.name] = controlValue(target);
    if (target.name === 'model' || SERVING_FIELDS.some((f) => f.shownWith === target.name)) this.#showFields();
    this.#schedule(ev.type === 'change' ? 0 : INPUT_DEBOUNCE_MS);
  }

  /** The form shows the values, a custom shape's fields only with model "custom", γ and α only with a draft model. */
  #writeForm(): void {
    writeFields(this.#root, SERVING_FIELDS, this.#values);
    this.#showFields();
  }

  #showFields(): void {
    showFields(this.#root, SERVING_FIELDS, this.#values);
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#guard(() => this.#update()), delayMs);
  }

  #status(text: string): void {
    const el = this.#root.querySelector('.status');
    if (el) el.textContent = text;
  }

  /** What the status adds while an earlier answer stays on screen. */
  #lastGood(): string {
    return this.#last ? ' Showing the last answer.' : '';
  }

  /** Marks each issue's field; the status lists the issues with no field, or points at the marked ones. */
  #showIssues(issues: readonly FieldIssue[]): void {
    const general = markIssues(this.#root, issues);
    if (issues.length === 0) return;
    this.#status(`${general.length > 0 ? `${general.join('; ')}.` : 'Fix the marked field.'}${this.#lastGood()}`);
    emit(this, 'trainplan-invalid', { issues });
  }

  async #update(): Promise<void> {
    const run = ++this.#run;
    const parsed = inferenceRequestFromFields(this.#values);
    if (!parsed.ok) return this.#showIssues(parsed.issues);
    const { request } = parsed;
    let response: InferenceResponseJson;
    try {
      response = await this.#backend.inference(request);
    } catch (e) {
      if (run === this.#run) this.#status(`Could not reach the estimator: ${messageOf(e)}.${this.#lastGood()}`);
      return;
    }
    if (run !== this.#run) return;
    if (!response.ok) {
      const issues = response.issues.map((i) => ({ field: servingFieldForPath(i.path), message: i.message }));
      return this.#showIssues(issues.length > 0 ? issues : [{ field: '', message: response.message }]);
    }
    this.#showIssues([]);
    this.#status('');
    this.#last = { request, response };
    const results = this.#root.querySelector<HTMLElement>('.results');
    if (results) results.hidden = false;
    const sections = servingSections(servingView(response, request), request.maxDecodeSecondsPerToken);
    for (const [selector, html] of Object.entries(sections)) setHtml(this.#root, selector, html);
    emit(this, 'trainplan-inference', { request, response });
  }
}

/** Registers `<trainplan-serving>` once (a page may load the module twice). */
export function defineTrainplanServing(name = 'trainplan-serving'): void {
  if (!customElements.get(name)) customElements.define(name, TrainplanServing);
}
