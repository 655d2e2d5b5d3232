import type { FieldSpec } from './fields.ts';
import type { FieldIssue } from './parse-field.ts';

/** A request field's wire name, and a quoted value after it (`kvCachePrecision "fp8"`). */
const WIRE = /(?<![\w.])([a-z]+(?:[A-Z][a-z]*)+|[a-z]+)(?![\w])(?: "([\w.-]+)")?/g;

/**
 * The protocol's messages are written for API callers and name fields by their wire names: "must be a multiple of
 * attentionHeads (96)", "at most promptTokens (2,048)", `kvCachePrecision "fp8"`. Beside a form, each field it has is
 * named by the label a reader sees there (“Attention heads”), a quoted value kept after it; `paths` maps the
 * protocol's issue paths to the form's fields, a wire name being a path's last part. A camelCase name is a field
 * wherever it stands; a one-word name ("batching", "precision") only with a quoted value, since it is an English
 * word too. `named` is every field the message names: by wire name, or in words by a label of two words or more
 * (check-plan's "FFN size 7 does not split evenly over 8 ranks"; one word, "Model" or "Nodes", says other things too).
 */
export function inLabels(message: string, fields: readonly FieldSpec[], paths: Readonly<Record<string, string>>): { text: string; named: string[] } {
  const named = new Set<string>();
  const text = message.replace(WIRE, (whole, name: string, value: string | undefined) => {
    const field = Object.entries(paths).find(([path]) => path.split('.').pop() === name)?.[1];
    const label = fields.find((f) => f.name === field)?.label;
    if (!label || (value === undefined && !/[A-Z]/.test(name))) return whole;
    named.add(field!);
    return value === undefined ? `“${label}”` : `“${label}” ${value}`;
  });
  for (const f of fields) {
    const words = f.label.replace(/ \(.*/, '').toLowerCase();
    if (words.includes(' ') && text.toLowerCase().includes(words)) named.add(f.name);
  }
  return { text, named: [...named] };
}

/**
 * A protocol issue as the form shows it: in the form's labels (inLabels), beside its own field or fields and every
 * other field its message names, its own first (the message goes beside the first of them in each fieldset).
 */
export function labelledIssue(issue: FieldIssue, fields: readonly FieldSpec[], paths: Readonly<Record<string, string>>): FieldIssue {
  const { text, named } = inLabels(issue.message, fields, paths);
  const all = [...new Set([...(issue.fields ?? (issue.field ? [issue.field] : [])), ...named])];
  return all.length > 1 ? { field: '', fields: all, message: text } : { field: all[0] ?? '', message: text };
}
