import { createApi, type Mount } from '@trainplan/api';
import { CHAT_OPENAPI_PATHS, createChatForwarder } from '@trainplan/chatops/forward';

/**
 * The service binding (wrangler.toml `[[services]]`) to the chat Worker (src/chat-worker.ts, chat/wrangler.toml).
 * The chat bot runs there, not here: its question answerer (@trainplan/ask) would put this Worker over its
 * gzip budget (test/bundle-size.test.ts), so this one carries only the routes that forward to it. (Not exported: a
 * Worker's module exports only its handlers.)
 */
const CHAT_BINDING = 'CHAT';

// The apps the Worker serves beside the API, one line each. Bindings from wrangler.toml reach handlers as c.env:
// Workers pass them to fetch().
const mounts: Mount[] = [
  // The chat bot: POST /v1/chat/slack, /v1/chat/discord, each request passed unchanged to the chat Worker, which serves
  // them at the same paths, and its answer returned (a 503 naming the binding where it is missing). /openapi.json lists
  // them as before.
  { path: '/v1/chat', app: createChatForwarder(CHAT_BINDING), openApiPaths: CHAT_OPENAPI_PATHS },
];

export default createApi({ mounts });
