/** OpenAPI 3.1 Response Objects for what the API answers besides each operation's own 200 (openapi-document.ts). */
import type { JsonSchema } from '@trainplan/protocol';
import { JSON_TYPE, MSGPACK_TYPE } from '../http/media-types.ts';
import { embed } from './embed-schema.ts';

type Json = Record<string, unknown>;

/** A response whose body is an RFC 9457 problem (apps/api/src/http/problems.ts), with the headers it carries. */
export const problem = (description: string, headers?: Json): Json => ({
  description, ...(headers !== undefined && { headers }), content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The same schema in JSON and MessagePack: respond.ts answers in the one the Accept header prefers (media-types.ts). */
export const bothEncodings = (schema: JsonSchema, example?: unknown): Json => ({
  [JSON_TYPE]: { schema: embed(schema), ...(example !== undefined && { example }) },
  [MSGPACK_TYPE]: { schema: embed(schema) },
});

/** The headers respond.ts puts on an answer, and on its 304 (RFC 9110 §15.4.5: what the 200 would carry). */
const cachedHeaders = {
  ETag: { description: 'FNV-1a 64 of the JSON answer (suffix -mp for MessagePack); a 304 carries the ETag its 200 carries.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};

/** A 200 answer as respond.ts sends it: JSON or MessagePack, with its ETag and Cache-Control. */
export const cachedAnswer = (schema: JsonSchema, description: string): Json => ({ description, headers: cachedHeaders, content: bothEncodings(schema) });

/** 304 on a GET route: If-None-Match names the ETag, or is `*`, which a current representation always matches (RFC 9110 §13.1.2). */
export const notModifiedGet: Json = {
  description: 'Not Modified: If-None-Match names the current ETag (compared weakly, RFC 9110 §8.8.3.2) or is *.',
  headers: cachedHeaders,
};

/**
 * 304 on a POST route: answered as a safe query (respond.ts), for a tag only. `*` asks about the target resource's own
 * representation (RFC 9110 §13.1.2), which a POST route has none of (GET there is a 405), so the POST is answered.
 */
export const notModifiedPost: Json = {
  description: 'Not Modified: If-None-Match names the ETag this body\'s answer carries (compared weakly). The POST is a safe query, '
    + 'answered as the HTTP QUERY method (draft-ietf-httpbis-safe-method-w-body) answers a conditional request, not with the 412 '
    + 'RFC 9110 §13.1.2 gives a state-changing method. If-None-Match: * does not: it asks whether the target resource has a '
    + 'current representation, which this POST-only path has not (GET is a 405), so the request is answered 200.',
  headers: cachedHeaders,
};

/** 405, from the app's notFound handler, on every path a route answers (app.ts): `allow` as the Allow header lists it. */
export const methodNotAllowed = (allow: readonly string[]): Json =>
  problem(`Method not allowed: the path answers ${allow.join(', ')}; the Allow header (and the body's allow) lists them.`, {
    Allow: { description: 'The methods the path answers (RFC 9110 §15.5.6).', schema: { type: 'string' } },
  });

/** 500, from the app's onError handler (app.ts): a bug of ours, said with an id and nothing of the error. */
export const internalError = problem('Internal Server Error: a bug of ours, never an answer to what was sent. The body carries '
  + 'only instance, this failure\'s id (urn:uuid:…), under which the server logged the error: quote it in a report.');

/** 503, where a runtime queues the slow operations on worker threads (npm start on Node) and has as many waiting as it queues. */
export const serviceBusy = problem('Busy: as many slow requests wait as the server queues, or the server is stopping; ask again '
  + 'after the Retry-After seconds (the body\'s retryAfterSeconds).', {
  'Retry-After': { description: 'Seconds to wait before asking again (RFC 9110 §10.2.3).', schema: { type: 'integer', minimum: 0 } },
});
