import { ifNoneMatchHolds } from '@trainplan/http';
import { Hono } from 'hono';
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
  app.get(MODULE_PATH, async (c) => {
    try {
      const bundle = await widgetBundle();
      // An ETag, so a page revalidating the module after max-age gets a 304, not 80 kB again; the 304 says every header
      // the 200 does (RFC 9110 §15.4.5), its type among them, so a cache that updates its copy from it keeps JavaScript
      // (QA: hono/etag's 304 went out as text/plain, without CORS, and the Node server's compression left its tag strong).
      const headers = {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'access-control-allow-origin': '*',
        etag: await bundleTag(bundle.code),
      };
      if (ifNoneMatchHolds(c.req.header('if-none-match'), headers.etag, c.req.method)) return c.body(null, 304, headers);
      return c.body(bundle.code, 200, headers);
    } catch (error) {
      return c.json({ type: 'about:blank', title: 'Widget build failed', status: 500, detail: error instanceof Error ? error.message : String(error) }, 500);
    }
  });
  return app;
}

let tag: Promise<string> | undefined;

/** The module's ETag: a SHA-256 of its code (Web Crypto, on every runtime), the first 16 bytes in hex, once per process. */
function bundleTag(code: string): Promise<string> {
  tag ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)).then((digest) =>
    `"${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`);
  return tag;
}
