import { createApi, type Mount } from '@trainplan/api';
import { CHAT_OPENAPI_PATHS, createChatApp } from '@trainplan/chatops';

// The slice of Deno's runtime API this entry uses (typechecked by the repository's tsc, which has no Deno types).
declare const Deno: {
  env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};

// The apps Deno serves beside the API, one line each (the chat bot).
const mounts: Mount[] = [
  // The chat bot: POST /v1/chat/slack, /v1/chat/discord. Deno serves no widget, so answers link to one
  // only where TRAINPLAN_PUBLIC_URL names a server that does (e.g. `npm start` on Node).
  { path: '/v1/chat', app: createChatApp({ widgetAtOrigin: false }), openApiPaths: CHAT_OPENAPI_PATHS },
];

// `npx deno task start`: on http://127.0.0.1:8787 (PORT and HOST override). Deno.env reaches handlers as c.env.
const app = createApi({ mounts });
const env = Deno.env.toObject();
Deno.serve({
  port: Number(Deno.env.get('PORT') ?? 8787),
  hostname: Deno.env.get('HOST') ?? '127.0.0.1',
  onListen: ({ hostname, port }) => console.log(`trainplan API listening on http://${hostname}:${port}`),
}, (request) => (request.method === 'HEAD' ? headAsGet(request, (get) => app.fetch(get, env)) : app.fetch(request, env)));

/**
 * A HEAD answered as its GET, less the body, with the GET's Content-Length. Hono answers a HEAD with its
 * GET's headers and a null body, for which Deno.serve writes `content-length: 0` (GET /v1/presets/models:
 * 22,724 bytes); RFC 9110 §9.3.2 wants the GET's length or none. Deno keeps a Content-Length set on a
 * bodiless answer, so the GET's body is measured and dropped. A GET without a body (a 304) is left as it is.
 * infra/node/src/compress.ts answers HEAD from GET for the same reason.
 */
async function headAsGet(request: Request, fetch: (get: Request) => Response | Promise<Response>): Promise<Response> {
  const get = await fetch(new Request(request, { method: 'GET' }));
  if (get.body === null) return get;
  const headers = new Headers(get.headers);
  headers.set('content-length', String((await get.arrayBuffer()).byteLength));
  return new Response(null, { status: get.status, statusText: get.statusText, headers });
}
