import { esc } from '../charts/markup.ts';
import { FIELDS, type FieldSpec } from '../form/fields.ts';

const GROUPS = [
  ['model', 'Model'], ['cluster', 'Cluster'], ['batch', 'Batch and precision'], ['parallelism', 'Parallelism'], ['budget', 'How many nodes'],
] as const;

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

function field(f: FieldSpec): string {
  const cls = `field${f.kind === 'checkbox' ? ' check' : ''}${f.wide ? ' wide' : ''}`;
  const label = `<label for="f-${f.name}">${esc(f.label)}</label>`;
  // A checkbox has no placeholder: its hint is a line under it.
  const hint = f.kind === 'checkbox' && f.hint ? `<span class="hint" id="h-${f.name}">${esc(f.hint)}</span>` : '';
  const body = f.kind === 'checkbox' ? `${control(f)}${label}${hint}` : `${label}${control(f)}`;
  const custom = f.customOnly ? ' data-custom' : '';
  // The message follows the field as its own item across the fieldset's whole row (styles.ts): beside the
  // field, a long one (out of memory lists what to try) made its row tall and pushed the next row out of line.
  return `<div class="${cls}" data-field="${f.name}"${custom}>${body}</div><span class="msg" id="m-${f.name}" aria-live="polite"${custom}></span>`;
}

/**
 * The element's shadow DOM: the inputs, grouped, and empty output slots the results fill. The results stay
 * hidden until the first good estimate: a scenario that opens infeasible shows its message, not five empty headings.
 */
export function template(): string {
  const sets = GROUPS.map(([g, title]) => `<fieldset data-group="${g}"><legend>${title}</legend>${FIELDS.filter((f) => f.group === g).map(field).join('')}</fieldset>`).join('');
  return `<div class="tp" part="root">
<form class="inputs" novalidate aria-label="training scenario">${sets}</form>
<section class="outputs" aria-label="estimate">
<p class="status" role="status" aria-live="polite"></p>
<p class="note" aria-live="polite"></p>
<div class="results" hidden>
<div class="headline" aria-live="polite"></div>
<ul class="warnings" aria-live="polite"></ul>
<div class="out-search"></div>
<h3>Where the step goes</h3><div class="out-breakdown"></div>
<h3>Memory per GPU</h3><div class="out-memory"></div>
<h3>Pipeline schedule</h3><div class="out-pipeline"></div>
<h3>Scaling over nodes</h3><div class="out-scaling"></div>
<h3>How many nodes</h3><div class="out-nodes" aria-live="polite"></div>
<div class="out-frontier"></div>
<p class="share"><a class="share-link" href="#">Link to this scenario</a></p>
</div></section></div>`;
}
