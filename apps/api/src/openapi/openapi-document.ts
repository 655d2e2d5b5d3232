/**
 * GET /openapi.json: an OpenAPI 3.1 document built from the very schemas that validate requests
 * (protocol's toolkit: scenariosJsonSchema, estimateJsonSchema, each operation's own), never a
 * hand-written copy. OpenAPI 3.1 Schema Objects are JSON Schema 2020-12 (OAS 3.1 §4.8.24), so the
 * toolkit's documents embed as they are, less their `$schema` (stated once as jsonSchemaDialect).
 */
import { JSON_SCHEMA_DIALECT, PROBLEM_TYPE_NAMES, type JsonSchema } from '@trainplan/protocol';
import { MAX_BODY_BYTES } from '../http/read-body.ts';
import type { PostOperation } from '../operations/operation.ts';
import { presetIndexJsonSchema, presetJsonSchemas, presetListJsonSchemas } from '../presets/preset-schemas.ts';
import { embed } from './embed-schema.ts';
import { withAllowStated, withInternalError } from './path-items.ts';
import { problemJsonSchema } from './problem-schema.ts';
import { bothEncodings, cachedAnswer, internalError, notModifiedGet, notModifiedPost, problem, serviceBusy } from './responses.ts';

type Json = Record<string, unknown>;

function postPath(op: PostOperation): Json {
  return {
    post: {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      requestBody: { required: true, content: bothEncodings(op.requestSchema, op.example) },
      responses: {
        200: cachedAnswer(op.responseSchema, 'The answer; an infeasible request is ok: false with the reason.'),
        304: notModifiedPost,
        400: problem('Invalid input: each offending field by its JSON path.'),
        413: problem(`Body over ${MAX_BODY_BYTES} bytes.`),
        415: problem('Body neither application/json nor application/msgpack, or content-coded (a Content-Encoding other than identity).'),
        422: problem('Over budget: the request would exceed a work limit, which the detail names.'),
        500: internalError,
        // A server that runs slow operations on worker threads (npm start on Node) queues a bounded number of them: any
        // operation some of whose requests are slow (an estimate that emulates) may be told so.
        ...(op.slow !== undefined && { 503: serviceBusy }),
      },
    },
  };
}

/** A GET route answered by respond.ts: JSON or MessagePack, an ETag, a 304; `extra` (a path parameter) adds its 404. */
function getPath(operationId: string, summary: string, schema: JsonSchema, extra: Json = {}): Json {
  return {
    get: {
      operationId, summary, ...extra,
      responses: {
        200: cachedAnswer(schema, summary), 304: notModifiedGet, ...('parameters' in extra && { 404: problem('No such preset.') }),
        500: internalError,
      },
    },
  };
}

/**
 * A GET route of fixed content outside /v1 (health, the docs page, a problem type's page): its one media type, answered
 * without an ETag; `extra` (a path parameter) adds its 404, said by `missing`.
 */
function plainGet(operationId: string, summary: string, description: string, mediaType: string, schema: Json, extra: Json = {}, missing = ''): Json {
  const notFound = 'parameters' in extra && { 404: problem(missing) };
  return { get: { operationId, summary, ...extra, responses: { 200: { description, content: { [mediaType]: { schema } } }, ...notFound } } };
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
  const paths: Json = {
    ...Object.fromEntries(operations.map((op) => [op.path, postPath(op)])),
    ...presetPaths,
    '/v1/presets': getPath('presets', 'The preset ids of every catalogue', presetIndexJsonSchema),
    ...onePresetPaths,
    '/healthz': plainGet('healthz', 'Liveness', 'Alive: {"ok":true}.', 'application/json', { type: 'object', properties: { ok: { const: true } }, required: ['ok'] }),
    // Served by respond.ts (routes/meta-routes.ts fixedResponder), so in MessagePack too where Accept prefers it.
    '/openapi.json': getPath('openapi', 'This document (OpenAPI 3.1)', { type: 'object' }),
    '/docs': plainGet('docs', 'Interactive documentation (HTML)', 'HTML', 'text/html', { type: 'string' }),
    // Where each problem type URI of ours leads (RFC 9457 §3.1.1): its page (docs/problem-pages.ts).
    '/problems/{name}': plainGet('problem-type', 'What a problem type of trainplan\'s own means, and what to do (HTML)', 'HTML', 'text/html', { type: 'string' }, {
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: PROBLEM_TYPE_NAMES }, example: PROBLEM_TYPE_NAMES[0] }],
    }, 'No such problem type; the detail names the known ones.'),
    ...Object.fromEntries(Object.entries(mountedPaths).map(([path, item]) => [path, withInternalError(item as Json)])),
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'trainplan API',
      version: '1.0.0',
      description: 'Plan large-language-model training from first principles. Every POST takes application/json '
        + 'or application/msgpack and answers in the encoding the Accept header prefers; answers carry an ETag. '
        + 'Every path answers OPTIONS with 204 and an Allow header, and another method with a 405: each path\'s description lists its methods.',
    },
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, withAllowStated(item as Json)])),
    components: {
      schemas: {
        Problem: embed(problemJsonSchema),
      },
    },
  };
}
