import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { widgetBundle } from './build.ts';
import { demoPage } from './demo-page.ts';
import { MODULE_PATH } from './paths.ts';

/**
 * The widget as a Hono sub-app: the demo page at `/` and the browser module at
 * /widget/trainplan-widget.js, bundled in-process on first start (no separate build step) and
 * kept for the life of the process. Mount it before the API's routes so `/` is the demo.
 */
export function createWidgetApp(): Hono {
  // Start building now, so the first request finds the bundle ready; a failure is retried on request.
  widgetBundle().catch(() => undefined);
  const app = new Hono();
  app.get('/', (c) => c.html(demoPage()));
  // An ETag (hono/etag: a SHA-1 of the body) so a page revalidating the module after max-age gets a 304, not 80 kB again.
  app.use(MODULE_PATH, etag());
  app.get(MODULE_PATH, async (c) => {
    try {
      const bundle = await widgetBundle();
      return c.body(bundle.code, 200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'access-control-allow-origin': '*',
      });
    } catch (error) {
      return c.json({ type: 'about:blank', title: 'Widget build failed', status: 500, detail: error instanceof Error ? error.message : String(error) }, 500);
    }
  });
  return app;
}
