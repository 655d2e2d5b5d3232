import fc from 'fast-check';

/**
 * Values a careless or malicious client sends where a number, string or object belongs: wrong
 * types, NaN/Infinity spelled as strings, huge and negative numbers, long strings, deep nesting.
 */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, '', 'NaN', 'Infinity', '-Infinity', '1e309', '__proto__', 'constructor', '0x10', ' 8 '),
  fc.constantFrom(0, -0, -1, -8, 0.5, 1e-300, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 4_294_967_296),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
);

/** Nesting deeper than any real body, built without recursion limits in fast-check. */
export const deepNesting: fc.Arbitrary<unknown> = fc.integer({ min: 50, max: 5_000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
});

/** Any JSON-ish value, scalars hostile. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  hostileScalar,
  fc.array(hostileScalar, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 12 }), hostileScalar, { maxKeys: 6 }),
  deepNesting,
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path (list of keys) into a JSON object, leaves and branches alike. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

/** A deep copy of `value` with the node at `path` replaced (or deleted when `replacement` is `undefined`). */
export function replaceAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, Json>;
  let node: Record<string | number, Json> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = replacement as Json;
  return copy;
}

function nodeAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** One damaged copy of a valid body and where the damage is. */
export interface Mutation {
  readonly body: unknown;
  readonly path: readonly (string | number)[];
}

/**
 * A valid body with one node replaced by a hostile value, deleted, or given an unknown key:
 * the cases that reach deepest into validation, because everything around the bad field is right.
 */
export function mutationsOf(valid: unknown): fc.Arbitrary<Mutation> {
  const paths = pathsOf(valid).filter((p) => p.length > 0);
  return fc.tuple(fc.constantFrom(...paths), fc.oneof(hostileValue, fc.constant(undefined), fc.constant(EXTRA_KEY))).map(([path, v]) => {
    const node = nodeAt(valid, path);
    if (v === EXTRA_KEY && node !== null && typeof node === 'object' && !Array.isArray(node)) {
      return { body: replaceAt(valid, [...path, 'unexpectedField'], 1), path: [...path, 'unexpectedField'] };
    }
    return { body: replaceAt(valid, path, v === EXTRA_KEY ? 'unexpected' : v), path };
  });
}

const EXTRA_KEY = Symbol('extra key');

/** Bodies that are not JSON at all, or JSON of the wrong top-level kind. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '[', '{"model":', 'null', '42', '"x"', '[]', '{}', '{"a":1}}', '\u0000', 'NaN', '[1,2,'),
  hostileValue.map((v) => JSON.stringify(v) ?? 'undefined'),
);
