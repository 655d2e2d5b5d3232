/** Schemas built from schemas: arrays, unions, and transforms of a validated value. */
import { countOf } from '@trainplan/units';
import { describe, mismatch, nested, report } from './context.ts';
import { withDescription } from './scalars.ts';
import type { BaseOptions, Checked, Schema } from './types.ts';

/** Arrays longer than this are refused unless a schema says otherwise: a hostile-input guard. */
export const DEFAULT_MAX_ITEMS = 1024;

export interface ArrayOptions extends BaseOptions {
  minItems?: number;
  maxItems?: number;
}

export function array<T>(items: Schema<T>, options: ArrayOptions = {}): Schema<T[]> {
  const minItems = options.minItems ?? 0;
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const count = minItems > 0 ? `${minItems} to ${maxItems.toLocaleString('en-US')}` : `at most ${maxItems.toLocaleString('en-US')}`;
  const expected = options.expected ?? `an array of ${count} items`;
  return {
    expected,
    presence: 'required',
    accepts: (value) => Array.isArray(value),
    check(value, at, ctx) {
      if (!Array.isArray(value)) return mismatch(ctx, at, expected, value);
      // A too-long array is refused before any item is looked at, so its cost stays bounded.
      if (value.length < minItems || value.length > maxItems) {
        report(ctx, at, `expected ${expected}, got ${countOf(value.length, 'item')}`);
        return { ok: false };
      }
      return nested(ctx, at, (): Checked<T[]> => {
        const out: T[] = [];
        let ok = true;
        for (let i = 0; i < value.length; i++) {
          const checked = items.check(value[i], [...at, i], ctx);
          if (checked.ok) out.push(checked.value);
          else ok = false;
        }
        return ok ? { ok: true, value: out } : { ok: false };
      }, { ok: false });
    },
    toJsonSchema: () => withDescription({
      type: 'array',
      items: items.toJsonSchema(),
      ...(minItems > 0 && { minItems }),
      maxItems,
    }, options),
  };
}

/**
 * One of several schemas (JSON Schema `oneOf`). The branch is chosen by `accepts`, i.e. by JSON
 * type or by an object's literal fields, so the branches must differ in one of those; the issues
 * are then the chosen branch's own, not a confusing list from every branch.
 */
export function union<const B extends readonly Schema<unknown>[]>(
  branches: B,
  options: BaseOptions = {},
): Schema<B[number] extends Schema<infer T> ? T : never> {
  type T = B[number] extends Schema<infer U> ? U : never;
  const expected = options.expected ?? branches.map((branch) => branch.expected).join(' or ');
  return {
    expected,
    presence: 'required',
    accepts: (value) => branches.some((branch) => branch.accepts(value)),
    check(value, at, ctx) {
      const branch = branches.find((candidate) => candidate.accepts(value));
      if (branch === undefined) {
        report(ctx, at, () => `expected ${expected}, got ${describe(value)}`);
        return { ok: false };
      }
      return branch.check(value, at, ctx) as Checked<T>;
    },
    toJsonSchema: () => withDescription({ oneOf: branches.map((branch) => branch.toJsonSchema()) }, options),
  };
}

/**
 * Transforms a valid value, e.g. to fill a default that depends on another field. The JSON Schema
 * is the inner schema's: a transform adds no rule, it only completes the output.
 */
export function map<T, U>(schema: Schema<T>, transform: (value: T) => U): Schema<U> {
  return {
    ...schema,
    check(value, at, ctx) {
      const checked = schema.check(value, at, ctx);
      return checked.ok ? { ok: true, value: transform(checked.value) } : checked;
    },
  };
}
