import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/index.ts';
import { ROUTES_LISTED } from '../src/http/route-hint.ts';

// The apps infra/node mounts beside the API (main.ts), in miniature: the chat bot under /v1/chat, the widget at /.
const chat = new Hono();
chat.post('/slack', (c) => c.text('ok'));
const widget = new Hono();
widget.get('/', (c) => c.html('<p>demo</p>'));
widget.get('/widget/trainplan-widget.js', (c) => c.text(''));
const app = createApi({ mounts: [{ path: '/v1/chat', app: chat }, { path: '/', app: widget }] });

const detailOf = async (method: string, path: string): Promise<{ status: number; detail: string }> => {
  const res = await app.request(path, { method });
  return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
};

describe('a 404 names the route meant (QA: "no route POST /estimate" and no more)', () => {
  it.each([
    ['POST', '/estimate', 'POST /v1/estimate'], // the /v1 prefix left out
    ['POST', '/estimates', 'POST /v1/estimate'], // left out, and a slip
    ['POST', '/v1/estimates', 'POST /v1/estimate'], // a slip (protocol's bounded edit distance)
    ['GET', '/V1/presets', 'GET /v1/presets'], // another case
    ['POST', '//v1/estimate', 'POST /v1/estimate'], // a slash doubled
    ['GET', '/v1/estimates/', 'POST /v1/estimate'], // a slip with a trailing slash; the route's own method is named
    ['POST', '/serch', 'POST /v1/search'],
    ['GET', '/presets/gpus/h100-sxm', 'GET /v1/presets/gpus/h100-sxm'], // a pattern's route, under /v1
    ['GET', '/v1/preset/gpus/h100-sxm', 'GET /v1/presets/gpus/h100-sxm'], // a pattern, its parameters from the path
    ['GET', '/openapi', 'GET /openapi.json'], // the route the path begins
    ['GET', '/problem/over-budget', 'GET /problems/over-budget'],
    ['POST', '/v1/chat/slak', 'POST /v1/chat/slack'], // a mounted app's route
    ['GET', '/widget/trainplan-widget.jss', 'GET /widget/trainplan-widget.js'],
  ])('%s %s: did you mean %s?', async (method, path, meant) => {
    const { status, detail } = await detailOf(method, path);
    expect(status).toBe(404);
    expect(detail).toBe(`no route ${method} ${path}; did you mean ${meant}?`);
    // The route meant answers: a second request there is no 404.
    const [routeMethod, routePath] = meant.split(' ') as [string, string];
    expect((await app.request(routePath, { method: routeMethod, ...(routeMethod === 'POST' && { body: '{}' }) })).status).not.toBe(404);
  });

  it.each([
    ['GET', '/nope'], // two edits from "nodes", too many for four letters
    ['GET', '/v1'], // begins every /v1 route: none is meant more than the others
    ['POST', '/api/v1/estimate'],
    ['GET', '/v1/presets/gpus/h100-sxm/specs'],
  ])('%s %s, near no route, points to where the routes are listed', async (method, path) => {
    expect(await detailOf(method, path)).toEqual({ status: 404, detail: `no route ${method} ${path}${ROUTES_LISTED}` });
    expect(ROUTES_LISTED).toBe('; the routes are listed on /docs and in /openapi.json');
  });

  it('a trailing slash alone keeps its words; a path of 100,000 characters is answered at once, said back cut', async () => {
    expect((await detailOf('POST', '/v1/estimate/')).detail).toBe('no route POST /v1/estimate/ (without the trailing slash: /v1/estimate)');
    /** The fastest of three 404s for `path`, in ms. */
    const fastest = async (path: string): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await detailOf('GET', path);
        times.push(performance.now() - started);
      }
      return Math.min(...times);
    };
    // Compared with every route by the bounded distance, a long path costs about what reading it does; a whole table per
    // route would be 100,000 × its length a route. Generous: 50 times a short one's.
    expect(await fastest(`/v1/${'estimate'.repeat(12_500)}`) / await fastest('/v1/nope')).toBeLessThan(50);
    const { status, detail } = await detailOf('GET', `/v1/${'estimate'.repeat(12_500)}`);
    expect(status).toBe(404);
    expect(detail).toContain('… (100,004 characters)');
    expect(detail.endsWith(ROUTES_LISTED)).toBe(true);
  });
});
