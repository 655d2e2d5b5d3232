import { Hono } from 'hono/tiny';
import { describe, expect, it } from 'vitest';
import { allowedMethods } from '../src/http/allowed-methods.ts';

/** An app with a route of each shape the API has: plain, parameterised, with its own trailing slash, and middleware. */
function app(): Hono {
  const a = new Hono();
  a.use('*', (_c, next) => next());
  a.post('/v1/estimate', (c) => c.text('ok'));
  a.get('/v1/presets/:kind', (c) => c.text('ok'));
  a.get('/docs', (c) => c.text('ok'));
  a.get('/docs/', (c) => c.text('ok'));
  return a;
}

describe('allowedMethods: what a path answers, for Allow and a 405', () => {
  it('names the methods of the routes whose pattern the path matches, HEAD with GET and OPTIONS always', () => {
    const allowed = allowedMethods(app());
    expect(allowed('/v1/estimate')).toEqual(['POST', 'OPTIONS']);
    expect(allowed('/v1/presets/gpus')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('answers nothing on a path no route has, middleware aside', () => {
    expect(allowedMethods(app())('/v1/nowhere')).toEqual([]);
  });

  it('takes a trailing slash as part of the path: none added or dropped, though the router would match either', () => {
    const allowed = allowedMethods(app());
    expect(allowed('/v1/estimate/')).toEqual([]);
    expect(allowed('/v1/presets/gpus/')).toEqual([]);
    expect(allowed('/docs/')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(allowed('')).toEqual([]);
  });
});
