/**
 * Whether a request's If-None-Match names the current representation's entity tag (RFC 9110 §13.1.2): a list of
 * tags compared weakly (W/ prefixes ignored), or `*`, "any current representation". `*` holds on GET and HEAD, where
 * one always exists; a POST's answer is computed for its body, so `*` names nothing the client can hold and is ignored.
 */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string, method: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return method === 'GET' || method === 'HEAD';
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
