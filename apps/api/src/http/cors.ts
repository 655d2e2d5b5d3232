import type { MiddlewareHandler } from 'hono';

/**
 * The response headers a browser's script may read (Fetch Standard, Access-Control-Expose-Headers; Content-Type is a
 * CORS-safelisted response-header name already): the ETag a revalidation sends back, the media type, a 405's Allow, and
 * a 503's Retry-After, the seconds to wait before asking again (RFC 9110 §10.2.3).
 */
const EXPOSED_HEADERS = 'etag,content-type,allow,retry-after';

/**
 * The API's CORS: open to every origin, without credentials, the widget embeds anywhere. Safe with no credentials to
 * expose (Fetch Standard, https://fetch.spec.whatwg.org/#http-responses). Answers carry Access-Control-Allow-Origin: *
 * and expose the headers a client reads (EXPOSED_HEADERS). An
 * OPTIONS request (plain or a preflight) on a path some route answers is a 204 naming the path's methods (`allowed`):
 * in Allow, as RFC 9110 §9.3.7 asks of it and as a 405 does, and in Access-Control-Allow-Methods; it allows the request
 * headers a preflight names, said back (and Vary by them): a fixed list refused the traceparent and x-request-id that
 * tracing tools add. OPTIONS on a path no route answers goes on to the 404 other methods get there, never a 204 as if
 * the path existed.
 *
 * These few lines in place of hono/cors, which does the same for these options and more for options the API never sets
 * (credentials, an origin list or function), and of a second middleware that added Allow: 0.36 kB of the Worker's gzip
 * budget (infra/cloudflare bundle-size.test.ts; 256,205 → 255,840 B).
 */
export function cors(allowed: (path: string) => readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const methods = c.req.method === 'OPTIONS' ? allowed(c.req.path) : undefined;
    if (methods?.length === 0) return next();
    const headers = c.res.headers;
    headers.set('Access-Control-Allow-Origin', '*');
    headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (methods === undefined) return next();
    // A day: a browser keeps the preflight that long or its own cap, if shorter (MDN: Firefox 24 h, Chromium 2 h).
    headers.set('Access-Control-Max-Age', '86400');
    headers.set('Allow', methods.join(', '));
    headers.set('Access-Control-Allow-Methods', methods.join(','));
    const requested = c.req.header('Access-Control-Request-Headers');
    if (requested) {
      headers.set('Access-Control-Allow-Headers', requested.split(',').map((h) => h.trim()).join(','));
      headers.append('Vary', 'Access-Control-Request-Headers');
    }
    headers.delete('Content-Length');
    headers.delete('Content-Type');
    return new Response(null, { headers, status: 204, statusText: 'No Content' });
  };
}
