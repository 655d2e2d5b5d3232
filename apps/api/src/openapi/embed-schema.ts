import type { JsonSchema } from '@trainplan/protocol';

/**
 * A toolkit schema as a Schema Object: less its `$schema` (stated once as jsonSchemaDialect) and its
 * `$id`. The document holds each schema several times (once per media type; /v1/estimate's answer
 * is one estimate or an array of them), and a URI that identifies two schemas is an error to a
 * validator reading the document (JSON Schema 2020-12 §8.2.1; Ajv: "resolves to more than one schema").
 */
export const embed = (schema: JsonSchema): JsonSchema => unidentified(schema) as JsonSchema;

/** Keywords whose values are data, not subschemas: left as they are. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples']);

/** A schema without `$schema` and `$id` at any depth (an operation may nest toolkit documents: `oneOf: [estimate, array of estimate]`). */
function unidentified(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unidentified);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key, v]) => !((key === '$id' || key === '$schema') && typeof v === 'string'))
    .map(([key, v]) => [key, DATA_KEYWORDS.has(key) ? v : unidentified(v)]));
}
