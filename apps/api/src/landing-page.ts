import { escapeHtml } from './docs/escape-html.ts';
import type { PostOperation } from './operations/operation.ts';

/**
 * Shown when a widget link (`/#scenario=…`, the chat bot's) is opened on a runtime that serves this
 * page at / instead of the widget (Deno, Workers): the scenario, and its estimate from POST
 * /v1/estimate, as text (textContent only: the hash is the reader's input).
 */
const SHARED_SCENARIO = `<section id="shared-scenario" hidden>
<h2>Shared scenario</h2>
<p>This link opens a scenario in the trainplan widget, which this server does not serve (<code>npm start</code> on Node does;
set <code>TRAINPLAN_PUBLIC_URL</code> to such a server for the chat bot's links). The scenario and its estimate from <code>POST /v1/estimate</code>:</p>
<pre id="shared-scenario-json"></pre>
<pre id="shared-scenario-estimate">…</pre>
</section>
<script type="module">
function showScenario() {
  const hash = location.hash;
  let scenario;
  try { scenario = hash.startsWith('#scenario=') ? JSON.parse(decodeURIComponent(hash.slice('#scenario='.length))) : undefined; } catch { scenario = undefined; }
  document.getElementById('shared-scenario').hidden = scenario === undefined;
  if (scenario === undefined) return;
  document.getElementById('shared-scenario-json').textContent = JSON.stringify(scenario, null, 2);
  const out = document.getElementById('shared-scenario-estimate');
  out.textContent = '…';
  fetch('/v1/estimate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenario) })
    .then((r) => r.json()).then((e) => { out.textContent = JSON.stringify(e, null, 2); }, (e) => { out.textContent = String(e); });
}
showScenario();
addEventListener('hashchange', showScenario);
</script>`;

/** The page at / where the widget is not served (Deno, Workers; Node's `npm start` shows the widget's demo there): what is served and how to call it. */
export function landingPage(operations: readonly PostOperation[]): string {
  const posts = operations.map((op) => `<li><code>POST ${op.path}</code>: ${escapeHtml(op.summary)}</li>`).join('\n');
  const example = JSON.stringify({
    model: 'gpt3-175b',
    cluster: { gpu: 'a100-80gb', nodes: 128 },
    training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16' },
    parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trainplan</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
</head><body>
<h1>trainplan</h1>
<p>Plan large-language-model training from first principles: a parallel strategy → step time, throughput, MFU and memory per GPU.</p>
${SHARED_SCENARIO}
<h2>Endpoints</h2>
<p>Interactive documentation: <a href="/docs">/docs</a>; the OpenAPI 3.1 document: <a href="/openapi.json">/openapi.json</a>.
Bodies are <code>application/json</code> or <code>application/msgpack</code>.</p>
<ul>${posts}
<li><code>GET /v1/presets/{gpus,systems,networks,models}</code>, <code>GET /v1/presets/models/{id}</code></li>
<li><code>GET /healthz</code></li></ul>
<h2>Try it</h2>
<pre>curl -s localhost:8787/v1/estimate -H 'content-type: application/json' \\
  -d '${example}'</pre>
<p>Validation and benchmark reports: <code>docs/validation.md</code>, <code>docs/benchmarks.md</code> in the repository.</p>
</body></html>`;
}
