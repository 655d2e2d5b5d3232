/// <reference lib="dom" />
import { main } from '@trainplan/cli';
import { daysText, runNodes, runSearch, type EstimateOk } from '@trainplan/protocol';
import { formatCount, formatSeconds } from '@trainplan/units';
import { scenarioFromHash } from '@trainplan/widget';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../src/ensure-chromium.ts';
import { decodePng, imageStats } from '../src/png.ts';
import { startServer, type Server } from '../src/server.ts';

type Estimator = HTMLElement & { estimate?: EstimateOk; scenario?: unknown };

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
});
afterAll(async () => {
  await browser?.close();
  server?.stop();
});

/** The CLI's answer for a scenario: `trainplan estimate --input - --json`, in-process. */
async function cli(scenario: unknown): Promise<EstimateOk> {
  let out = '';
  const code = await main(['estimate', '--input', '-', '--json'], {
    stdout: (s) => { out += s; }, stderr: () => undefined,
    readStdin: async () => JSON.stringify(scenario), readFile: async () => { throw new Error('no files'); },
  });
  const json = JSON.parse(out) as EstimateOk;
  expect(code).toBe(0);
  expect(json.ok).toBe(true);
  return json;
}

interface Opened { page: Page; context: BrowserContext; problems: string[] }

/** A fresh context on the demo page; every console error and uncaught page error is collected. */
async function open(path = '/', options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 1400 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${server.base}${path}`);
  await waitFor(page, 'el.estimate !== undefined');
  return { page, context, problems };
}

/** Waits until `condition` (an expression over `el`, the widget) holds in the page. */
async function waitFor(page: Page, condition: string): Promise<void> {
  await page.waitForFunction(`(() => { const el = document.querySelector('trainplan-estimator'); return !!el && (${condition}); })()`, undefined, { timeout: 15_000 });
}

const estimateOf = (page: Page) => page.locator('trainplan-estimator').evaluate((el) => (el as Estimator).estimate!);
const text = (page: Page, selector: string) => page.locator(`trainplan-estimator ${selector}`).first().innerText();

const CONTRACT_SCENARIO = {
  model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 },
  training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16', tokens: 300e9 },
  parallelism: { tensor: 8, pipeline: 8, virtualStages: 1, context: 1, sequenceParallel: false, recompute: 'full', distributedOptimizer: false },
};

describe('the demo page in Chromium', () => {
  it('shows the same numbers as the CLI for the scenario its attributes pin', async () => {
    const { page, context, problems } = await open();
    const [widget, expected] = [await estimateOf(page), await cli(CONTRACT_SCENARIO)];
    expect(Math.abs(widget.stepTimeSeconds / expected.stepTimeSeconds - 1)).toBeLessThan(1e-12);
    expect(Math.abs(widget.memory.totalBytes / expected.memory.totalBytes - 1)).toBeLessThan(1e-12);
    expect(await text(page, '[data-stat=step] b')).toBe(formatSeconds(expected.stepTimeSeconds));
    expect(await text(page, '[data-stat=tokens] b')).toBe(formatCount(expected.tokensPerSecond));
    expect(await text(page, '[data-stat=days] span')).toBe('to train 300 B tokens');
    expect(await text(page, '[data-stat=days] b')).toBe(daysText(expected.timeToTrain!.days));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('recomputes when the reader changes inputs, matching the CLI for the new scenario', async () => {
    const { page, context, problems } = await open();
    await page.getByLabel('Tensor (t)', { exact: true }).fill('4');
    await page.getByLabel('Pipeline (p)', { exact: true }).fill('16');
    await page.getByLabel('Virtual stages (v)', { exact: true }).fill('2');
    await page.getByLabel('Sequence parallel', { exact: true }).check();
    await waitFor(page, 'el.estimate.resolved.tensor === 4 && el.estimate.resolved.pipeline === 16 && el.estimate.resolved.virtualStages === 2 && el.estimate.resolved.sequenceParallel');
    const expected = await cli({ ...CONTRACT_SCENARIO, parallelism: { ...CONTRACT_SCENARIO.parallelism, tensor: 4, pipeline: 16, virtualStages: 2, sequenceParallel: true } });
    const widget = await estimateOf(page);
    expect(Math.abs(widget.stepTimeSeconds / expected.stepTimeSeconds - 1)).toBeLessThan(1e-12);
    expect(await text(page, '[data-stat=step] b')).toBe(formatSeconds(expected.stepTimeSeconds));
    expect(await text(page, '.out-pipeline .caption')).toContain('interleaved 1F1B, v = 2: p = 16');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers "how many nodes" with the fewest nodes the CLI says meet the deadline', async () => {
    const { page, context, problems } = await open();
    await waitFor(page, "el.shadowRoot.querySelector('.out-nodes [data-nodes]') !== null");
    const nodes = Number(await page.locator('trainplan-estimator .out-nodes [data-nodes]').getAttribute('data-nodes'));
    // t·p = 64 on 8-GPU nodes: d must divide 1536, so node counts are 8·d: …, 128, 192, 256, …
    const valid = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1536].map((d) => 8 * d);
    const at = async (n: number) => (await cli({ ...CONTRACT_SCENARIO, cluster: { gpu: 'a100-80gb', nodes: n } })).timeToTrain!.days;
    expect(valid).toContain(nodes);
    expect(await at(nodes)).toBeLessThanOrEqual(30);
    const smaller = valid[valid.indexOf(nodes) - 1]!;
    expect(await at(smaller)).toBeGreaterThan(30);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('"auto" runs the configuration search (runSearch, runNodes) and fills the knobs with its best plan', async () => {
    const { page, context, problems } = await open();
    await page.getByLabel('Auto: search the fastest', { exact: true }).check();
    await waitFor(page, "el.shadowRoot.querySelector('[data-searched-answer]') !== null");
    const machine = { model: 'gpt3-175b', training: { globalBatchSize: 1536, precision: 'bf16' } };
    const search = runSearch({ ...machine, cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { ...machine.training, tokens: 300e9 }, objective: 'throughput', top: 1 });
    if (!search.ok) throw new Error(search.message);
    expect(Math.abs((await estimateOf(page)).stepTimeSeconds / search.best.estimate.stepTimeSeconds - 1)).toBeLessThan(1e-12);
    const p = search.best.scenario.parallelism!;
    expect(await page.getByLabel('Tensor (t)', { exact: true }).inputValue()).toBe(String(p.tensor));
    expect(await page.getByLabel('Pipeline (p)', { exact: true }).inputValue()).toBe(String(p.pipeline));
    expect(await page.getByLabel('Virtual stages (v)', { exact: true }).inputValue()).toBe(String(p.virtualStages));
    // The estimate's advice is shown with it; the search keeps 5% of memory free, so it carries no tight-memory warning.
    expect(search.best.estimate.warnings.filter((w) => /^peak memory is/.test(w))).toEqual([]);
    expect(await page.locator('trainplan-estimator [data-warning]').allInnerTexts()).toEqual(search.best.estimate.warnings);
    const nodes = runNodes({ ...machine, cluster: { gpu: 'a100-80gb' }, tokens: 300e9, days: 30 });
    if (!nodes.ok) throw new Error(nodes.message);
    expect(await page.locator('trainplan-estimator [data-searched-nodes]').getAttribute('data-searched-nodes')).toBe(String(nodes.nodes));
    // The searched plan states its data parallelism; the scaling curve still lets it follow the nodes:
    // sizes other than the current one are drawn, and of the five or more sizes it tries, those the plan
    // cannot run (fewer nodes shard its optimizer less, and its memory grows past the GPU's) are named.
    const drawn = await page.locator('trainplan-estimator svg.scaling circle').count();
    expect(drawn).toBeGreaterThan(1);
    const notDrawn = (await page.locator('trainplan-estimator .out-scaling').innerText()).match(/\d+ nodes? \(/g) ?? [];
    expect(drawn + notDrawn.length).toBeGreaterThanOrEqual(5);
    // Editing a knob by hand hands control back to the reader.
    await page.getByLabel('Tensor (t)', { exact: true }).fill('8');
    await expect.poll(() => page.getByLabel('Auto: search the fastest', { exact: true }).isChecked()).toBe(false);
    // A plan the estimate has advice on shows it: tensor parallelism of 16 spans two 8-GPU nodes.
    await page.getByLabel('Tensor (t)', { exact: true }).fill('16');
    await expect.poll(() => page.locator('trainplan-estimator [data-warning]').allInnerTexts())
      .toContainEqual(expect.stringMatching(/^tensor parallelism of 16 spans nodes of 8 GPUs/));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws its pictures: each SVG screenshot has many colours, unlike a blank render', async () => {
    const { page, context, problems } = await open();
    await waitFor(page, "el.shadowRoot.querySelector('.out-scaling svg') !== null");
    const blank = await browser.newPage();
    await blank.setContent('<div id="b" style="width:320px;height:120px;background:#fff"></div>');
    const empty = imageStats(decodePng(await blank.locator('#b').screenshot()));
    await blank.close();
    expect(empty.colours).toBe(1);
    expect(empty.lumaVariance).toBeLessThan(1e-6);
    for (const chart of ['breakdown', 'memory', 'pipeline', 'scaling']) {
      const stats = imageStats(decodePng(await page.locator(`trainplan-estimator svg.${chart}`).screenshot()));
      expect(stats.colours, chart).toBeGreaterThan(4);
      expect(stats.lumaVariance, chart).toBeGreaterThan(100);
    }
    expect(await page.locator('trainplan-estimator svg.pipeline rect.op').count()).toBe(2 * 8 * 16); // p = 8, first 16 micro-batches drawn
    expect(await page.locator('trainplan-estimator svg.scaling circle').count()).toBeGreaterThanOrEqual(5);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('mirrors the scenario into the URL hash, and a link with that hash reproduces the view', async () => {
    const first = await open();
    await first.page.getByLabel('Pipeline (p)', { exact: true }).fill('16');
    await first.page.getByLabel('Micro-batch', { exact: true }).fill('2');
    await waitFor(first.page, 'el.estimate.resolved.pipeline === 16 && el.estimate.resolved.microBatchSize === 2');
    const hash = await first.page.evaluate(() => window.location.hash);
    const scenario = scenarioFromHash(hash) as typeof CONTRACT_SCENARIO;
    expect(scenario).toEqual({ ...CONTRACT_SCENARIO, training: { ...CONTRACT_SCENARIO.training, microBatchSize: 2 }, parallelism: { ...CONTRACT_SCENARIO.parallelism, pipeline: 16 } });
    const before = await estimateOf(first.page);
    const second = await open(`/${hash}`);
    expect(await second.page.getByLabel('Pipeline (p)', { exact: true }).inputValue()).toBe('16');
    expect(await second.page.getByLabel('Micro-batch', { exact: true }).inputValue()).toBe('2');
    expect((await estimateOf(second.page)).stepTimeSeconds).toBe(before.stepTimeSeconds);
    expect([...first.problems, ...second.problems]).toEqual([]);
    await first.context.close();
    await second.context.close();
  });

  it('"Link to this scenario" carries the "how many nodes" budget: a deadline, and a budget left blank', async () => {
    const first = await open();
    await first.page.getByLabel('Token budget', { exact: true }).fill('2T');
    await first.page.getByLabel('Deadline (days)', { exact: true }).fill('45');
    await waitFor(first.page, "el.estimate.timeToTrain?.tokens === 2e12 && /within the 45-day deadline/.test(el.shadowRoot.querySelector('.out-nodes').textContent)");
    const answer = await text(first.page, '.out-nodes');
    const link = new URL((await first.page.locator('trainplan-estimator .share-link').getAttribute('href'))!);
    const second = await open(link.hash ? `/${link.hash}` : '/');
    expect(await second.page.getByLabel('Deadline (days)', { exact: true }).inputValue()).toBe('45');
    await waitFor(second.page, "el.shadowRoot.querySelector('.out-nodes [data-nodes]') !== null");
    expect(await text(second.page, '.out-nodes')).toBe(answer);
    // A reader who clears the budget shares a link without one: it opens blank, not with the page's 300B.
    await second.page.getByLabel('Token budget', { exact: true }).fill('');
    await waitFor(second.page, 'el.estimate.timeToTrain === undefined');
    const blank = new URL((await second.page.locator('trainplan-estimator .share-link').getAttribute('href'))!);
    const third = await open(`/${blank.hash}`);
    expect(await third.page.getByLabel('Token budget', { exact: true }).inputValue()).toBe('');
    expect((await estimateOf(third.page)).timeToTrain).toBeUndefined();
    expect(await text(third.page, '.out-nodes')).toContain('Give a token budget and a deadline');
    expect([...first.problems, ...second.problems, ...third.problems]).toEqual([]);
    for (const o of [first, second, third]) await o.context.close();
  });

  it('opens a link built by another tool (#scenario= + URI-encoded JSON) with a custom model shape', async () => {
    const scenario = {
      model: { layers: 32, hiddenSize: 4096, attentionHeads: 32, kvHeads: 8, ffnHiddenSize: 14336, vocabSize: 128256, seqLength: 8192, gatedMlp: true, tiedEmbeddings: false, name: 'custom' },
      cluster: { gpu: 'h100-sxm', nodes: 4 },
      training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
      parallelism: { tensor: 2, pipeline: 2, context: 1, virtualStages: 1, recompute: 'selective', sequenceParallel: true, distributedOptimizer: true },
    };
    const { page, context, problems } = await open(`/#scenario=${encodeURIComponent(JSON.stringify(scenario))}`);
    await waitFor(page, "el.estimate.resolved.gpu === 'h100-sxm'");
    // The estimator's: the demo page's <trainplan-serving> below has a Model field too, and custom shape fields (hidden).
    const estimator = page.locator('trainplan-estimator');
    expect(await estimator.getByLabel('Model', { exact: true }).inputValue()).toBe('custom');
    expect(await estimator.getByLabel('KV heads', { exact: true }).inputValue()).toBe('8');
    // The form has no tiedEmbeddings field; the widget keeps it from the link, so it answers as the CLI does.
    const expected = await cli(scenario);
    expect(Math.abs((await estimateOf(page)).stepTimeSeconds / expected.stepTimeSeconds - 1)).toBeLessThan(1e-12);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works offline: no request leaves the page after it loaded, even with the network cut', async () => {
    const context = await browser.newContext();
    const requests: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(`${route.request().method()} ${url}`);
      const allowed = url.startsWith(`${server.base}/`) && (new URL(url).pathname === '/' || url.includes('/widget/trainplan-widget.js'));
      return allowed ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.base}/`);
    await waitFor(page, "el.shadowRoot.querySelector('.out-nodes [data-nodes]') !== null");
    const loaded = requests.length;
    await context.setOffline(true);
    await page.getByLabel('Nodes', { exact: true }).fill('64');
    await page.getByLabel('Global batch (sequences)', { exact: true }).fill('768');
    await waitFor(page, 'el.estimate.resolved.nodes === 64 && el.estimate.resolved.globalBatchSize === 768');
    expect(requests.slice(loaded)).toEqual([]);
    expect(requests.map((r) => new URL(r.split(' ')[1]!).pathname).sort()).toEqual(['/', '/widget/trainplan-widget.js']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with api="…" asks the API instead (POST /v1/estimate), with the same numbers', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST') posts.push(new URL(r.url()).pathname); });
    await page.route(`${server.base}/embed-test`, (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><link rel="icon" href="data:,"><script type="module" src="/widget/trainplan-widget.js"></script>
<trainplan-estimator api="${server.base}" model="gpt3-1.3b" gpu="h100-sxm" nodes="2" tp="1" pp="1" gbs="512" mbs="4" recompute="none"></trainplan-estimator>`,
    }));
    await page.goto(`${server.base}/embed-test`);
    await waitFor(page, "el.estimate !== undefined && el.shadowRoot.querySelector('.out-scaling svg') !== null");
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts)).toEqual(new Set(['/v1/estimate']));
    const expected = await cli({ model: 'gpt3-1.3b', cluster: { gpu: 'h100-sxm', nodes: 2 }, training: { globalBatchSize: 512, microBatchSize: 4, tokens: 300e9 }, parallelism: { recompute: 'none' } });
    expect(Math.abs((await estimateOf(page)).stepTimeSeconds / expected.stepTimeSeconds - 1)).toBeLessThan(1e-12);
    await context.close();
  });

  it('shows bad input beside the field and keeps the last good result, never throwing into the page', async () => {
    const { page, context, problems } = await open();
    const good = await estimateOf(page);
    const goodStep = await text(page, '[data-stat=step] b');
    const tp = page.getByLabel('Tensor (t)', { exact: true });
    const message = page.locator('trainplan-estimator #m-tp');
    for (const [value, says] of [['abc', 'not a number'], ['0', 'at least 1'], ['3', 'not divisible by tensor × pipeline × context']] as const) {
      await tp.fill(value);
      await expect.poll(() => message.innerText(), { timeout: 10_000 }).toContain(says);
      expect(await tp.getAttribute('aria-invalid')).toBe('true');
      expect(await text(page, '[data-stat=step] b')).toBe(goodStep);
      expect((await estimateOf(page)).stepTimeSeconds).toBe(good.stepTimeSeconds);
      expect(await text(page, '.status')).toContain('last good result');
    }
    // Out of memory: no recompute with micro-batch 8 does not fit 80 GB; the message sits by the micro-batch.
    await tp.fill('8');
    await page.getByLabel('Recompute', { exact: true }).selectOption('none');
    await page.getByLabel('Micro-batch', { exact: true }).fill('8');
    await expect.poll(() => page.locator('trainplan-estimator #m-mbs').innerText(), { timeout: 10_000 }).toContain('out of memory');
    expect((await estimateOf(page)).stepTimeSeconds).toBe(good.stepTimeSeconds);
    await page.getByLabel('Micro-batch', { exact: true }).fill('1');
    await page.getByLabel('Recompute', { exact: true }).selectOption('full');
    await expect.poll(() => page.locator('trainplan-estimator #m-mbs').innerText()).toBe('');
    expect(await tp.getAttribute('aria-invalid')).toBeNull();
    // A broken link and a hostile attribute are messages too, not exceptions.
    await page.evaluate(() => { document.querySelector('trainplan-estimator')!.setAttribute('gpu', '<img src=x onerror=alert(1)>'); });
    await expect.poll(() => page.locator('trainplan-estimator #m-gpu').innerText()).toContain('unknown gpu');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is usable by keyboard with a label on every control', async () => {
    const { page, context, problems } = await open();
    const unlabelled = await page.locator('trainplan-estimator').evaluate((el) => [...el.shadowRoot!.querySelectorAll('input, select')]
      .filter((c) => !el.shadowRoot!.querySelector(`label[for="${c.id}"]`)).map((c) => c.id));
    expect(unlabelled).toEqual([]);
    await page.getByLabel('Tensor (t)', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.locator('trainplan-estimator').evaluate((el) => (el.shadowRoot!.activeElement as HTMLInputElement).name)).toBe('pp');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('16');
    await waitFor(page, 'el.estimate.resolved.pipeline === 16');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("draws its charts' text at a readable size on a phone (390 px) and on a desktop (1300 px)", async () => {
    for (const width of [390, 1300]) {
      const { page, context, problems } = await open('/', { viewport: { width, height: 900 } });
      await waitFor(page, "el.shadowRoot.querySelector('.out-scaling svg') !== null");
      // The size a reader sees: the font size times the SVG's scale from its viewBox to the screen.
      const sizes = await page.locator('trainplan-estimator').evaluate((el) => [...el.shadowRoot!.querySelectorAll<SVGTextElement>('svg text')]
        .map((t) => ({ chart: t.closest('svg')!.getAttribute('class'), px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a })));
      expect(sizes.filter((s) => s.chart?.includes('pipeline')).length, `${width} px`).toBeGreaterThan(8);
      const smallest = Math.min(...sizes.map((s) => s.px));
      expect(sizes.filter((s) => s.px < 8).map((s) => `${s.chart}: ${s.px.toFixed(1)} px`), `${width} px`).toEqual([]);
      expect(smallest).toBeGreaterThanOrEqual(8);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('fits a 360 px column without horizontal overflow, and follows the dark colour scheme', async () => {
    const narrow = await open('/', { viewport: { width: 360, height: 900 }, colorScheme: 'dark' });
    const sizes = await narrow.page.locator('trainplan-estimator').evaluate((el) => {
      const root = el.shadowRoot!.querySelector('.tp') as HTMLElement;
      return { host: el.getBoundingClientRect().width, inner: root.scrollWidth, doc: document.documentElement.scrollWidth, bg: getComputedStyle(el).backgroundColor };
    });
    expect(sizes.host).toBeLessThanOrEqual(360);
    expect(sizes.inner).toBeLessThanOrEqual(Math.ceil(sizes.host));
    expect(sizes.doc).toBeLessThanOrEqual(360);
    const luma = (css: string) => { const [r, g, b] = css.match(/\d+/g)!.map(Number); return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!; };
    expect(luma(sizes.bg)).toBeLessThan(60);
    const light = await open('/', { colorScheme: 'light' });
    expect(luma(await light.page.locator('trainplan-estimator').evaluate((el) => getComputedStyle(el).backgroundColor))).toBeGreaterThan(200);
    expect([...narrow.problems, ...light.problems]).toEqual([]);
    await narrow.context.close();
    await light.context.close();
  });
});
