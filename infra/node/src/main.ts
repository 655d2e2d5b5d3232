import { serve } from '@hono/node-server';
import { createApi, type Mount } from '@trainplan/api';
import { CHAT_OPENAPI_PATHS, createChatApp } from '@trainplan/chatops';
import { createWidgetApp } from '@trainplan/widget';
import { createBackgroundAnswerer } from './background-answerer.ts';
import { createBackgroundOperations } from './background-operations.ts';
import { compressing } from './compressing.ts';
import { NoContentResponse } from './no-content-response.ts';

// The chat bot's deferred answers (the questions that run a search) are worked out on worker threads, so a search
// of seconds does not hold the acknowledgements of the questions that arrive meanwhile, and questions asked at once
// run at once: up to one worker per core but the one left to this thread, at most 4 (./background-answerer.ts).
const background = createBackgroundAnswerer();
// The API's slow requests (a search per cluster size, an emulation, an estimate that emulates) likewise, on a pool of
// their own, so a queue of them never holds a chat answer back, nor a health check or a closed-form estimate, which stay
// on this thread (µs each).
const operations = createBackgroundOperations();

// The apps Node serves beside the API, one line each (the widget demo, the chat bot).
const mounts: Mount[] = [
  // The chat bot: POST /v1/chat/slack, /v1/chat/discord (secrets from c.env). Its answers link to the
  // widget at TRAINPLAN_PUBLIC_URL, else at the origin the request came to, which serves it here.
  { path: '/v1/chat', app: createChatApp({ widgetAtOrigin: true, answerInBackground: background.answer }), openApiPaths: CHAT_OPENAPI_PATHS },
  { path: '/', app: createWidgetApp() }, // the widget: demo page at /, module at /widget/trainplan-widget.js
];

// `npm start`: on http://127.0.0.1:8787 (PORT and HOST override). process.env reaches handlers as c.env.
const app = createApi({ mounts, runInBackground: operations.run });
const port = Number(process.env.PORT ?? 8787);
const hostname = process.env.HOST ?? '127.0.0.1';
// Slow clients may not hold a connection for long (Node's defaults: 60 s for headers, 300 s for a
// request, checked every 30 s): headers within 10 s and a whole request within 30 s, checked every
// 2 s, as nginx's client_header_timeout and Apache's mod_reqtimeout bound slow-loris clients. A
// scenario is a few hundred bytes; no honest client needs longer. A 204 goes out with no content type.
const serverOptions = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000, ServerResponse: NoContentResponse };
// Answers go out compressed where the client takes br or gzip (./compress.ts, ./compressing.ts): no proxy does it for Node.
const fetch = compressing((request) => app.fetch(request, process.env));
const server = serve({ fetch, port, hostname, serverOptions }, (info) => {
  console.log(`trainplan API listening on http://${hostname}:${info.port}`);
});
// The workers would keep the process alive after the server closes.
server.on('close', () => { void background.close(); void operations.close(); });
// A port already taken (another `npm start`, wrangler dev) or not ours to take: one line naming the way out, and exit
// status 1, where Node printed its stack and "Emitted 'error' event" (newcomer QA).
server.on('error', (error: NodeJS.ErrnoException) => {
  const why = error.code === 'EADDRINUSE' ? `${hostname}:${port} is already in use (another server there?)`
    : error.code === 'EACCES' ? `no permission to listen on ${hostname}:${port}`
      : error.code === 'EADDRNOTAVAIL' ? `${hostname} is not an address of this machine` : error.message;
  console.error(`trainplan: ${why}; choose another with PORT=… (and HOST=…), e.g. PORT=9000 npm start`);
  void background.close();
  void operations.close();
  process.exitCode = 1;
});

/**
 * How long a stopping server waits for the deferred answers it can still send: the questions it acknowledged and had
 * not answered are told they could not be (background.close fails them into that notice), which takes a request each.
 */
const SHUTDOWN_GRACE_MS = 5_000;
// SIGTERM (a process manager, a container stop) and SIGINT (Ctrl-C) stop it: taking new requests, then the worker, and the
// process leaves once the notices are out or the grace has passed. Without this, a signal ended the process at once and
// every acknowledged question waited on "thinking…" until its token expired (Discord: 15 minutes).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    void background.close();
    void operations.close();
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
  });
}
