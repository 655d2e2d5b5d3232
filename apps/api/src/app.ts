import { Hono } from 'hono';
import { problemDetails, PROBLEM_CONTENT_TYPE, runEstimate, validateScenarios } from '@trainplan/protocol';
import { landingPage } from './landing-page.ts';

/** Request bodies larger than this are refused (a scenario is a few hundred bytes). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The estimate API as a runtime-free Hono app: infra/node binds it to Node today; the Workers and
 * Deno bindings and the rest of the /v1 surface are issue 5's.
 */
export function createApi(): Hono {
  const app = new Hono();

  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/', (c) => c.html(landingPage()));

  app.post('/v1/estimate', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!type.startsWith('application/json')) {
      return c.json({ type: 'about:blank', title: 'Unsupported Media Type', status: 415, detail: 'send the scenario as application/json' }, 415);
    }
    const text = await c.req.text();
    if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) {
      return c.json({ type: 'about:blank', title: 'Payload Too Large', status: 413, detail: `bodies are limited to ${MAX_BODY_BYTES} bytes` }, 413);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return problem(c, [{ path: '', message: 'the body is not valid JSON' }]);
    }
    const valid = validateScenarios(body);
    if (!valid.ok) return problem(c, valid.issues);
    return c.json(runEstimate(body));
  });

  app.notFound((c) => c.json({ type: 'about:blank', title: 'Not Found', status: 404, detail: `no route ${c.req.method} ${c.req.path}` }, 404));
  return app;
}

function problem(c: import('hono').Context, issues: { path: string; message: string }[]) {
  return new Response(JSON.stringify(problemDetails(issues)), { status: 400, headers: { 'content-type': PROBLEM_CONTENT_TYPE } });
}
