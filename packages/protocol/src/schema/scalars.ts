/** Leaf schemas: string, integer, number, boolean, and fixed sets of values (enum, literal). */
import { codePointLength, describe, mismatch, numberText, report } from './context.ts';
import { meantChoice } from '../meant-choice.ts';
import type { BaseOptions, JsonSchema, Schema } from './types.ts';

/** Strings longer than this are refused unless a schema says otherwise: a hostile-input guard. */
export const DEFAULT_MAX_STRING_LENGTH = 1024;

export interface StringOptions extends BaseOptions {
  minLength?: number;
  maxLength?: number;
}

export function string<const E extends string>(options: StringOptions & { enum: readonly E[] }): Schema<E>;
export function string(options?: StringOptions): Schema<string>;
export function string(options: StringOptions & { enum?: readonly string[] } = {}): Schema<string> {
  if (options.enum) return enumOf(options.enum, options);
  const minLength = options.minLength ?? 0;
  const maxLength = options.maxLength ?? DEFAULT_MAX_STRING_LENGTH;
  const expected = options.expected ?? (minLength > 1
    ? `a string of ${minLength} to ${maxLength} characters`
    : `${minLength === 1 ? 'a non-empty string' : 'a string'} of at most ${maxLength} characters`);
  return {
    expected,
    presence: 'required',
    accepts: (value) => typeof value === 'string',
    check(value, at, ctx) {
      if (typeof value !== 'string') return mismatch(ctx, at, expected, value);
      const length = codePointLength(value, maxLength);
      if (length < minLength || length > maxLength) return mismatch(ctx, at, expected, value);
      return { ok: true, value };
    },
    toJsonSchema: () => withDescription({ type: 'string', ...(minLength > 0 && { minLength }), maxLength }, options),
  };
}

export interface RangeOptions extends BaseOptions {
  min?: number;
  max?: number;
  /**
   * The unit of the upper bound, said after it: 'bytes' gives "≤ 1,099,511,627,776 bytes". Only the upper: a large
   * bound is unreadable without it, while a lower one is small ("≥ 1") and its noun would need a singular.
   */
  unit?: string;
  /** The upper bound for humans beside it: formatBytes gives "≤ 1,099,511,627,776 bytes (1.00 TiB)". */
  boundText?: (bound: number) => string;
}

/** An integer: a JSON number with no fraction. Numeric strings, NaN and ±Infinity are refused. */
export function integer(options: RangeOptions = {}): Schema<number> {
  const { min, max } = options;
  return numeric('an integer', Number.isInteger, options, {
    type: 'integer', ...(min !== undefined && { minimum: min }), ...(max !== undefined && { maximum: max }),
  });
}

export interface NumberOptions extends RangeOptions {
  /** The value must be greater than this (JSON Schema's exclusiveMinimum). */
  greaterThan?: number;
}

/** A finite JSON number. */
export function number(options: NumberOptions = {}): Schema<number> {
  const { min, max, greaterThan } = options;
  return numeric('a number', Number.isFinite, options, {
    type: 'number',
    ...(min !== undefined && { minimum: min }),
    ...(greaterThan !== undefined && { exclusiveMinimum: greaterThan }),
    ...(max !== undefined && { maximum: max }),
  });
}

function numeric(noun: string, isKind: (n: number) => boolean, options: NumberOptions, json: JsonSchema): Schema<number> {
  const { min, max, greaterThan, unit, boundText } = options;
  const bound = (x: number) => `${numberText(x)}${unit === undefined ? '' : ` ${unit}`}${boundText === undefined ? '' : ` (${boundText(x)})`}`;
  const low = greaterThan !== undefined ? `> ${numberText(greaterThan)}` : min !== undefined ? `≥ ${numberText(min)}` : undefined;
  const high = max !== undefined ? `≤ ${bound(max)}` : undefined;
  // "from 1 to 1,099,511,627,776 bytes (1.00 TiB)": the unit and its human form once, after the upper bound.
  const range = min !== undefined && max !== undefined ? ` from ${numberText(min)} to ${bound(max)}` : low && high ? ` ${low} and ${high}` : low || high ? ` ${low ?? high}` : '';
  const expected = options.expected ?? `${noun}${range}`;
  return {
    expected,
    presence: 'required',
    accepts: (value) => typeof value === 'number',
    check(value, at, ctx) {
      if (typeof value !== 'number' || !isKind(value)) return mismatch(ctx, at, expected, value);
      // Out of range: name only the bound that was crossed ("expected an integer ≥ 1, got 0").
      const tooLow = (min !== undefined && value < min) || (greaterThan !== undefined && value <= greaterThan);
      if (tooLow) return mismatch(ctx, at, `${noun} ${low}`, value);
      if (max !== undefined && value > max) return mismatch(ctx, at, `${noun} ${high}`, value);
      return { ok: true, value };
    },
    toJsonSchema: () => withDescription(json, options),
  };
}

export function boolean(options: BaseOptions = {}): Schema<boolean> {
  const expected = options.expected ?? 'true or false';
  return {
    expected,
    presence: 'required',
    accepts: (value) => typeof value === 'boolean',
    check: (value, at, ctx) => (typeof value === 'boolean' ? { ok: true, value } : mismatch(ctx, at, expected, value)),
    toJsonSchema: () => withDescription({ type: 'boolean' }, options),
  };
}

/** One of a fixed list of strings or numbers: `enumOf(['fp16', 'bf16', 'fp8'])`, `enumOf([0, 1, 2, 3])`. */
export function enumOf<const V extends string | number>(values: readonly V[], options: BaseOptions = {}): Schema<V> {
  const expected = options.expected ?? `one of ${values.join(', ')}`;
  const allStrings = values.every((v) => typeof v === 'string');
  const allIntegers = values.every((v) => Number.isInteger(v));
  const type = allStrings ? 'string' : allIntegers ? 'integer' : undefined;
  return {
    expected,
    presence: 'required',
    accepts: (value) => values.some((v) => typeof v === typeof value),
    check(value, at, ctx) {
      const index = values.indexOf(value as V);
      const found = values[index];
      if (found !== undefined) return { ok: true, value: found };
      // A slip of a named value says which it meant ("got "ful" (did you mean full or full-partial?)").
      const meant = allStrings ? meantChoice(value, values as readonly string[]) : '';
      if (meant === '') return mismatch(ctx, at, expected, value);
      report(ctx, at, () => `expected ${expected}, got ${describe(value)}${meant}`);
      return { ok: false };
    },
    toJsonSchema: () => withDescription({ ...(type && { type }), enum: values }, options),
  };
}

/** Exactly one value. Inside an object it marks the field that tells union branches apart. */
export function literal<const V extends string | number | boolean>(constant: V, options: BaseOptions = {}): Schema<V> {
  const expected = options.expected ?? describe(constant);
  return {
    expected,
    presence: 'required',
    constant,
    accepts: (value) => value === constant,
    check: (value, at, ctx) => (value === constant ? { ok: true, value: constant } : mismatch(ctx, at, expected, value)),
    toJsonSchema: () => withDescription({ const: constant }, options),
  };
}

export function withDescription(json: JsonSchema, options: BaseOptions): JsonSchema {
  return options.description === undefined ? json : { description: options.description, ...json };
}
