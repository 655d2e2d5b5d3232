/// <reference lib="dom" />
// The time–cost curve in a real browser (Debian's chromium via playwright-core): with Auto on and the
// default token budget it appears under "How many nodes", on a phone and on a tablet, inside the element.
// Runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup installs chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { frontierSentence } from '../src/sizing/frontier-sentence.ts';
import { browserAndBundle } from './support/chromium.ts';
import { frontierAnswer } from './support/frontier-answer.ts';

const ORIGIN = 'http://frontier.test';
const page = (attributes: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>t</title><script type="module" src="/w.js"></script></head>
<body style="margin:8px"><trainplan-estimator ${attributes}></trainplan-estimator></body></html>`;

const { browser, bundle } = browserAndBundle();

/** Opens the widget with `attributes` at `width` and waits until `until` holds in its shadow root. */
async function open(width: number, attributes: string, until: string): Promise<Page> {
  const tab = await browser().newPage({ viewport: { width, height: 900 } });
  await tab.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
    : route.fulfill({ contentType: 'text/html', body: page(attributes) })));
  await tab.goto(`${ORIGIN}/`);
  await tab.waitForFunction(`(() => { const root = document.querySelector('trainplan-estimator')?.shadowRoot; return !!root && !!(${until}); })()`, undefined, { timeout: 30_000 });
  return tab;
}

describe('the time–cost curve in the browser', () => {
  it.each([360, 800])('shows for the default scenario with Auto on at %i px, every part inside the element', async (width) => {
    const tab = await open(width, 'auto', "root.querySelector('.out-frontier svg')");
    const seen = await tab.locator('trainplan-estimator').evaluate((el) => {
      const root = el.shadowRoot!;
      const host = el.getBoundingClientRect();
      const out = root.querySelector('.out-frontier')!;
      const svg = out.querySelector('svg')!.getBoundingClientRect();
      // Every label, tick, title and mark, and the sentence under the chart, measured where the browser drew them.
      const parts = [...out.querySelectorAll('text, circle, p')].map((e) => e.getBoundingClientRect());
      return {
        dots: [...out.querySelectorAll('circle.dot')].map((d) => Number(d.getAttribute('data-nodes'))).sort((a, b) => a - b),
        line: out.querySelectorAll('path.line.pareto').length,
        // The thin line through every size searched: its vertices.
        all: [...out.querySelectorAll('path.line.all')].map((p) => (p.getAttribute('d')!.match(/[ML]/g) ?? []).length),
        marked: [...out.querySelectorAll('[data-marker]')].map((m) => Number(m.getAttribute('data-nodes'))),
        marks: [...out.querySelectorAll('[data-marker]')].map((m) => m.getAttribute('data-marker')),
        titles: [...out.querySelectorAll('.axis-title')].map((t) => t.textContent),
        sentence: out.querySelector('[data-frontier-sentence]')?.textContent,
        svgHeight: svg.height,
        // Each node-count label's drawn box and each dot's centre, and the viewBox unit in px.
        labels: [...out.querySelectorAll('text.label')].map((t) => {
          const r = t.getBoundingClientRect();
          return { nodes: Number(t.getAttribute('data-label')), text: t.textContent ?? '', x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
        }),
        centres: [...out.querySelectorAll('circle.dot')].map((c) => {
          const r = c.getBoundingClientRect();
          return { nodes: Number(c.getAttribute('data-nodes')), x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
        }),
        unit: svg.width / out.querySelector('svg')!.viewBox.baseVal.width,
        outside: parts.filter((r) => r.left < host.left - 0.5 || r.right > host.right + 0.5).length,
        pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
    // The same request's answer outside the browser: every size on the thin line, a dot for the smallest, the powers of
    // two, the Pareto sizes, the ends and the scenario's 128 nodes (frontier-chart.test.ts tests which, and where).
    const answer = frontierAnswer();
    const sizes = answer.frontier!;
    const cheapest = sizes.reduce((a, b) => (b.gpuHours < a.gpuHours ? b : a));
    const fastest = sizes.reduce((a, b) => (b.days < a.days ? b : a));
    const smallest = Math.min(...sizes.map((s) => s.nodes));
    const dotted = sizes.filter((s) => s.pareto || Number.isInteger(Math.log2(s.nodes)) || [smallest, cheapest.nodes, fastest.nodes, 128].includes(s.nodes));
    expect(seen).toMatchObject({ line: 1, all: [sizes.length], marks: ['cheapest', 'fastest'], marked: [cheapest.nodes, fastest.nodes], titles: ['GPU-hours', 'days to train (log scale)'], outside: 0, pageOverflow: 0 });
    expect(seen.dots).toEqual(dotted.map((s) => s.nodes).sort((a, b) => a - b));
    expect(seen.dots.length).toBeLessThan(sizes.length);
    // The sentence the same request gets outside the browser (frontier-sentence.test.ts tests its wording).
    expect(seen.sentence).toBe(frontierSentence(answer, 128));
    const count = (n: number) => `${n.toLocaleString('en-US')} nodes`;
    expect(seen.sentence).toMatch(new RegExp(`^Cheapest: ${count(cheapest.nodes)}, [\\d.]+ days, [\\d.]+ [kM] GPU-hours; 128 nodes: [\\d.]+ days for \\+\\d+%; fastest: ${count(fastest.nodes)}, `));
    // Readable, not squashed: the 320 × 200 viewBox keeps its shape at the width it is given.
    expect(seen.svgHeight).toBeGreaterThan(150);
    // Each label as drawn starts nearer its own dot than any other (QA measured "6,144 fastest" nearest the hollow 4,096):
    // a dot within an end's ring (r 6 units) is read with it.
    expect(seen.labels.map((l) => l.text)).toEqual(expect.arrayContaining([`${cheapest.nodes.toLocaleString('en-US')} cheapest`, `${fastest.nodes.toLocaleString('en-US')} fastest`]));
    for (const l of seen.labels) {
      const own = seen.centres.find((c) => c.nodes === l.nodes)!;
      const facing = { x: Math.min(Math.max(own.x, l.x0), l.x1), y: Math.min(Math.max(own.y, l.y0), l.y1) };
      const from = (c: { x: number; y: number }) => Math.hypot(c.x - facing.x, c.y - facing.y);
      const ringed = /(cheapest|fastest)$/.test(l.text);
      for (const c of seen.centres.filter((d) => d.nodes !== l.nodes && !(ringed && Math.hypot(d.x - own.x, d.y - own.y) < 6 * seen.unit))) {
        expect(from(c), `${l.text} by ${c.nodes} nodes at ${width} px`).toBeGreaterThan(from(own));
      }
    }
    await tab.close();
  });

  it('asks for Auto instead of searching every size when Auto is off', async () => {
    const tab = await open(800, '', "root.querySelector('.out-frontier')?.textContent");
    const shown = await tab.locator('trainplan-estimator').evaluate((el) => {
      const out = el.shadowRoot!.querySelector('.out-frontier')!;
      return { text: out.textContent, svg: out.querySelectorAll('svg').length };
    });
    expect(shown).toEqual({ text: 'Turn on Auto to draw the time–cost curve over cluster sizes.', svg: 0 });
    await tab.close();
  });
});
