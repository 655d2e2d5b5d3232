import { PROBLEM_TYPE_NAMES, PROBLEM_TYPES } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi, HTTP_MAX_CANDIDATE_BUDGET } from '../src/index.ts';

const app = createApi();
const post = (path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const scenario = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } };

/** The page the API serves at a problem type URI's path (RFC 9457 §3.1.1: a dereferenceable type documents the problem). */
const pageAt = (typeUri: string) => app.request(new URL(typeUri).pathname);

describe('each problem type the API answers with leads to a page that says what it means and what to do', () => {
  it.each([
    ['invalid-scenario', () => post('/v1/estimate', { model: 'gpt3-175b' })],
    ['invalid-request', () => post('/v1/search', { model: 'gpt3-175b' })],
    ['over-budget', () => post('/v1/search', { ...scenario, candidateBudget: HTTP_MAX_CANDIDATE_BUDGET + 1 })],
  ] as const)('%s: the problem\'s type URI, unchanged, is served as HTML stating its status and title', async (name, request) => {
    const res = await request();
    const problem = await res.json() as { type: string; status: number; title: string };
    expect(problem.type).toBe(`https://trainplan.dev/problems/${name}`);
    const page = await pageAt(problem.type);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`<code>${problem.type}</code>`);
    expect(html).toContain(`status ${problem.status}`);
    expect(html).toContain(`<h1>${PROBLEM_TYPES[name].title}</h1>`);
    // The problem's own title is the page's, or names its kind ("Invalid search request").
    expect(problem.title.replace(/ \w+ request$/, ' request')).toBe(PROBLEM_TYPES[name].title);
    expect(html).toMatch(/<h2>What it means<\/h2>\n<p>[^<]{100,}<\/p>/);
    expect(html).toMatch(/<h2>What to do<\/h2>\n<p>[^<]{60,}<\/p>/);
  });

  it('every type in the table has its page; an unknown name is a 404 naming the one meant and the known ones', async () => {
    expect(PROBLEM_TYPE_NAMES).toEqual(['invalid-scenario', 'invalid-request', 'over-budget']);
    for (const name of PROBLEM_TYPE_NAMES) expect((await app.request(`/problems/${name}`)).status).toBe(200);
    const res = await app.request('/problems/over-budjet');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail)
      .toBe('no problem type "over-budjet" (did you mean over-budget?); known: invalid-scenario, invalid-request, over-budget');
  });

  it('/docs lists each type, linked (relative to /docs) to its page, without its script', async () => {
    const html = await (await app.request('/docs')).text();
    const listed = html.slice(html.indexOf('<h2 id="problem-types">'), html.indexOf('<script>'));
    for (const name of PROBLEM_TYPE_NAMES) {
      const href = new RegExp(`<a href="([^"]+)"><code>${name}</code></a>: ${PROBLEM_TYPES[name].status} `).exec(listed)?.[1];
      expect(href, name).toBeDefined();
      expect((await app.request(new URL(href!, 'http://api.example/docs').pathname)).status).toBe(200);
    }
    // A page links back to the list.
    const page = await (await app.request('/problems/invalid-request')).text();
    expect(new URL(/href="([^"]+#problem-types)"/.exec(page)![1]!, 'http://api.example/problems/invalid-request').pathname).toBe('/docs');
  });

  it('/openapi.json documents the pages: GET /problems/{name}, its names, HTML, and the 404', async () => {
    const doc = await (await app.request('/openapi.json')).json() as {
      paths: Record<string, { get: { parameters: { schema: { enum: string[] } }[]; responses: Record<string, { content: Record<string, unknown> }> } }>;
    };
    const op = doc.paths['/problems/{name}']!.get;
    expect(op.parameters[0]!.schema.enum).toEqual(PROBLEM_TYPE_NAMES);
    expect(Object.keys(op.responses['200']!.content)).toEqual(['text/html']);
    expect(op.responses['404']!.content).toHaveProperty(['application/problem+json']);
  });
});
