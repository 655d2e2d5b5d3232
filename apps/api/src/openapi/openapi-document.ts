/**
 * GET /openapi.json: an OpenAPI 3.1 document built from the very schemas that validate requests
 * (protocol's toolkit: scenariosJsonSchema, estimateJsonSchema, each operation's own), never a
 * hand-written copy. OpenAPI 3.1 Schema Objects are JSON Schema 2020-12 (OAS 3.1 §4.8.24), so the
 * toolkit's documents embed as they are, less their `$schema` (stated once as jsonSchemaDialect).
 */
import { array, boolean, enumOf, integer, JSON_SCHEMA_DIALECT, jsonSchemaDocument, number, object, optional, string, type JsonSchema } from '@trainplan/protocol';
import { JSON_TYPE, MSGPACK_TYPE } from '../http/media-types.ts';
import { MAX_BODY_BYTES } from '../http/read-body.ts';
import type { PostOperation } from '../operations/operation.ts';
import { presetIndexJsonSchema, presetJsonSchemas, presetListJsonSchemas } from '../presets/preset-schemas.ts';

type Json = Record<string, unknown>;

// The error body of apps/api/src/http/problems.ts and protocol's problemDetails, in the toolkit.
const problemJsonSchema = jsonSchemaDocument(object({
  type: string({ description: 'A URI naming the problem type, or about:blank.' }),
  title: string(),
  status: integer({ min: 400, max: 599 }),
  detail: string({ description: 'What went wrong, for humans.' }),
  issues: optional(array(object({ path: string(), message: string() }), { description: 'For 400: each offending field by its JSON path.' })),
  instance: optional(string({ description: "For 500: this occurrence's id (urn:uuid:…), which the server logged with the error: quote it in a report." })),
  limitBytes: optional(integer({ min: 0, description: 'For 413: the most bytes a body may have.' })),
  limit: optional(string({ description: 'For 422: the work limit the request would exceed (e.g. nodes, emulatedGpus, eventBudget, candidateBudget).' })),
  max: optional(number({ min: 0, description: 'For 422: that limit\'s value.' })),
  requested: optional(number({ min: 0, description: 'For 422: what the request asked for: exactly, or at least this when requestedIsLowerBound is true.' })),
  requestedIsLowerBound: optional(boolean({ description: 'For 422 over the event budget: requested is a lower bound (the emulation was stopped at the budget, or counted before running), not the whole need.' })),
  allow: optional(array(string(), { description: 'For 405: the methods the path answers, as the Allow header lists them.' })),
  ok: optional(boolean({ description: 'For 400: false, with reason and message: the scenario contract\'s invalid answer, as the CLI prints it and an array\'s slot holds it.' })),
  reason: optional(enumOf(['invalid'], { description: 'For 400: the contract\'s reason, "invalid".' })),
  message: optional(string({ description: 'For 400: the first issues on one line, as the contract\'s invalid answer says them.' })),
}, { unknownKeys: 'strip', description: 'RFC 9457 problem details.' }));

/**
 * A toolkit schema as a Schema Object: less its `$schema` (stated once as jsonSchemaDialect) and its
 * `$id`. The document holds each schema several times (once per media type; /v1/estimate's answer
 * is one estimate or an array of them), and a URI that identifies two schemas is an error to a
 * validator reading the document (JSON Schema 2020-12 §8.2.1; Ajv: "resolves to more than one schema").
 */
const embed = (schema: JsonSchema): JsonSchema => unidentified(schema) as JsonSchema;

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

const both = (schema: JsonSchema, example?: unknown): Json => ({
  [JSON_TYPE]: { schema: embed(schema), ...(example !== undefined && { example }) },
  [MSGPACK_TYPE]: { schema: embed(schema) },
});

