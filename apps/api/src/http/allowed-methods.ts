import type { Hono } from 'hono';
import { PatternRouter } from 'hono/router/pattern-router';

/** The order an `Allow` header lists methods in (RFC 9110 §9 order, then the rest). */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A route as the lookup keeps it: its method and the path pattern it was registered with. */
type Route = readonly [method: string, pattern: string];

/**
 * The methods an app answers on a path, for a 405's `Allow` header (RFC 9110 §15.5.6): every
 * method some route (mounted apps' included) registers for a pattern the path matches, plus HEAD
 * wherever GET is (Hono answers HEAD with the GET route) and OPTIONS (the CORS middleware answers
 * it on every path some route answers). Empty when no route matches the path at all: that is a 404. Middleware
 * (method ALL, e.g. `use('*')`) is not a route and is skipped. The routes are read on first use,
 * after the infra entry has composed the app.
 *
 * Matched with hono/tiny's PatternRouter, the router the app itself is built on, rather than a second router of
 * its own (the TrieRouter this used was 0.9 kB of the Worker's 250 KiB gzip budget, 256,586 → 255,641 B). The
 * PatternRouter lets a pattern match the path with a trailing slash added or dropped ("/v1/estimate/" as
 * "/v1/estimate", "" as "/"); a match counts here only where the path ends in a slash exactly when the pattern
 * does, so "/v1/estimate/" answers nothing (the app's 404 names it) and "/docs/" answers GET, its own route.
 */
export function allowedMethods(app: Hono): (path: string) => string[] {
  let router: PatternRouter<Route> | undefined;
  let methods: string[] = [];
  return (path) => {
    if (router === undefined) {
      router = new PatternRouter<Route>();
      const seen = new Set<string>();
      for (const route of app.routes) {
        if (route.method === 'ALL') continue;
        router.add(route.method, route.path, [route.method, route.path]);
        seen.add(route.method);
      }
      methods = [...seen];
    }
    const slash = path.endsWith('/');
    const found = methods.filter((m) => router!.match(m, path)[0].some(([[, pattern]]) => pattern.endsWith('/') === slash));
    return found.length === 0 ? [] : allowList(found);
  };
}

/**
 * What `Allow` lists for a path whose routes answer `routed` (upper-case methods): those, HEAD wherever GET is (Hono
 * answers HEAD with the GET route) and OPTIONS (the CORS middleware answers it), in ORDER. /openapi.json states the
 * same list for each path it documents (openapi/path-items.ts).
 */
export function allowList(routed: Iterable<string>): string[] {
  const found = new Set(routed);
  if (found.has('GET')) found.add('HEAD');
  found.add('OPTIONS');
  const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length);
  return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
