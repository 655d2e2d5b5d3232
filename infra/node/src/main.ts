import { serve } from '@hono/node-server';
import { createApi } from '@trainplan/api';

// `npm start`: the API on http://127.0.0.1:8787 (PORT and HOST override).
const port = Number(process.env.PORT ?? 8787);
const hostname = process.env.HOST ?? '127.0.0.1';
serve({ fetch: createApi().fetch, port, hostname }, (info) => {
  console.log(`trainplan API listening on http://${hostname}:${info.port}`);
});
