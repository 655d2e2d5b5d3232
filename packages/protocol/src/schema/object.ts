/** Objects with required, optional and defaulted fields; unknown keys are refused or stripped. */
import { meantPhrase, nearestAll } from '../nearest.ts';
import { createContext, isPlainObject, mismatch, nested, report } from './context.ts';
import { withDescription } from './scalars.ts';
import type { BaseOptions, Checked, Infer, JsonSchema, JsonValue, Schema } from './types.ts';

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K]['presence'] extends 'optional' ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The validated type of an object: optional fields may be absent, defaulted fields never are. */
export type ObjectOutput<S extends Shape> = Simplify<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

export interface ObjectOptions extends BaseOptions {
  /**
   * 'reject' (the default) reports each unknown key, so a typo like `tensr` is never silently ignored;
   * 'strip' drops them, for documents we read from a newer peer that may carry fields we do not know.
   */
  unknownKeys?: 'reject' | 'strip';
  /**
   * Cross-field checks over the raw input, run even when some fields are invalid so that every
   * issue is reported at once. `issue('nodes', '…')` reports at this object's path + `.nodes`.
   */
  refine?: (raw: Readonly<Record<string, unknown>>, issue: (key: string, message: string) => void) => void;
  /** Extra JSON Schema keywords that state the `refine` rules (oneOf, not, if/then). */
  jsonSchema?: JsonSchema;
}

/** An object's schema, with its field names: an unknown key of the object around it that is one of them is hinted there. */
export interface ObjectSchema<T> extends Schema<T> {
  readonly fields: readonly string[];
}

/** The field names of `schema` when it is an object's (optional and withDefault keep them: they copy the schema). */
const fieldsOf = (schema: Schema<unknown> | undefined): readonly string[] =>
  (schema !== undefined && 'fields' in schema && Array.isArray(schema.fields) ? schema.fields as readonly string[] : []);

export function object<S extends Shape>(shape: S, options: ObjectOptions = {}): ObjectSchema<ObjectOutput<S>> {
  const expected = options.expected ?? 'an object';
  const keys = Object.keys(shape);
  const isKnown = (key: string): boolean => Object.hasOwn(shape, key);
  const discriminators = keys.filter((key) => shape[key]?.constant !== undefined);
  // An unknown key that is a field of an object field ("gpu" of "cluster"): its path, "cluster.gpu", is the hint.
  const nestedPaths = keys.flatMap((key) => fieldsOf(shape[key]).map((inner) => `${key}.${inner}`));
  return {
    expected,
    presence: 'required',
    fields: keys,
    accepts: (value) => isPlainObject(value) && discriminators.every((key) => value[key] === shape[key]?.constant),
    check(value, at, ctx) {
      if (!isPlainObject(value)) return mismatch(ctx, at, expected, value);
      return nested(ctx, at, (): Checked<ObjectOutput<S>> => {
        const out: Record<string, unknown> = {};
        let ok = true;
        for (const key of keys) {
          const field = shape[key];
          if (field === undefined) continue;
          const raw = Object.hasOwn(value, key) ? value[key] : undefined;
          const path = [...at, key];
          if (raw === undefined && field.presence === 'optional') continue;
          if (raw === undefined && field.presence === 'required') {
            report(ctx, path, `missing required field: expected ${field.expected}`);
            ok = false;
            continue;
          }
          const checked = field.check(raw === undefined ? field.defaultValue : raw, path, ctx);
          if (checked.ok) out[key] = checked.value;
          else ok = false;
        }
        if (options.unknownKeys !== 'strip') {
          for (const key of Object.keys(value)) {
            if (isKnown(key)) continue;
            report(ctx, [...at, key], () => `unknown field${hint(key, keys, nestedPaths)}`);
            ok = false;
          }
        }
        options.refine?.(value, (key, message) => {
          report(ctx, [...at, key], message);
          ok = false;
        });
        return ok ? { ok: true, value: out as ObjectOutput<S> } : { ok: false };
      }, { ok: false });
    },
    toJsonSchema() {
      const properties: Record<string, JsonSchema> = {};
      for (const key of keys) properties[key] = shape[key]?.toJsonSchema() ?? {};
      const required = keys.filter((key) => shape[key]?.presence === 'required');
      return withDescription({
        type: 'object',
        properties,
        ...(required.length > 0 && { required }),
        ...(options.unknownKeys !== 'strip' && { additionalProperties: false }),
        ...options.jsonSchema,
      }, options);
    },
  };
}

/** A field that may be absent; the output then lacks it too. */
export function optional<T>(schema: Schema<T>): Schema<T> & { readonly presence: 'optional' } {
  return { ...schema, presence: 'optional' };
}

/**
 * A field that may be absent, in which case `value` is validated in its place (so a default object
 * such as `{}` gets its own defaults filled, and every answer gets a fresh copy).
 * Throws when the default itself is invalid: that is a mistake in our schema, not in the input.
 */
export function withDefault<T>(schema: Schema<T>, value: JsonValue): Schema<T> & { readonly presence: 'default' } {
  const ctx = createContext();
  if (!schema.check(value, [], ctx).ok) {
    const first = ctx.issues[0];
    throw new Error(`invalid default ${JSON.stringify(value)}: ${first ? `${first.path} ${first.message}`.trim() : ''}`);
  }
  return {
    ...schema,
    presence: 'default',
    defaultValue: value,
    toJsonSchema: () => ({ ...schema.toJsonSchema(), default: value }),
  };
}

/** Ties offered at most, as unknown ids offer theirs (preset-ids.ts): more is no suggestion. */
const MAX_MEANT = 3;

/**
 * " (did you mean cluster.gpu?)" for a key that is a field one object down (a top-level "gpu" where the request takes
 * it under "cluster"), before any near miss here ("gpus" is one letter from "gpu", but a different field);
 * " (did you mean globalBatchSize?)" for a near miss, by the rule CLI flags and ids go by (nearest.ts nearestAll: the
 * field the key begins, as `--global` is --global-batch, else those at most two edits away, case ignored; each of a
 * few that tie); else the list of known fields.
 */
function hint(key: string, known: readonly string[], nested: readonly string[] = []): string {
  const below = nested.filter((path) => path.slice(path.indexOf('.') + 1).toLowerCase() === key.toLowerCase());
  if (below.length > 0) return ` (did you mean ${below.join(' or ')}?)`;
  if (known.length === 0) return '';
  // nearestAll folds the typed key's case, so the names are compared folded too, and given back as spelt.
  const folded = known.map((name) => name.toLowerCase());
  const meant = nearestAll(key, folded).map((name) => known[folded.indexOf(name)]!);
  if (meant.length > 0 && meant.length <= MAX_MEANT) return meantPhrase(meant);
  return ` (known fields: ${known.join(', ')})`;
}
