import { serve } from '@hono/node-server';
import { createApi, type Mount } from '@trainplan/api';
import { createChatApp } from '@trainplan/chatops';
import { createWidgetApp } from '@trainplan/widget';

// The apps Node serves beside the API, one line each (the widget demo, the chat bot).
const mounts: Mount[] = [
  { path: '/v1/chat', app: createChatApp() }, // the chat bot: POST /v1/chat/slack, /v1/chat/discord (secrets from c.env)
  { path: '/', app: createWidgetApp() }, // the widget: demo page at /, module at /widget/trainplan-widget.js
];

// `npm start`: on http://127.0.0.1:8787 (PORT and HOST override). process.env reaches handlers as c.env.
const app = createApi({ mounts });
const port = Number(process.env.PORT ?? 8787);
const hostname = process.env.HOST ?? '127.0.0.1';
serve({ fetch: (request) => app.fetch(request, process.env), port, hostname }, (info) => {
  console.log(`trainplan API listening on http://${hostname}:${info.port}`);
});
