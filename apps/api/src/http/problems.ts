/**
 * Error answers as RFC 9457 problem documents (`application/problem+json`). Errors are always JSON,
 * whatever the Accept header: a problem document is for the human or the log reading it.
 */
import { formatGrouped } from '@trainplan/units';
import { OVER_BUDGET_PROBLEM_TYPE, PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, problemDetails, type FieldIssue } from '@trainplan/protocol';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  [extension: string]: unknown;
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/**
 * 400: each offending field by its JSON path (protocol's problemDetails, so the CLI and API agree),
 * titled for what the body is: "Invalid scenario" for a scenario, "Invalid collective request"…
 */
export function invalidInput(issues: FieldIssue[], subject = 'scenario'): Response {
  return problemResponse({ ...problemDetails(issues, 400, subject) });
}

/** The most characters of a client's path or id a detail repeats: the published Problem schema bounds a detail at 1,024. */
const MAX_SAID_BACK = 200;

/** A path or id from the request, said back whole while it is short, else its start and its length (protocol's messages do the same). */
export const saidBack = (text: string): string =>
  (text.length <= MAX_SAID_BACK ? text : `${text.slice(0, MAX_SAID_BACK)}… (${formatGrouped(text.length)} characters)`);

export const notFound = (detail: string): Response =>
  problemResponse({ type: 'about:blank', title: 'Not Found', status: 404, detail });

/** 405: the path exists, the method does not; `Allow` lists the methods it answers (RFC 9110 §15.5.6). */
export const methodNotAllowed = (method: string, path: string, allow: readonly string[]): Response =>
  problemResponse(
    { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: `${saidBack(path)} answers ${allow.join(', ')}, not ${method}`, allow: [...allow] },
    { allow: allow.join(', ') },
  );

/**
 * 413, titled with the status's reason phrase, "Content Too Large" since RFC 9110 §15.5.14 (RFC 7231's "Payload Too
 * Large" is obsolete): RFC 9457 §4.2.1 has an about:blank problem's title be the phrase of its status.
 */
export const contentTooLarge = (limitBytes: number): Response =>
  problemResponse({ type: 'about:blank', title: 'Content Too Large', status: 413, detail: `bodies are limited to ${limitBytes} bytes`, limitBytes });

/** 415: a body of another type; the type the client sent is said back as a path is, cut where long. */
export const unsupportedMediaType = (got: string): Response =>
  problemResponse({
    type: 'about:blank', title: 'Unsupported Media Type', status: 415,
    detail: `send the body as application/json or application/msgpack${got === '' ? '' : `, not ${saidBack(got)}`}`,
  }, { 'accept-post': 'application/json, application/msgpack' });

/**
 * 415 for a content-coded body (Content-Encoding: gzip, br…): the API reads bodies as sent, and a
 * compressed one would otherwise read as text that is not UTF-8. Accept-Encoding in the answer names
 * the codings it reads, none but identity (RFC 9110 §15.5.16, §12.5.3).
 */
export const unsupportedContentCoding = (coding: string): Response =>
  problemResponse({
    type: 'about:blank', title: 'Unsupported Media Type', status: 415,
    detail: `the body is content-coded (Content-Encoding: ${saidBack(coding)}); send it uncompressed`,
  }, { 'accept-encoding': 'identity' });

/** 422: a well-formed request the API will not run because it exceeds a work budget, which it names. */
export const overBudget = (detail: string, limit: Record<string, unknown>): Response => {
  const { title, status } = PROBLEM_TYPES['over-budget'];
  return problemResponse({ type: OVER_BUDGET_PROBLEM_TYPE, title, status, detail, ...limit });
};

/**
 * 503: the server has as many slow requests waiting as it queues, or is stopping (`stopping`: its workers closed under the
 * request); Retry-After says when to ask again (RFC 9110 §15.6.4), and the body's retryAfterSeconds the same for a reader
 * of the problem alone (RFC 9457 §3.2 extension member, documented in /openapi.json's Problem).
 */
export const serviceBusy = (retryAfter: number, stopping = false): Response => {
  // Retry-After's delay-seconds is a non-negative integer (RFC 9110 §10.2.3): a fraction is rounded up, never to sooner.
  const retryAfterSeconds = Math.max(0, Math.ceil(retryAfter));
  return problemResponse(
    {
      type: 'about:blank', title: 'Service Unavailable', status: 503, retryAfterSeconds,
      detail: stopping ? `the server is stopping; ask again in ${retryAfterSeconds} s` : `too many slow requests (searches, emulations) are waiting; ask again in ${retryAfterSeconds} s`,
    },
    { 'retry-after': String(retryAfterSeconds) },
  );
};

/**
 * 500: only for a bug of ours; the tests send hostile input to keep it unreachable. `id` is in the
 * server's log beside the error; the body carries it as RFC 9457's `instance` (§3.1.5), a URN.
 */
export const internalError = (id: string): Response =>
  problemResponse({
    type: 'about:blank', title: 'Internal Server Error', status: 500,
    detail: `an unexpected error; please report the request with its id ${id}`, instance: `urn:uuid:${id}`,
  });
