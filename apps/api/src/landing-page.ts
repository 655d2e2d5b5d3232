/** The page `npm start` shows at /: what is served and how to call it. */
export function landingPage(): string {
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
<h2>Endpoints</h2>
<ul><li><code>POST /v1/estimate</code>: one scenario (or an array) as <code>application/json</code>; see the scenario contract.</li>
<li><code>GET /healthz</code></li></ul>
<h2>Try it</h2>
<pre>curl -s localhost:8787/v1/estimate -H 'content-type: application/json' \\
  -d '${example}'</pre>
<p>Validation and benchmark reports: <code>docs/validation.md</code>, <code>docs/benchmarks.md</code> in the repository.</p>
</body></html>`;
}
