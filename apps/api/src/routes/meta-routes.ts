import type { Hono } from 'hono';
import { docsPage } from '../docs/docs-page.ts';
import { fixedResponder } from '../http/respond.ts';
import { landingPage } from '../landing-page.ts';
import { openApiDocument } from '../openapi/openapi-document.ts';
import type { PostOperation } from '../operations/operation.ts';

/** GET /healthz, / (landing page), /openapi.json and /docs (and /docs/, redirected to it). */
export function metaRoutes(app: Hono, operations: readonly PostOperation[], mountedPaths: Readonly<Record<string, unknown>> = {}): void {
  const docs = docsPage();
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/', (c) => c.html(landingPage(operations)));
  app.get('/openapi.json', fixedResponder(() => openApiDocument(operations, mountedPaths)));
  app.get('/docs', (c) => c.html(docs));
  // A trailing slash is the same page, by a permanent redirect so that the page's relative links keep one base.
  app.get('/docs/', (c) => c.redirect('/docs', 301));
}
