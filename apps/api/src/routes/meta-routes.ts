import { PROBLEM_TYPE_NAMES, didYouMean, type ProblemTypeName } from '@trainplan/protocol';
import type { Hono } from 'hono';
import { docsPage } from '../docs/docs-page.ts';
import { problemPage } from '../docs/problem-pages.ts';
import { notFound, saidBack } from '../http/problems.ts';
import { fixedResponder } from '../http/respond.ts';
import { landingPage } from '../landing-page.ts';
import { openApiDocument } from '../openapi/openapi-document.ts';
import type { PostOperation } from '../operations/operation.ts';

/** GET /healthz, / (landing page), /openapi.json, /docs (and /docs/, redirected to it) and /problems/{name}. */
export function metaRoutes(app: Hono, operations: readonly PostOperation[], mountedPaths: Readonly<Record<string, unknown>> = {}): void {
  const docs = docsPage();
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/', (c) => c.html(landingPage(operations)));
  app.get('/openapi.json', fixedResponder(() => openApiDocument(operations, mountedPaths)));
  app.get('/docs', (c) => c.html(docs));
  // A trailing slash is the same page, by a permanent redirect so that the page's relative links keep one base.
  app.get('/docs/', (c) => c.redirect('/docs', 301));
  // The page of each problem type of ours, at its type URI's path (docs/problem-pages.ts).
  const problems = new Map<string, string>(PROBLEM_TYPE_NAMES.map((name: ProblemTypeName) => [name, problemPage(name)]));
  app.get('/problems/:name', (c) => {
    const name = c.req.param('name');
    const page = problems.get(name);
    if (page !== undefined) return c.html(page);
    return notFound(`no problem type "${saidBack(name)}"${didYouMean(name, PROBLEM_TYPE_NAMES)}; known: ${PROBLEM_TYPE_NAMES.join(', ')}`);
  });
}
