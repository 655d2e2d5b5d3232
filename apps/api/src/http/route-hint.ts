import { nearest } from '@trainplan/protocol';
import type { Hono } from 'hono';
import { saidBack } from './problems.ts';

/** Where a 404 sends a reader when no route is near the path: the page and the document that list every route. */
export const ROUTES_LISTED = '; the routes are listed on /docs and in /openapi.json';

/**
 * What a 404 for a path no route answers says to do, after "no route POST /estimate": the route meant, where one is
 * near, else where the routes are listed (QA: "no route POST /estimate" said nothing more, where the API's other errors
 * say what to do). A route is meant when the path, tidied, is one: repeated slashes and a trailing one dropped
 * ("//v1/estimate"), in lower case ("/V1/presets"), or under /v1 ("/estimate"); else the nearest route within protocol's
 * bounded edit distance ("/v1/estimates"), a pattern's parameters taken from the path's own segments
 * ("/v1/preset/gpus/h100-sxm"). A trailing slash alone keeps its own words. `allowed` is the app's methods on a path
 * (allowed-methods.ts); the routes are read on first use, after the infra entry has composed the app.
 */
export function routeHint(app: Hono, allowed: (path: string) => string[]): (method: string, path: string) => string {
  let routes: string[] | undefined;
  return (method, path) => {
    // A path such as "/docs/" is a route of its own (a redirect): never the one to suggest.
    routes ??= [...new Set(app.routes.filter((r) => r.method !== 'ALL' && !/.\/$/.test(r.path) && !r.path.includes('*')).map((r) => r.path))];
    const segments = path.split('/').filter((s) => s !== '');
    const tidy = `/${segments.join('/')}`;
    if (path.replace(/\/+$/, '') === tidy && tidy !== '/' && allowed(tidy).length > 0) return ` (without the trailing slash: ${tidy})`;
    const filled = (pattern: string): string => {
      const parts = pattern.split('/').slice(1);
      return parts.length === segments.length ? `/${parts.map((p, i) => (p.startsWith(':') ? segments[i] : p)).join('/')}` : pattern;
    };
    // Compared without the leading slash, and under /v1 without "/v1/", so a short path is not near everything: "/nope"
    // is two edits from "/v1/nodes"'s "nodes", too many for four letters (protocol's nearest).
    const known = routes.map(filled).filter((p) => !p.includes(':')).map((p) => p.slice(1));
    const typed = tidy.slice(1);
    const near = nearest(typed, known);
    const nearUnderV1 = nearest(typed, known.filter((p) => p.startsWith('v1/')).map((p) => p.slice(3)));
    const meant = [tidy, tidy.toLowerCase(), `/v1${tidy}`, `/v1${tidy.toLowerCase()}`].find((p) => p !== path && allowed(p).length > 0)
      ?? (near !== undefined ? `/${near}` : nearUnderV1 !== undefined ? `/v1/${nearUnderV1}` : undefined);
    if (meant === undefined) return ROUTES_LISTED;
    const methods = allowed(meant).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    return `; did you mean ${methods.includes(method) ? method : methods.join(' or ')} ${saidBack(meant)}?`;
  };
}
