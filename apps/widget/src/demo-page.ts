import { MODULE_PATH } from './paths.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The snippet a docs author pastes: one module script and the tag, attributes pinning the example. */
export function embedSnippet(origin = 'https://your-trainplan-host'): string {
  return `<script type="module" src="${origin}${MODULE_PATH}"></script>
<trainplan-estimator model="gpt3-175b" gpu="a100-80gb" nodes="128"
  tp="8" pp="8" gbs="1536" mbs="1" recompute="full"></trainplan-estimator>`;
}

/** The same for `<trainplan-serving>`: the API's inference example, held to 50 ms per output token. */
export function servingSnippet(origin = 'https://your-trainplan-host'): string {
  return `<script type="module" src="${origin}${MODULE_PATH}"></script>
<trainplan-serving model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512"
  max-token-ms="50"></trainplan-serving>`;
}

/**
 * The demo page `npm start` serves at `/`: a short article on parallelism with the widget beside
 * the text (mirroring its scenario into the URL hash), and the embed snippet; then a short section on
 * serving with `<trainplan-serving>` and its snippet. At 24rem and narrower the page's sides are 8 px, so a 320 px
 * phone leaves the elements 304 px, which keeps their charts' text at 10 px or more (charts/chart-size.ts needs 296
 * px: its 270-unit viewBox in the column inside 12 px padding and a 1 px border); 1rem sides drew it at 9.7 px.
 */
export function demoPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trainplan: how a 175B model is split over 1024 GPUs</title>
<link rel="icon" href="data:,">
<script type="module" src="${MODULE_PATH}"></script>
<style>
:root{color-scheme:light dark}
body{font:17px/1.6 Georgia,serif;margin:0;padding:1.5rem 1rem;max-width:84rem;margin:auto}
main,.pair{display:grid;grid-template-columns:minmax(0,30rem) minmax(0,1fr);gap:2rem;align-items:start}
@media (max-width:60rem){main,.pair{grid-template-columns:minmax(0,1fr)}}
@media (max-width:24rem){body{padding-inline:8px}}
aside{position:sticky;top:1rem}
pre{background:rgba(127,127,127,.12);padding:.8rem;overflow:auto;font-size:13px}
code{font-size:.9em}
</style></head>
<body>
<main>
<article>
<h1>Splitting a 175-billion-parameter model</h1>
<p>No single GPU holds GPT-3: 175 B parameters with their gradients and Adam state need about
18 bytes each, over 3 TB. Megatron-LM splits the work three ways at once (Narayanan et al., SC'21).</p>
<h2>Tensor parallelism (t)</h2>
<p>Each layer's matrix multiplies are cut across <em>t</em> GPUs, which exchange activations with an
all-reduce twice per layer in each direction. That traffic is heavy, so <em>t</em> stays inside one
NVLink node, typically 8.</p>
<h2>Pipeline parallelism (p)</h2>
<p>The layers are cut into <em>p</em> stages on different nodes. A batch is split into <em>m</em>
micro-batches that flow through the stages; the 1F1B schedule leaves a bubble of (p − 1)/m of the
ideal time idle, and the interleaved schedule, with <em>v</em> model chunks per GPU, cuts it to
(p − 1)/(v·m). Change <em>p</em>, the micro-batch or the virtual stages beside and watch the grey
gaps of the schedule.</p>
<h2>Data parallelism (d)</h2>
<p>What is left of the GPUs replicates the whole arrangement: d = GPUs / (t·p·c). Replicas reduce
their gradients once per step; the distributed optimizer shards the optimizer state over them.</p>
<h2>Memory, recompute and how many nodes</h2>
<p>Activations grow with the micro-batch and the sequence; recomputing them in the backward pass
trades about a third more compute for most of that memory (Korthikanti et al., 2022). The memory
bar beside shows what one GPU holds against its capacity. Give a token budget and a deadline and the
widget finds the fewest nodes that make it.</p>
<h2>Put this estimator in your page</h2>
<pre><code>${escapeHtml(embedSnippet())}</code></pre>
<p>It computes in the reader's browser (no server); add <code>api="https://…"</code> to use a
trainplan API instead (it sends <code>POST /v1/estimate</code>; this server's API is described at
<a href="/docs">/docs</a>), <code>sync-hash</code> to mirror the scenario into the page's URL
(<code>#scenario=</code> + the URI-encoded scenario JSON), and CSS custom properties such as
<code>--trainplan-accent</code> to theme it.</p>
</article>
<aside><trainplan-estimator sync-hash model="gpt3-175b" gpu="a100-80gb" nodes="128" tp="8" pp="8" gbs="1536" mbs="1" recompute="full" tokens="300B" days="30"></trainplan-estimator></aside>
</main>
<section class="pair" aria-labelledby="serving">
<div>
<h2 id="serving">Serving it: latency against throughput</h2>
<p>Serving trades each user's speed for the GPUs' throughput: a larger batch reads the weights once for
more sequences, so tokens/s per GPU rise while every token takes longer. The KV cache of the batch must fit
beside the weights. The serving element finds the tensor × pipeline split and batch with the most tokens/s
per GPU within a bound per output token, with continuous batching (prompts join as sequences finish, as vLLM
serves); give <code>gpus</code> to count replicas, or <code>model="custom"</code> with <code>layers</code>,
<code>hidden-size</code>, <code>heads</code>, <code>kv-heads</code>, <code>ffn</code>, <code>vocab</code> and
<code>gated</code> for a shape of your own, as in the estimator.</p>
<pre><code>${escapeHtml(servingSnippet())}</code></pre>
</div>
<trainplan-serving model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512" max-token-ms="50"></trainplan-serving>
</section>
</body></html>`;
}
