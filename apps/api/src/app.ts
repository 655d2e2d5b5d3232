import { Hono } from 'hono/tiny';
import { allowedMethods } from './http/allowed-methods.ts';
import { cors } from './http/cors.ts';
import { internalError, methodNotAllowed, notFound, saidBack } from './http/problems.ts';
import { routeHint } from './http/route-hint.ts';
import { POST_OPERATIONS } from './operations/index.ts';
import type { PostOperation, RunInBackground } from './operations/operation.ts';
import { metaRoutes } from './routes/meta-routes.ts';
import { postOperationRoutes } from './routes/post-operations.ts';
import { presetRoutes } from './routes/preset-routes.ts';

/** Another app served beside the API (the chat bot, the widget demo), under its own path. */
export interface Mount {
  readonly path: string;
  // Hono<any>: a mounted app may declare its own bindings (e.g. chat secrets in c.env).
  readonly app: Hono<any>;
  /** The mounted app's OpenAPI path items, relative to `path` (the chat bot's: /slack, /discord): /openapi.json lists them. */
  readonly openApiPaths?: Readonly<Record<string, unknown>>;
}

export interface ApiOptions {
  /** Apps composed in by an infra entry; they get the API's CORS and 404/405 handling. */
  readonly mounts?: readonly Mount[];
  /** Extra POST operations (tests; an infra that serves more); default: POST_OPERATIONS. */
  readonly operations?: readonly PostOperation[];
  /**
   * Where an internal error goes (a bug of ours: the client gets a 500 with only its id); default
   * console.error, which Workers, Deno and Node all write to their logs.
   */
  readonly logError?: (error: unknown, request: FailedRequest) => void;
  /**
   * Where the slow requests run (search, nodes, scale, inference, collective, and an estimate or memory request that
   * emulates: PostOperation.slow); default here, on the thread that serves requests. infra/node passes a pool of worker
   * threads, so a search or an emulation of seconds does not hold the other requests (health checks, closed-form
   * estimates, the chat bot's acknowledgements) while it runs.
   */
  readonly runInBackground?: RunInBackground;
}

/** The request a 500 answered, as logged: the id the client was given, and what it asked. */
export interface FailedRequest {
  readonly id: string;
  readonly method: string;
  readonly path: string;
}

const logToConsole = (error: unknown, request: FailedRequest): void => {
  console.error(`trainplan: internal error ${request.id} on ${request.method} ${request.path}:`, error);
};

/**
 * The trainplan HTTP API as one runtime-free Hono app: infra/node, infra/cloudflare and infra/deno
 * bind it to their runtime in a few lines. Environment (secrets, bindings) reaches handlers as
 * c.env on every runtime: Workers pass their bindings, Node and Deno pass their process env.
 */
export function createApi(options: ApiOptions = {}): Hono {
  const operations = options.operations ?? POST_OPERATIONS;
  const app = new Hono();
  const allowed = allowedMethods(app);
  // CORS, open to every origin; OPTIONS on a path some route answers is a 204 naming the path's methods in Allow, as
  // RFC 9110 §9.3.7 asks of it and as a 405 does, and to a preflight in Access-Control-Allow-Methods (cors.ts).
  app.use('*', cors(allowed));
  // A trailing slash is no route of its own: Hono's tiny PatternRouter, which keeps the Worker under its gzip budget
  // (infra/cloudflare bundle-size.test.ts; 1.5 KiB less than the RegExpRouter), matches "/v1/estimate/" as "/v1/estimate"
  // and "/docs" as "/docs/", where the API answers 404 naming the path without the slash (the notFound handler below)
  // and sends /docs/ on to /docs (meta-routes.ts), as a router matching paths exactly did.
  app.use('*', (c, next) => {
    const path = c.req.path;
    if (path.length <= 1 || !path.endsWith('/')) return next();
    return Promise.resolve(path === '/docs/' && (c.req.method === 'GET' || c.req.method === 'HEAD') ? c.redirect('/docs', 301) : c.notFound());
  });
  // Mounts first: a mounted app may own `/` (the widget's demo page); the API's own paths follow.
  for (const mount of options.mounts ?? []) app.route(mount.path, mount.app);
  // The mounted apps' documented paths, under their mount points ('/v1/chat' + '/slack'); a mount at / adds none of its own.
  const mountedPaths = Object.fromEntries((options.mounts ?? []).flatMap((m) => Object.entries(m.openApiPaths ?? {})
    .map(([path, item]) => [`${m.path.replace(/\/$/, '')}${path}`, item])));
  metaRoutes(app, operations, mountedPaths);
  presetRoutes(app);
  postOperationRoutes(app, operations, options.runInBackground);
  // A path some route answers, asked with another method, is a 405 naming the methods it answers
  // (mounted apps' routes included); a path no route answers is a 404 naming the route meant, or where they are listed.
  const hint = routeHint(app, allowed);
  app.notFound((c) => {
    const path = c.req.path;
    const allow = allowed(path);
    if (allow.length > 0) return methodNotAllowed(c.req.method, path, allow);
    return notFound(`no route ${c.req.method} ${saidBack(path)}${hint(c.req.method, path)}`);
  });
  // The client gets an id and nothing of the error; the log gets both, so a report can be traced.
  const logError = options.logError ?? logToConsole;
  app.onError((error, c) => {
    const id = crypto.randomUUID();
    logError(error, { id, method: c.req.method, path: c.req.path });
    return internalError(id);
  });
  return app;
}
