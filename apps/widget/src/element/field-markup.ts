import { esc } from '../charts/markup.ts';
import type { FieldSpec } from '../form/fields.ts';

/**
 * A form's fields as markup, shared by both elements: each field is a label and its control, then its
 * message slot (`m-<name>`, where the field's issue is shown); `f-<name>` is the control's id.
 */
function control(f: FieldSpec): string {
  const described = f.kind === 'checkbox' && f.hint ? `m-${f.name} h-${f.name}` : `m-${f.name}`;
  const common = `id="f-${f.name}" name="${f.name}" aria-describedby="${described}"`;
  if (f.kind === 'select') {
    const options = (f.options ?? []).map(([v, l]) => `<option value="${esc(v)}">${esc(l)}</option>`).join('');
    return `<select ${common}>${options}</select>`;
  }
  if (f.kind === 'checkbox') return `<input type="checkbox" ${common}>`;
  // Text, not type=number: a browser's number input reads "abc" as "", which would hide the reader's
  // mistake instead of naming it.
  const mode = f.kind === 'integer' ? 'numeric' : 'decimal';
  return `<input type="text" inputmode="${mode}" autocomplete="off" spellcheck="false" ${common}${f.hint ? ` placeholder="${esc(f.hint)}"` : ''}>`;
}

export function field(f: FieldSpec): string {
  const cls = `field${f.kind === 'checkbox' ? ' check' : ''}${f.wide ? ' wide' : ''}`;
  const label = `<label for="f-${f.name}">${esc(f.label)}</label>`;
  // A checkbox has no placeholder: its hint is a line under it.
  const hint = f.kind === 'checkbox' && f.hint ? `<span class="hint" id="h-${f.name}">${esc(f.hint)}</span>` : '';
  const body = f.kind === 'checkbox' ? `${control(f)}${label}${hint}` : `${label}${control(f)}`;
  // shadow-form.ts's showFields hides a field and its message together (a custom shape's, or one shown with another).
  // The message follows the field as its own item across the fieldset's whole row (styles.ts): beside the
  // field, a long one (out of memory lists what to try) made its row tall and pushed the next row out of line.
  return `<div class="${cls}" data-field="${f.name}">${body}</div><span class="msg" id="m-${f.name}" aria-live="polite"></span>`;
}

/** The fields grouped into fieldsets, in `groups`' order: [group, legend] pairs. */
export function fieldsets(fields: readonly FieldSpec[], groups: readonly (readonly [string, string])[]): string {
  return groups.map(([g, title]) => `<fieldset data-group="${g}"><legend>${esc(title)}</legend>${fields.filter((f) => f.group === g).map(field).join('')}</fieldset>`).join('');
}
