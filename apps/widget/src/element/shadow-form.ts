/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * What both elements do with their shadow root and its form: mount the stylesheet and markup, wire the
 * form's input, fill the controls, mark a field's issue beside it, replace an output slot, send an event.
 * form-element.ts's FormElement, the base of both elements, puts them together; each element keeps only its own flow.
 */
import { hiddenFor, type FieldSpec } from '../form/fields.ts';
import type { FieldIssue } from '../form/parse-field.ts';
import { trustedHtml } from '../trusted-types.ts';
import { constructedStyles, STYLES } from './styles.ts';

/** Inputs settle for this long before the answer reruns (keystrokes in a number coalesce). */
export const INPUT_DEBOUNCE_MS = 120;

/**
 * An open shadow root on `host` with the shared stylesheet and `html`; `onInput` hears every input and
 * change of its form, and submitting the form does nothing (there is nothing to send: answers follow the input).
 */
export function mountShadow(host: HTMLElement, html: string, onInput: (ev: Event) => void): ShadowRoot {
  const root = host.attachShadow({ mode: 'open' });
  // A constructable stylesheet where there is one: a strict CSP (style-src 'self') blocks a <style> element.
  const sheet = constructedStyles();
  try {
    if (sheet) {
      root.adoptedStyleSheets = [sheet];
      root.innerHTML = trustedHtml(html);
    } else {
      root.innerHTML = trustedHtml(`<style>${STYLES}</style>${html}`);
    }
  } catch (error) {
    // A page enforcing Trusted Types whose CSP does not list the widget's policy refuses its markup (trusted-types.ts):
    // the box says what to add rather than staying empty (QA), and the error still reaches the console.
    root.textContent = 'trainplan: this page\'s Content-Security-Policy refuses the widget\'s markup: list trainplan-widget in its trusted-types directive';
    throw error;
  }
  const form = root.querySelector('form')!;
  form.addEventListener('input', onInput);
  form.addEventListener('change', onInput);
  form.addEventListener('submit', (ev) => ev.preventDefault());
  return root;
}

/** Runs `fn`, handing anything it throws or rejects with to `fail`: a custom element never throws into its host page. */
export function guarded(fn: () => void | Promise<void>, fail: (e: unknown) => void): void {
  try {
    const r = fn();
    if (r instanceof Promise) r.catch(fail);
  } catch (e) {
    fail(e);
  }
}

/** Writes `values` into the form's controls (`f-<name>`): a checkbox's "true"/"false" as its tick. */
export function writeFields(root: ShadowRoot, fields: readonly FieldSpec[], values: Readonly<Record<string, string>>): void {
  for (const f of fields) {
    const el = root.getElementById(`f-${f.name}`) as HTMLInputElement | HTMLSelectElement | null;
    if (!el) continue;
    const value = values[f.name] ?? '';
    if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = value === 'true';
    else el.value = value;
  }
}

/** A control's value as the form keeps it: a checkbox's tick as "true"/"false" (its `value` is always "on"). */
export const controlValue = (el: HTMLInputElement | HTMLSelectElement): string =>
  (el instanceof HTMLInputElement && el.type === 'checkbox' ? String(el.checked) : el.value);

/**
 * An attribute's value as the form keeps it, trimmed (a select shows only a value that is one of its options:
 * `precision=" fp16 "` showed blank while fp16 was sent); a checkbox's bare attribute (`gated`, `sp=""`) or "true"
 * is "true", anything else "false".
 */
export function attributeValue(fields: readonly FieldSpec[], name: string, value: string): string {
  const text = value.trim();
  if (fields.find((f) => f.name === name)?.kind !== 'checkbox') return text;
  return text === '' || text === 'true' ? 'true' : 'false';
}

/**
 * Shows each field of `fields` (its row and its message slot) only while `hiddenFor` says the request reads it:
 * a custom shape's fields with model "custom", a field with `shownWith` while the field it names is not blank.
 */
