import { createChatApp, type ChatEnv } from '@trainplan/chatops';

/** Where the bot is served: the paths the API Worker forwards unchanged (src/worker.ts), as every runtime serves them. */
const CHAT_PATH = '/v1/chat';

// The Worker serves no widget, so answers link to one only where TRAINPLAN_PUBLIC_URL (a var or secret of this
// Worker, chat/wrangler.toml) names a server that does.
const chat = createChatApp({ widgetAtOrigin: false });

/** Any other path: a 404 problem, as the API answers one (this Worker is reached only through the API's chat routes). */
const notFound = (): Response => new Response(
  JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: `the chat Worker serves only ${CHAT_PATH}/*` }),
  { status: 404, headers: { 'content-type': 'application/problem+json' } },
);

/**
 * The chat Worker (chat/wrangler.toml, name "trainplan-chat"): the chat bot at /v1/chat/slack and /v1/chat/discord,
 * reached through the API Worker's service binding. Its secrets (SLACK_SIGNING_SECRET, DISCORD_PUBLIC_KEY) are this
 * Worker's, set with `wrangler secret put … -c chat/wrangler.toml`, and arrive per request as the bot's c.env; its
 * ExecutionContext gives the bot waitUntil for answers delivered after the response.
 */
export default {
  async fetch(request: Request, env: ChatEnv, ctx: Parameters<typeof chat.fetch>[2]): Promise<Response> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(`${CHAT_PATH}/`)) return notFound();
    // The bot's own routes are /slack and /discord: the mount point is taken off here, as the API's router does
    // where the bot is mounted in place (Node, Deno). Only the path changes; the method, headers and signed body stay.
    url.pathname = url.pathname.slice(CHAT_PATH.length);
    const forwarded = new Request(url, request);
    const response = await chat.fetch(forwarded, env, ctx);
    // A body the bot refused unread (no secret set, another media type, too large by its Content-Length) is read to its
    // end and dropped before the answer, as @trainplan/http's readAtMost does past its limit: left unread (or cancelled),
    // the API Worker's stream of it into the binding fails once its response is sent ("Can't read from request stream
    // after response has been sent", an uncaught exception in its log).
    if (!forwarded.bodyUsed) await forwarded.body?.pipeTo(new WritableStream());
    return response;
  },
};
