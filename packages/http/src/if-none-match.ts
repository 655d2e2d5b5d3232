/**
 * Whether a request's If-None-Match names the current representation's entity tag (RFC 9110 §13.1.2): a list of
 * tags compared weakly (W/ prefixes ignored, §8.8.3.2), or `*`, "any current representation of the target resource".
 * `*` holds on GET and HEAD, whose target resource has the representation being answered; not on a POST, whose target
 * resource is the process the body is sent to: the API's POST routes have no representation of their own (GET there is
 * a 405), so `*` finds none and the request is answered. A tag the POST's answer carries is compared all the same (the
 * API answers its POSTs as safe queries: apps/api/src/http/respond.ts).
 */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string, method: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return method === 'GET' || method === 'HEAD';
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
