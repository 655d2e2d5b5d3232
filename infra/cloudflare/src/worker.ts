import { createApi, type Mount } from '@trainplan/api';
import { CHAT_OPENAPI_PATHS, createChatApp } from '@trainplan/chatops';

// The apps the Worker serves beside the API, one line each (the chat bot). Bindings and secrets
// from wrangler.toml / `wrangler secret` reach handlers as c.env: Workers pass them to fetch().
const mounts: Mount[] = [
  // The chat bot: POST /v1/chat/slack, /v1/chat/discord. The Worker serves no widget, so answers link to
  // one only where TRAINPLAN_PUBLIC_URL (a wrangler.toml var) names a server that does.
  { path: '/v1/chat', app: createChatApp({ widgetAtOrigin: false }), openApiPaths: CHAT_OPENAPI_PATHS },
];

export default createApi({ mounts });
