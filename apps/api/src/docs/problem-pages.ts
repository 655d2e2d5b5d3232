import { PROBLEM_TYPE_NAMES, PROBLEM_TYPES, problemTypeUri, type ProblemTypeName } from '@trainplan/protocol';
import { escapeHtml } from './escape-html.ts';

/**
 * GET /problems/{name}: what a problem type of ours means and what to do about it, one short page each, made from
 * protocol's table of them (PROBLEM_TYPES), which the problems' `type` URIs are made from too. RFC 9457 §3.1.1: a
 * dereferenceable type URI "SHOULD" give "human-readable documentation for the problem type"; each URI's path is served
 * here, on every runtime that serves the API. The links are relative, so the pages work under a path prefix.
 */
export function problemPage(name: ProblemTypeName): string {
  const { title, status, means, todo } = PROBLEM_TYPES[name];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}: a trainplan API problem type</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>The problem type <code>${escapeHtml(problemTypeUri(name))}</code>: the API answers it with status ${status}, as an
<code>application/problem+json</code> document (RFC 9457) whose <code>type</code> is this URI.</p>
<h2>What it means</h2>
<p>${escapeHtml(means)}</p>
<h2>What to do</h2>
<p>${escapeHtml(todo)}</p>
<p>Every problem type: <a href="../docs#problem-types">/docs</a>.</p>
</body></html>`;
}

/** The problem types as /docs lists them: each linked to its page (relative to /docs), with its status and title. */
export function problemTypesList(): string {
  const items = PROBLEM_TYPE_NAMES.map((name) => {
    const { title, status } = PROBLEM_TYPES[name];
    return `<li><a href="problems/${name}"><code>${name}</code></a>: ${status} ${escapeHtml(title)}</li>`;
  });
  return `<h2 id="problem-types">Problem types</h2>
<p>An error answer is an <code>application/problem+json</code> document (RFC 9457). Those of a type of trainplan's own
carry one of these as their <code>type</code> (<code>https://trainplan.dev/problems/</code> and the name), each page
saying what it means and what to do; the others are <code>about:blank</code>, their <code>detail</code> saying what to do.</p>
<ul>
${items.join('\n')}
</ul>`;
}
