/**
 * @trainplan/chatops/forward: the chat bot's routes for a server that does not run the bot but passes its requests to
 * one that does (infra/cloudflare: the API Worker, reaching the chat Worker through a service binding). It imports
 * nothing of the bot's answerer (@trainplan/ask), so the forwarding server does not carry it.
 */
import type { Context } from 'hono';
import { Hono } from 'hono/tiny';
import { CHAT_OPENAPI_PATHS } from './chat-openapi.ts';

export { CHAT_OPENAPI_PATHS };

/** What the forwarder calls: a Workers service binding (Fetcher), or any object with a fetch of a Request. */
export interface ChatService {
  fetch(request: Request): Promise<Response>;
}

const isService = (value: unknown): value is ChatService =>
  typeof value === 'object' && value !== null && typeof (value as { fetch?: unknown }).fetch === 'function';

/**
 * The bot's routes (CHAT_OPENAPI_PATHS: POST /slack, POST /discord), each request passed unchanged (its URL, headers and
 * signed body) to the service bound as `binding` in c.env, and its response returned. Mount it where the bot's server
 * serves the bot (/v1/chat on both). Only the documented routes forward: another method on them is the serving app's
 * 405, another path its 404, as with the bot mounted in place. Without the binding (a misconfigured deploy), a 503
 * problem naming it, as a missing secret is named by the bot.
 */
export function createChatForwarder(binding: string): Hono {
  const app = new Hono();
  const forward = async (c: Context) => {
    const service = (c.env as Record<string, unknown> | undefined)?.[binding];
    if (!isService(service)) {
      const detail = `${binding} is not bound: the chat bot runs in another service, reached through it; this endpoint is disabled until the runtime provides it`;
      return c.body(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail }), 503, { 'content-type': 'application/problem+json' });
    }
    return service.fetch(c.req.raw);
  };
  for (const [path, item] of Object.entries(CHAT_OPENAPI_PATHS)) {
    for (const method of Object.keys(item)) app.on(method.toUpperCase(), path, forward);
  }
  return app;
}
