import { problemTypesList } from './problem-pages.ts';

/**
 * GET /docs: interactive API documentation in one self-contained page (no CDN: it must work
 * offline and on a Worker). A small vanilla-JS script reads /openapi.json and renders each
 * operation with its description and a "try it" form prefilled with the document's example; when
 * that fetch fails it says so, with a Retry button. Below them, the problem types of trainplan's own, each linked to its
 * page (problem-pages.ts), written in the page itself: they are there without the script or the document.
 */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trainplan API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem}.op{border:1px solid #ddd;border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
.verb{display:inline-block;min-width:3.5rem;font-weight:700}.post{color:#1a6}.get{color:#16a}
textarea{width:100%;min-height:10rem;font:13px ui-monospace,monospace}pre{background:#f5f5f5;padding:.75rem;overflow:auto;max-height:24rem}
button{padding:.3rem .9rem}details summary{cursor:pointer}
</style></head><body>
<h1>trainplan API</h1>
<p id="intro">Loading <a href="/openapi.json">/openapi.json</a>…</p>
<div id="ops"></div>
${problemTypesList()}
<script>
// A failed fetch of the document said "Loading…" forever: it says what failed, with a button to try again.
const intro = document.getElementById('intro');
async function load() {
  let doc;
  try {
    const res = await fetch('openapi.json'.replace(/^/, location.pathname.replace(/docs\\/?$/, '')));
    if (!res.ok) throw new Error(res.status + ' ' + res.statusText);
    doc = await res.json();
  } catch (e) {
    const retry = Object.assign(document.createElement('button'), { textContent: 'Retry' });
    retry.onclick = () => { intro.textContent = 'Loading /openapi.json…'; load(); };
    intro.setAttribute('role', 'alert');
    intro.replaceChildren('Could not load /openapi.json (' + (e instanceof Error ? e.message : String(e)) + '). ', retry);
    return;
  }
  intro.removeAttribute('role');
  intro.textContent = doc.info.description;
  const root = document.getElementById('ops');
  const el = (tag, props = {}, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
  // A path item holds its operations beside fields that are none (description, parameters: OpenAPI 3.1 §4.8.9).
  const verbs = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      if (!verbs.includes(verb)) continue;
      const box = el('div', { className: 'op' });
      box.append(el('div', {}, el('span', { className: 'verb ' + verb, textContent: verb.toUpperCase() }), el('code', { textContent: path }), ' — ' + (op.summary || '')));
      if (op.description) box.append(el('p', { textContent: op.description }));
      // A signed endpoint (the chat bot's: x-signed) answers only its platform's signed requests: shown, not tried.
      if (op['x-signed']) {
        box.append(el('p', { textContent: 'Called by the chat platform, which signs each request: no form to try it here.' }));
        root.append(box);
        continue;
      }
      const media = op.requestBody && op.requestBody.content['application/json'];
      let input = null;
      const params = (op.parameters || []).map((p) => { const i = el('input', { value: p.example || '', placeholder: p.name }); box.append(el('label', {}, p.name + ': ', i)); return [p.name, i]; });
      if (media) {
        input = el('textarea', { value: JSON.stringify(media.example ?? {}, null, 2) });
        input.setAttribute('aria-label', 'Request body (JSON) for ' + verb.toUpperCase() + ' ' + path);
        box.append(input);
        box.append(el('details', {}, el('summary', { textContent: 'request schema' }), el('pre', { textContent: JSON.stringify(media.schema, null, 2) })));
      }
      const out = el('pre', { textContent: '' });
      const send = el('button', { textContent: 'Try it' });
      send.onclick = async () => {
        let url = path;
        for (const [name, i] of params) url = url.replace('{' + name + '}', encodeURIComponent(i.value));
        const init = input ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: input.value } : {};
        const started = performance.now();
        try {
          const res = await fetch(url.replace(/^\\//, location.pathname.replace(/docs\\/?$/, '')), init);
          const text = await res.text();
          let shown = text; try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
          out.textContent = res.status + ' ' + res.statusText + '  (' + (performance.now() - started).toFixed(1) + ' ms)'
            + (res.headers.get('etag') ? '  ETag ' + res.headers.get('etag') : '') + '\\n\\n' + shown;
        } catch (e) { out.textContent = String(e); }
      };
      box.append(el('div', {}, send), out);
      root.append(box);
    }
  }
}
load();
</script>
</body></html>`;
}
