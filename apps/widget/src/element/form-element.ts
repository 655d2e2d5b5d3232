/// <reference lib="dom" />
import { apiBackend, failureOf, localBackend, type Backend } from '../compute/backend.ts';
import type { FieldSpec, FieldValues } from '../form/fields.ts';
import type { FieldIssue } from '../form/parse-field.ts';
import {
  attributeValue, controlValue, emit, guarded, INPUT_DEBOUNCE_MS, markIssues, mountShadow, say, setHtml, showFields, writeFields,
} from './shadow-form.ts';

/** What one form element is made of: its fields (each name is also its attribute), their defaults and its shadow markup. */
export interface FormElementSpec {
  readonly fields: readonly FieldSpec[];
  readonly defaults: FieldValues;
  readonly template: string;
  /** What a status adds while an earlier answer stays on screen (" Showing the last answer."). */
  readonly keptNote: string;
}

/**
 * What `<trainplan-estimator>` and `<trainplan-serving>` share: a shadow form whose fields are preset by
 * attributes (removing one restores its default; `api="https://…"` picks the backend), edited by the reader, and
 * answered again after each change (debounced while typing, the stale answer dropped); a status line, the
 * issues beside their fields, and the last answer (`Answer`) kept on screen when the input cannot be answered.
 * A subclass gives `update`, the answer to the current values; it never throws into the host page (`guard`).
 */
export abstract class FormElement<Answer> extends HTMLElement {
  protected readonly root: ShadowRoot;
  protected values: FieldValues;
  protected backend: Backend = localBackend();
  /** The last good answer, kept on screen while the input cannot be answered. */
  protected answer: Answer | undefined;
  readonly #spec: FormElementSpec;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The busy status `pending` says a task later (unless an answer came first). */
  #busy: ReturnType<typeof setTimeout> | undefined;
  #run = 0;
  #connected = false;

