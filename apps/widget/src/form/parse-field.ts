import { formatCountExact, parseCount, parseDecimal, parseTokenLength } from '@trainplan/units';
import type { FieldSpec } from './fields.ts';

/** A problem with the reader's input, shown beside its field (or its fields). */
export interface FieldIssue {
  /** The field's name (= its attribute), or '' when no one field is to blame. */
  readonly field: string;
  /**
   * An issue about several fields at once (t × p × c does not divide the GPUs): every field it names, each marked;
   * `field` is then ''. Blaming one of them would point the reader at the wrong knob.
   */
  readonly fields?: readonly string[];
  readonly message: string;
}

/**
 * One field's text → its value, or the issue to show beside it. Only checks of the field alone live here
 * (shared by both elements' forms); whether the values make sense together is the protocol's answer.
 */
function parseField(spec: FieldSpec, raw: string): { value?: number | string | boolean; issue?: string } {
  const text = raw.trim();
  if (spec.kind === 'checkbox') return { value: text === 'true' || text === 'on' };
  if (spec.kind === 'select') {
    const known = spec.options?.some(([v]) => v === text) ?? true;
    return known ? { value: text } : { issue: `unknown ${spec.label.toLowerCase()} "${text}"` };
  }
  if (text === '') return spec.optional ? {} : { issue: 'required' };
  const n = spec.kind === 'count' ? parseCount(text) : spec.kind === 'length' ? parseTokenLength(text) ?? parseDecimal(text) : parseDecimal(text);
  if (n === undefined || !Number.isFinite(n)) return { issue: spec.kind === 'count' ? `not a count (e.g. 300B, 2T): "${text}"` : `not a number: "${text}"` };
  // A count is whole too: 1.5 tokens is no budget (1.5T is).
  if (spec.kind !== 'number' && !Number.isInteger(n)) return { issue: `a whole number, got ${text}` };
  // Grouped as every other figure the widget shows ("at most 10,000,000", not 10000000: QA); a count as it is typed ("1000T").
  const bound = (b: number) => (spec.kind === 'count' ? formatCountExact(b) : b.toLocaleString('en-US'));
  if (spec.above !== undefined && n <= spec.above) return { issue: `more than ${bound(spec.above)}, got ${text}` };
  if (spec.min !== undefined && n < spec.min) return { issue: `at least ${bound(spec.min)}, got ${text}` };
  if (spec.max !== undefined && n > spec.max) return { issue: `at most ${bound(spec.max)}, got ${text}` };
  return { value: n };
}

/**
 * Every field of `fields` parsed from `values`: the values by name, or every field's issue. `skip` leaves a
 * field out (unparsed, undefined), e.g. a custom shape's fields while the model is a preset.
 */
export function parseFields(
  fields: readonly FieldSpec[], values: Readonly<Record<string, string>>, skip: (f: FieldSpec) => boolean = () => false,
): { ok: true; values: Record<string, number | string | boolean | undefined> } | { ok: false; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const out: Record<string, number | string | boolean | undefined> = {};
  for (const spec of fields) {
    if (skip(spec)) continue;
    const parsed = parseField(spec, values[spec.name] ?? '');
    if (parsed.issue) issues.push({ field: spec.name, message: parsed.issue });
    out[spec.name] = parsed.value;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, values: out };
}