const problem = (description: string): Json => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
const cachedHeaders = {
  ETag: { description: 'FNV-1a 64 of the JSON answer (suffix -mp for MessagePack).', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};
const ok = (schema: JsonSchema, description: string): Json => ({ description, headers: cachedHeaders, content: both(schema) });
const notModified = { description: 'Not Modified: the If-None-Match ETag is current.' };

function postPath(op: PostOperation): Json {
  return {
    post: {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      requestBody: { required: true, content: both(op.requestSchema, op.example) },
      responses: {
        200: ok(op.responseSchema, 'The answer; an infeasible request is ok: false with the reason.'),
        304: notModified,
        400: problem('Invalid input: each offending field by its JSON path.'),
        413: problem(`Body over ${MAX_BODY_BYTES} bytes.`),
        415: problem('Body neither application/json nor application/msgpack, or content-coded (a Content-Encoding other than identity).'),
        405: problem('Method not allowed: the path answers POST (and OPTIONS); the Allow header lists them.'),
        422: problem('Over budget: the request would exceed a work limit, which the detail names.'),
        // A server that runs slow operations on worker threads (npm start on Node) queues a bounded number of them.
        ...(op.slow === true && { 503: problem('Busy: as many slow requests wait as the server queues; ask again after the Retry-After seconds.') }),
      },
    },
  };
}

function getPath(operationId: string, summary: string, schema: JsonSchema, extra: Json = {}): Json {
  return {
    get: {
      operationId, summary, ...extra,
      responses: {
        200: ok(schema, summary), 304: notModified, ...('parameters' in extra && { 404: problem('No such preset.') }),
        405: problem('Method not allowed: the path answers GET, HEAD (and OPTIONS); the Allow header lists them.'),
      },
    },
  };
}

/** A GET route outside /v1 (health, this document, the docs page): its one media type, and the 405 every route answers. */
function plainGet(operationId: string, summary: string, description: string, mediaType: string, schema: Json): Json {
  return {
    get: {
      operationId, summary,
      responses: { 200: { description, content: { [mediaType]: { schema } } }, 405: problem('Method not allowed: the path answers GET, HEAD (and OPTIONS); the Allow header lists them.') },
    },
  };
}

/** The document: the POST operations, the presets, the meta routes, and the path items the mounted apps document (`mountedPaths`). */
export function openApiDocument(operations: readonly PostOperation[], mountedPaths: Readonly<Record<string, unknown>> = {}): Json {
  const presetPaths = Object.fromEntries(Object.entries(presetListJsonSchemas).map(([kind, schema]) => [
    `/v1/presets/${kind}`, getPath(`presets-${kind}`, `Every ${kind.slice(0, -1)} preset, citing its source`, schema),
  ]));
  const examples: Readonly<Record<string, string>> = { gpus: 'h100-sxm', systems: 'dgx-h100', networks: 'ndr-ib-8x', models: 'gpt3-175b' };
  const onePresetPaths = Object.fromEntries(Object.entries(presetJsonSchemas).map(([kind, schema]) => [
    `/v1/presets/${kind}/{id}`, getPath(`preset-${kind.slice(0, -1)}`, `One ${kind.slice(0, -1)} preset`, schema, {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: examples[kind] }],
    }),
  ]));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'trainplan API',
      version: '1.0.0',
      description: 'Plan large-language-model training from first principles. Every POST takes application/json '
        + 'or application/msgpack and answers in the encoding the Accept header prefers; answers carry an ETag.',
    },
    paths: {
      ...Object.fromEntries(operations.map((op) => [op.path, postPath(op)])),
      ...presetPaths,
      '/v1/presets': getPath('presets', 'The preset ids of every catalogue', presetIndexJsonSchema),
      ...onePresetPaths,
      '/healthz': plainGet('healthz', 'Liveness', 'Alive: {"ok":true}.', 'application/json', { type: 'object', properties: { ok: { const: true } }, required: ['ok'] }),
      '/openapi.json': plainGet('openapi', 'This document', 'OpenAPI 3.1', 'application/json', { type: 'object' }),
      '/docs': plainGet('docs', 'Interactive documentation (HTML)', 'HTML', 'text/html', { type: 'string' }),
      ...mountedPaths,
    },
    components: {
      schemas: {
        Problem: embed(problemJsonSchema),
      },
    },
  };
}