  constructor(spec: FormElementSpec) {
    super();
    this.#spec = spec;
    this.values = { ...spec.defaults };
    this.root = mountShadow(this, spec.template, (ev) => this.guard(() => this.#onInput(ev)));
  }

  connectedCallback(): void {
    this.guard(() => {
      this.#connected = true;
      for (const { name } of this.#spec.fields) {
        const attr = this.getAttribute(name);
        if (attr !== null) this.values[name] = attributeValue(this.#spec.fields, name, attr);
      }
      this.setBackend();
      this.connected();
      this.writeForm();
      this.schedule(0);
    });
  }

  disconnectedCallback(): void {
    this.#connected = false;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.disconnected();
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    this.guard(() => {
      if (!this.#connected) return;
      const { fields, defaults } = this.#spec;
      if (name === 'api') this.setBackend();
      else if (fields.some((f) => f.name === name)) this.change(name, value === null ? (defaults[name] ?? '') : attributeValue(fields, name, value));
      else return;
      this.writeForm();
      this.schedule(0);
    });
  }

  /** The answer to the current values; `run` says whether it is still current (`isCurrent`) once an await is over. */
  protected abstract update(run: number): Promise<void>;

  /** After the attributes are read, before the first answer (the estimator starts from the page's link here). */
  protected connected(): void {}

  protected disconnected(): void {}

  protected setBackend(): void {
    const api = this.getAttribute('api');
    this.backend = api ? apiBackend(api) : localBackend();
  }

  /** One field takes a new value (from the reader or an attribute); true when others changed with it (the form is redrawn). */
  protected change(name: string, value: string): boolean {
    this.values[name] = value;
    return false;
  }

  /** The reader edited a field: by default a change like an attribute's. True when the form must be redrawn. */
  protected input(name: string, value: string): boolean {
    return this.change(name, value);
  }

  #onInput(ev: Event): void {
    const target = ev.target as HTMLInputElement | HTMLSelectElement | null;
    if (!target?.name) return;
    // The update under way answers values the reader has just changed: its answer is dropped (isCurrent), not shown
    // when it comes within the debounce below. A search answer that came then wrote its plan over the field typed in (QA).
    this.#run += 1;
    if (this.input(target.name, controlValue(target))) this.writeForm();
    else showFields(this.root, this.#spec.fields, this.values);
    this.schedule(ev.type === 'change' ? 0 : INPUT_DEBOUNCE_MS);
  }

  /** Runs `fn`, turning anything it throws into a status message: the host page never sees it. */
  protected guard(fn: () => void | Promise<void>): void {
    guarded(fn, (e) => this.status(`${failureOf(e)}.${this.kept()}`));
  }

  /** The form shows the values, and only the fields the values make relevant (showFields). */
  protected writeForm(): void {
    writeFields(this.root, this.#spec.fields, this.values);
    showFields(this.root, this.#spec.fields, this.values);
  }

  protected schedule(delayMs: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.guard(() => this.update(++this.#run)), delayMs);
  }

  /** Whether `run` is still the latest update, no field edited since it began: a slower answer to earlier values is dropped. */
  protected isCurrent(run: number): boolean {
    return run === this.#run;
  }

  /**
   * The status line says `text`: an error, in the error colour, or with `busy` what is under way ("Estimating…"), muted
   * (`.busy`, styles.ts): progress in the error colour read as a failure (QA).
   */
  protected status(text: string, busy?: boolean): void {
    clearTimeout(this.#busy);
    const el = this.root.querySelector('.status');
    say(el, text);
    el?.classList.toggle('busy', !!busy);
  }

  /** What a status adds while an earlier answer stays on screen. */
  protected kept(): string {
    return this.answer === undefined ? '' : this.#spec.keptNote;
  }

  /**
   * Marks each issue's field (or fields), or lists it in the status line when it has none on screen; `lead` is what
   * the status says of the marked fields (a typing mistake by default). Issues also go out as `trainplan-invalid`.
   * The results on screen are marked stale (`.stale`, styles.ts) while there are issues.
   */
  protected showIssues(issues: readonly FieldIssue[], lead?: string): void {
    const general = markIssues(this.root, issues);
    // The last good answer stays, marked stale and said to be the last valid input's: unmarked it read as the form's.
    this.root.querySelector('.results')?.classList.toggle('stale', issues.length > 0);
    if (issues.length === 0) return;
    const marked = this.root.querySelectorAll('[aria-invalid]').length;
    this.status(`${general.length > 0 ? `${general.join('; ')}.` : lead ?? `Fix the marked ${marked > 1 ? 'fields' : 'field'}.`}${this.kept()}`);
    emit(this, 'trainplan-invalid', { issues });
  }

  /**
   * An answer to the form is on its way (an API may take seconds, or never answer: backend.ts times it out): until it
   * comes the results on screen are not the form's, so they are marked stale as with an error, and the status says
   * `text`, a task later: an answer computed in the page comes in the same task, and "Estimating…" said and replaced at
   * once was one more announcement per keystroke (WCAG 4.1.3 Status Messages, QA).
   */
  protected pending(text: string): void {
    this.root.querySelector('.results')?.classList.add('stale');
    clearTimeout(this.#busy);
    this.#busy = setTimeout(() => this.status(`${text}${this.kept()}`, true));
  }

  /** The backend failed for `run` (unreachable, timed out, an HTTP error): said in the status while `run` is current; the results stay marked stale. */
  protected unreachable(run: number, e: unknown): void {
    if (this.isCurrent(run)) this.status(`${failureOf(e)}.${this.kept()}`);
  }

  /** Replaces the markup of an output slot. */
  protected set(selector: string, html: string): void {
    setHtml(this.root, selector, html);
  }

  /** A good answer: the issues and status cleared, `answer` kept, the results shown (hidden until the first) with `sections`' markup. */
  protected show(answer: Answer, sections: Readonly<Record<string, string>>): void {
    this.showIssues([]);
    this.status('');
    this.answer = answer;
    const results = this.root.querySelector<HTMLElement>('.results');
    if (results) results.hidden = false;
    for (const [selector, html] of Object.entries(sections)) this.set(selector, html);
  }
}
