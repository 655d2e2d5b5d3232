import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/** The order an `Allow` header lists methods in (RFC 9110 §9 order, then the rest). */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods an app answers on a path, for a 405's `Allow` header (RFC 9110 §15.5.6): every
 * method some route (mounted apps' included) registers for a pattern the path matches, plus HEAD
 * wherever GET is (Hono answers HEAD with the GET route) and OPTIONS (the CORS middleware answers
 * it on every path some route answers). Empty when no route matches the path at all: that is a 404. Middleware
 * (method ALL, e.g. `use('*')`) is not a route and is skipped. The routes are read on first use,
 * after the infra entry has composed the app.
 */
export function allowedMethods(app: Hono): (path: string) => string[] {
  let router: TrieRouter<string> | undefined;
  let methods: string[] = [];
  return (path) => {
    if (router === undefined) {
      router = new TrieRouter<string>();
      const seen = new Set<string>();
      for (const route of app.routes) {
        if (route.method === 'ALL') continue;
        router.add(route.method, route.path, route.method);
        seen.add(route.method);
      }
      methods = [...seen];
    }
    const found = new Set(methods.filter((m) => router!.match(m, path)[0].length > 0));
    if (found.size === 0) return [];
    if (found.has('GET')) found.add('HEAD');
    found.add('OPTIONS');
    const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length);
    return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  };
}
