/// <reference lib="dom" />
// The form's and the charts' layout in a real browser (Debian's chromium, driven by playwright-core; never a downloaded
// one), at a phone's width, the width where the fieldsets' columns are narrowest, a tablet's and a desktop's.
// Runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup installs chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createWidgetApp, MODULE_PATH } from '../src/index.ts';
import { clippedTexts } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';
import { frontierAnswer } from './support/frontier-answer.ts';


const ORIGIN = 'http://layout.test';
/** model="custom" shows the custom shape's fields too (KV heads, FFN size carry placeholders). */
const page = (attributes: string, tag = 'trainplan-estimator') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>t</title><script type="module" src="/w.js"></script></head>
<body style="margin:8px"><${tag} ${attributes}></${tag}></body></html>`;
const CUSTOM = 'model="custom"';
/** GPT-3 175B without recompute at micro-batch 8 needs 308 GiB of 80 GiB: the long out-of-memory message. */
const OUT_OF_MEMORY = 'model="gpt3-175b" gpu="a100-80gb" nodes="128" tp="8" pp="8" gbs="1536" mbs="8" recompute="none"';
/**
 * 320 and 360: phones; 436: the fieldsets' grid (auto-fill, 7.5rem columns) has just gone to three columns,
 * each at its narrowest (a 106 px text box); 800: the form above the results; 1280: the form's 19rem column
 * beside them.
 */
const WIDTHS = [320, 360, 436, 800, 1280];

const { browser, bundle } = browserAndBundle();

/**
 * Opens the widget (`tag`, the estimator unless told) with `attributes` at `width` and waits for `until` (over `el`,
 * the widget; default: a first estimate).
 */
async function open(width: number, attributes = CUSTOM, until = 'el.estimate !== undefined', hash = '', tag = 'trainplan-estimator'): Promise<Page> {
  const tab = await browser().newPage({ viewport: { width, height: 900 } });
  await tab.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
    : route.fulfill({ contentType: 'text/html', body: page(attributes, tag) })));
  await tab.goto(`${ORIGIN}/${hash}`);
  await tab.waitForFunction(`(() => { const el = document.querySelector('${tag}'); return !!el && (${until}); })()`, undefined, { timeout: 30_000 });
  return tab;
}

interface Box { name: string; fieldTop: number; fieldBottom: number; inputTop: number; inputBottom: number }

/** Each visible text input's and select's field (label above input), in px from the page's top. */
function fieldBoxes(tab: Page): Promise<Box[]> {
  return tab.locator('trainplan-estimator').evaluate((el) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('.field:not(.check)')]
    .filter((f) => f.offsetParent !== null)
    .map((f) => {
      const box = f.getBoundingClientRect();
      const input = f.querySelector('input, select')!.getBoundingClientRect();
      return { name: f.dataset.field!, fieldTop: box.top, fieldBottom: box.bottom, inputTop: input.top, inputBottom: input.bottom };
    }));
}

/** The fields grouped into the form's rows (one grid row: the same top). */
function rows(boxes: readonly Box[]): Box[][] {
  const byTop = new Map<number, Box[]>();
  for (const b of boxes) byTop.set(Math.round(b.fieldTop), [...(byTop.get(Math.round(b.fieldTop)) ?? []), b]);
  return [...byTop.values()];
}

/** The time–cost curve the default scenario draws with Auto on. */
const FRONTIER = frontierAnswer();

/**
 * Every chart with text the widget can show, in a view that shows it: the element, its attributes, and texts the
 * chart must hold (so a test measures the chart drawn, not an empty one).
 */
const CHART_VIEWS = [
  // The default scenario (GPT-3 175B on 128 nodes, p = 8): its stage labels, axis titles and micro-batch numbers.
  { name: 'pipeline', chart: 'pipeline', tag: 'trainplan-estimator', attributes: '', shows: ['stage', 's0', 's7', 'time (forward passes of a micro-batch) →'] },
  // Its scaling from 16 nodes, 128 ringed; and on 1,536 nodes, where node counts of four and five digits share the axis.
  { name: 'scaling', chart: 'scaling', tag: 'trainplan-estimator', attributes: '', shows: ['tokens/s', 'nodes', '16', '128'] },
  { name: 'scaling (1,536 nodes)', chart: 'scaling', tag: 'trainplan-estimator', attributes: 'nodes="1536"', shows: ['tokens/s', 'nodes', '1,536'] },
  // With Auto, the time–cost curve over cluster sizes (some 80 of them), the cheapest and the fastest named (node counts
  // grouped, "6,144 fastest"): the same request's answer outside the browser.
  { name: 'time–cost', chart: 'frontier', tag: 'trainplan-estimator', attributes: 'auto', shows: ['GPU-hours', 'days to train (log scale)', `${FRONTIER.nodes.toLocaleString('en-US')} cheapest`, `${FRONTIER.fastest!.nodes.toLocaleString('en-US')} fastest`] },
  // Serving Llama 3 70B on H100s under 50 ms per token: the latency–throughput frontier.
  { name: 'serving frontier', chart: 'serving-frontier', tag: 'trainplan-serving', attributes: 'model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512" max-token-ms="50"', shows: ['tokens/s per GPU', 'ms per output token (log scale)'] },
] as const;

interface ChartText { text: string; px: number; outside: string[]; left: number; right: number; top: number; bottom: number }

/**
 * Each text of the chart `svg.<chart>` in `tag`'s shadow root, as Chromium drew it: its font size in px (its size in
 * viewBox units times the units' size on screen), its box on screen, and the sides where it passes the chart's.
 */
function chartTexts(tab: Page, tag: string, chart: string): Promise<ChartText[]> {
  return tab.locator(tag).evaluate((el, selector) => {
    const svg = el.shadowRoot!.querySelector<SVGSVGElement>(selector)!;
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll<SVGTextElement>('text')].map((t) => {
      const box = t.getBoundingClientRect();
      const outside = [
        box.left < frame.left - 0.5 ? 'left' : '', box.right > frame.right + 0.5 ? 'right' : '',
        box.top < frame.top - 0.5 ? 'top' : '', box.bottom > frame.bottom + 0.5 ? 'bottom' : '',
      ].filter(Boolean);
      return { text: t.textContent ?? '', px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a, outside, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
    });
  }, `svg.${chart}`);
}

/** The pairs of texts whose boxes overlap by more than half a pixel each way (rounding), as "a / b". */
function overlapping(texts: readonly ChartText[]): string[] {
  const out: string[] = [];
  for (const [i, a] of texts.entries()) {
    for (const b of texts.slice(i + 1)) {
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 0.5 && down > 0.5) out.push(`${a.text} / ${b.text}`);
    }
  }
  return out;
}

describe("the widget's form, in Chromium", () => {
  it.each(WIDTHS)('at %i px, no placeholder and no select option is cut off', async (width) => {
    const tab = await open(width);
    expect(await tab.locator('trainplan-estimator [data-field=ffn]').isVisible()).toBe(true);
    expect(await clippedTexts(tab.locator('trainplan-estimator'))).toEqual([]);
    await tab.close();
  });

  it.each(WIDTHS)('at %i px, the inputs of a row share their top edge (a label on two lines, "Global batch (sequences)", does not push its input down)', async (width) => {
    const tab = await open(width);
    const all = await fieldBoxes(tab);
    expect(all.map((b) => b.name)).toContain('gbs');
    for (const row of rows(all)) {
      const tops = row.map((b) => `${b.name} ${Math.round(b.inputTop)}`);
      expect(new Set(row.map((b) => Math.round(b.inputTop))).size, tops.join(', ')).toBe(1);
    }
    await tab.close();
  });

  it.each(WIDTHS)('at %i px, "Auto: search the fastest" says what it does on a line under it, which describes the checkbox', async (width) => {
    const tab = await open(width);
    const hint = tab.locator('trainplan-estimator #h-auto');
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.innerText()).toBe('Tries t, p, v, c, micro-batch and recompute, and fills in the fastest plan that fits.');
    const box = await tab.locator('trainplan-estimator').evaluate((el) => {
      const r = (e: Element) => e.getBoundingClientRect();
      const hintBox = r(el.shadowRoot!.getElementById('h-auto')!);
      const check = el.shadowRoot!.getElementById('f-auto')!;
      const set = r(check.closest('fieldset')!);
      return { below: hintBox.top >= r(check).bottom, inside: hintBox.left >= set.left && hintBox.right <= set.right && hintBox.bottom <= set.bottom, describedBy: check.getAttribute('aria-describedby') };
    });
    expect(box).toEqual({ below: true, inside: true, describedBy: 'm-auto h-auto' });
    await tab.close();
  });

  it.each(WIDTHS.flatMap((width) => CHART_VIEWS.map((view) => [width, view.name, view] as const)))(
    'at %i px, every text of the %s chart is drawn 10 to 14 px tall, inside the chart, and clear of every other text',
    async (width, _name, view) => {
      const tab = await open(width, view.attributes, `el.shadowRoot.querySelector('svg.${view.chart}')`, '', view.tag);
      const texts = await chartTexts(tab, view.tag, view.chart);
      expect(texts.map((t) => t.text)).toEqual(expect.arrayContaining([...view.shows]));
      for (const t of texts) {
        expect(t.px, t.text).toBeGreaterThanOrEqual(10);
        expect(t.px, t.text).toBeLessThanOrEqual(14);
        expect(t.outside, JSON.stringify(t)).toEqual([]);
      }
      expect(overlapping(texts)).toEqual([]);
      await tab.close();
    },
  );

  it("the demo page at 320 px draws every chart's text 10 px or more (its padding left the element 288 px: 9.7 px)", async () => {
    const tab = await browser().newPage({ viewport: { width: 320, height: 900 } });
    const demo = await (await createWidgetApp().request('/')).text();
    await tab.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === MODULE_PATH
      ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
      : route.fulfill({ contentType: 'text/html', body: demo })));
    await tab.goto(`${ORIGIN}/`);
    await tab.waitForFunction(() => !!document.querySelector('trainplan-estimator')?.shadowRoot?.querySelector('svg.scaling')
      && !!document.querySelector('trainplan-serving')?.shadowRoot?.querySelector('svg'), undefined, { timeout: 30_000 });
    const sizes = await tab.evaluate(() => [...document.querySelectorAll('trainplan-estimator, trainplan-serving')].flatMap((el) =>
      [...el.shadowRoot!.querySelectorAll<SVGTextElement>('svg text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a)));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
    await tab.close();
  });

  it('offers "Link to this scenario" only with sync-hash, where the link opens what the reader saw', async () => {
    const link = (tab: Page) => tab.locator('trainplan-estimator .share-link');
    // Without sync-hash the element does not read the link: it would open the page's own example.
    const plain = await open(800, 'gbs="768"');
    expect(await link(plain).isVisible()).toBe(false);
    await plain.close();
    const synced = await open(800, 'sync-hash gbs="768"');
    expect(await link(synced).isVisible()).toBe(true);
    await synced.getByLabel('Global batch (sequences)', { exact: true }).fill('384');
    await synced.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate: { resolved: { globalBatchSize: number } } }).estimate.resolved.globalBatchSize === 384);
    await expect.poll(() => link(synced).getAttribute('href')).toContain('%22globalBatchSize%22%3A384');
    const href = new URL((await link(synced).getAttribute('href'))!);
    await synced.close();
    const reader = await open(800, 'sync-hash gbs="768"', 'el.estimate?.resolved.globalBatchSize === 384', href.hash);
    expect(await reader.getByLabel('Global batch (sequences)', { exact: true }).inputValue()).toBe('384');
    await reader.close();
  });

  it('shows a custom shape set by attributes, its hidden size as hidden-size (HTML\'s hidden="4096" hid the element)', async () => {
    const tab = await open(800, 'model="custom" layers="32" hidden-size="4096" heads="32" vocab="32000" gpu="a100-80gb" nodes="1" tp="8" pp="1" gbs="64"');
    expect(await tab.locator('trainplan-estimator').isVisible()).toBe(true);
    expect(await tab.getByLabel('Hidden size', { exact: true }).inputValue()).toBe('4096');
    expect(await tab.locator('trainplan-estimator').evaluate((el) => (el as HTMLElement & { scenario: { model: { hiddenSize: number } } }).scenario.model.hiddenSize)).toBe(4096);
    await tab.close();
  });

  it.each([360, 800])('at %i px, the out-of-memory message spans its fieldset under the row, which stays as tall as its label and input', async (width) => {
    const tab = await open(width, OUT_OF_MEMORY, "/out of memory/.test(el.shadowRoot.getElementById('m-mbs').textContent)");
    const all = await fieldBoxes(tab);
    const at = (name: string) => all.find((b) => b.name === name)!;
    expect(Math.round(at('mbs').inputTop)).toBe(Math.round(at('gbs').inputTop));
    // No field grows with the message: each ends where its input does.
    for (const b of all) expect(b.fieldBottom - b.inputBottom, b.name).toBeLessThanOrEqual(1);
    const { msg, set, mbs } = await tab.locator('trainplan-estimator').evaluate((el) => {
      const r = (e: Element) => { const b = e.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, width: b.width }; };
      const m = el.shadowRoot!.getElementById('m-mbs')!;
      const fieldset = m.closest('fieldset')!;
      return { msg: r(m), set: { ...r(fieldset), width: fieldset.clientWidth - 16 }, mbs: r(el.shadowRoot!.querySelector('[data-field=mbs]')!) };
    });
    expect(msg.width).toBeGreaterThanOrEqual(set.width - 1);
    expect(msg.top).toBeGreaterThanOrEqual(mbs.bottom);
    // Under the micro-batch's row, above the precision's.
    expect(msg.bottom).toBeLessThanOrEqual(at('precision').fieldTop);
    await tab.close();
  });
});
