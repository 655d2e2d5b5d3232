/**
 * A tiny JSON Schema 2020-12 checker for exactly the keywords the toolkit emits, written from the
 * specification (json-schema.org/draft/2020-12/json-schema-validation) so that the tests can ask
 * an independent judge whether the published schema and the validator agree. A keyword outside
 * the subset throws: the schemas must not grow a rule this checker (or a reader) would miss.
 */
import type { JsonSchema } from '../../src/index.ts';

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default']);
const ASSERTIONS = new Set([
  'type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'maxLength',
  'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems',
  'oneOf', 'allOf', 'not', 'if', 'then',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    // JSON has no NaN or Infinity; a JS value carrying one is not a JSON number.
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    default: throw new Error(`unknown type ${type}`);
  }
}

/** The failed assertions, as "path: keyword"; empty when `value` is valid. */
export function checkJsonSchema(schema: JsonSchema, value: unknown, path = ''): string[] {
  const errors: string[] = [];
  const fail = (keyword: string) => errors.push(`${path || '(root)'}: ${keyword}`);
  for (const key of Object.keys(schema)) {
    if (!ANNOTATIONS.has(key) && !ASSERTIONS.has(key)) throw new Error(`keyword outside the subset: ${key}`);
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    fail('type');
    return errors;
  }
  if (schema.enum !== undefined && !schema.enum.some((v) => v === value)) fail('enum');
  if (schema.const !== undefined && schema.const !== value) fail('const');
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail('minimum');
    if (schema.maximum !== undefined && value > schema.maximum) fail('maximum');
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) fail('exclusiveMinimum');
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) fail('minLength');
    if (schema.maxLength !== undefined && length > schema.maxLength) fail('maxLength');
  }
  if (isObject(value)) {
    for (const key of schema.required ?? []) if (!Object.hasOwn(value, key)) fail(`required ${key}`);
    const properties = schema.properties ?? {};
    for (const [key, item] of Object.entries(value)) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (sub !== undefined) errors.push(...checkJsonSchema(sub, item, `${path}/${key}`));
      else if (schema.additionalProperties === false) fail(`additionalProperties ${key}`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail('minItems');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail('maxItems');
    if (schema.items !== undefined) {
      const items = schema.items;
      value.forEach((item, i) => errors.push(...checkJsonSchema(items, item, `${path}/${i}`)));
    }
  }
  if (schema.oneOf !== undefined) {
    const passing = schema.oneOf.filter((sub) => checkJsonSchema(sub, value, path).length === 0).length;
    if (passing !== 1) fail(`oneOf (${passing} branches pass)`);
  }
  for (const sub of schema.allOf ?? []) errors.push(...checkJsonSchema(sub, value, path));
  if (schema.not !== undefined && checkJsonSchema(schema.not, value, path).length === 0) fail('not');
  if (schema.if !== undefined && checkJsonSchema(schema.if, value, path).length === 0 && schema.then !== undefined) {
    errors.push(...checkJsonSchema(schema.then, value, path));
  }
  return errors;
}

/** Every subschema of `schema` with the path that leads to it, for structural assertions. */
export function* subschemas(schema: JsonSchema, path = ''): Generator<[string, JsonSchema]> {
  yield [path, schema];
  for (const [key, sub] of Object.entries(schema.properties ?? {})) yield* subschemas(sub, `${path}/${key}`);
  if (schema.items !== undefined) yield* subschemas(schema.items, `${path}/items`);
  for (const [i, sub] of (schema.oneOf ?? []).entries()) yield* subschemas(sub, `${path}/oneOf/${i}`);
}