export function showFields(root: ShadowRoot, fields: readonly FieldSpec[], values: Readonly<Record<string, string>>): void {
  const hidden = hiddenFor(values);
  for (const f of fields) {
    if (!f.customOnly && f.shownWith === undefined) continue;
    for (const el of root.querySelectorAll<HTMLElement>(`[data-field="${f.name}"], #m-${f.name}`)) el.hidden = hidden(f);
  }
}

/**
 * Writes `text` into `el` only when it says something else: a live region rewritten with the same words is said again
 * (WCAG 4.1.3 Status Messages: QA heard "Fix the marked fields" and an unchanged caption once per keystroke).
 */
export function say(el: Element | null | undefined, text: string): void {
  if (el && el.textContent !== text) el.textContent = text;
}

/**
 * Marks each issue beside its field (its message slot, aria-invalid on the control), after clearing the previous marks.
 * An issue about several fields (`fields`) marks every one of them on screen and is said once in each fieldset, beside
 * the first of them there; the others point to that message (aria-errormessage) and are described by it too
 * (aria-describedby: a screen reader said "invalid entry" with no reason, WCAG 3.3.1 Error Identification, 1.3.1 Info and
 * Relationships). Only its first fieldset's slot is live: the copies in the others are shown, not announced again, and
 * a slot keeps its text when that is unchanged (WCAG 4.1.3: one announcement per message, QA heard one error three
 * times a keystroke). Returns the messages of the issues with no field on screen, for the status line instead.
 */
export function markIssues(root: ShadowRoot, issues: readonly FieldIssue[]): string[] {
  for (const el of root.querySelectorAll('[aria-invalid]')) {
    // The shared message's id is the first of a pointing field's descriptions: its own ones follow.
    if (el.hasAttribute('aria-errormessage')) el.setAttribute('aria-describedby', el.getAttribute('aria-describedby')!.replace(/^\S+ /, ''));
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-errormessage');
  }
  const general: string[] = [];
  const texts = new Map<Element, string>();
  const live = new Set<Element>();
  for (const issue of issues) {
    const said = new Map<Element, string>();
    for (const name of issue.fields ?? (issue.field ? [issue.field] : [])) {
      const msg = root.getElementById(`m-${name}`);
      const input = root.getElementById(`f-${name}`);
      // A field and its message hidden together (the estimator's custom shape under a preset) count as off screen.
      if (!msg || !input || msg.hidden) continue;
      input.setAttribute('aria-invalid', 'true');
      const group = msg.closest('fieldset') ?? msg;
      const sharedId = said.get(group);
      if (sharedId !== undefined) {
        input.setAttribute('aria-errormessage', sharedId);
        input.setAttribute('aria-describedby', `${sharedId} ${input.getAttribute('aria-describedby')}`);
        continue;
      }
      if (said.size === 0) live.add(msg);
      said.set(group, msg.id);
      const before = texts.get(msg);
      texts.set(msg, before ? `${before}; ${issue.message}` : issue.message);
    }
    if (said.size === 0) general.push(issue.message);
  }
  for (const el of root.querySelectorAll('.msg')) {
    el.setAttribute('aria-live', texts.has(el) && !live.has(el) ? 'off' : 'polite');
    say(el, texts.get(el) ?? '');
  }
  return general;
}

/**
 * Replaces the markup of the first element matching `selector` (an output slot), unless it is the same (parsed and
 * written out as the slot's is): a live region rewritten with the same content is said again (WCAG 4.1.3, QA: an
 * unchanged caption and headline announced on every keystroke).
 */
export function setHtml(root: ShadowRoot, selector: string, html: string): void {
  const el = root.querySelector(selector);
  const t = document.createElement('template');
  t.innerHTML = trustedHtml(html);
  if (el && el.innerHTML !== t.innerHTML) el.replaceChildren(t.content);
}


/** Dispatches `type` with `detail`, bubbling out of the shadow root so a host page can listen on any ancestor. */
export function emit(host: HTMLElement, type: string, detail: unknown): void {
  host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
