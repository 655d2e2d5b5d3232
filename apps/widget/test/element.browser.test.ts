/// <reference lib="dom" />
// The element in a real browser (Debian's chromium, driven by playwright-core; never a downloaded one):
// the widget's module is bundled in-process and served with the pages below through request routing, so
// no server or port is needed. It runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup
// installs chromium on a fresh CI machine.
import { runEstimate, type EstimateOk } from '@trainplan/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems, routeToApi } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';
import { scenarioFromHash } from '../src/hash.ts';


const ORIGIN = 'http://widget.test';
/** A host page with nothing inline, so it runs under a strict CSP too. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title>
<script type="module" src="/w.js"></script></head><body>
<trainplan-estimator sync-hash model="gpt3-175b" gpu="a100-80gb" nodes="128" tp="8" pp="8" gbs="1536" mbs="1" recompute="full"></trainplan-estimator>
</body></html>`;
const STRICT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:";

type Estimator = HTMLElement & { estimate?: EstimateOk; scenario?: unknown };
const { browser, bundle } = browserAndBundle();

interface Opened { page: Page; context: BrowserContext; problems: string[]; requests: string[] }

/** Opens the page and waits for `options.until` (an expression over `el`, the widget; default: a first estimate). */
async function open(hash = '', options: { csp?: string; until?: string | null; viewport?: { width: number; height: number } } = {}): Promise<Opened> {
  const context = await browser().newContext(options.viewport ? { viewport: options.viewport } : {});
  const requests: string[] = [];
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    requests.push(path);
    const headers: Record<string, string> = options.csp ? { 'content-security-policy': options.csp } : {};
    if (path === '/w.js') return route.fulfill({ contentType: 'text/javascript', body: bundle(), headers });
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: PAGE, headers });
    return route.fulfill({ status: 404, body: 'not found' });
  });
  const page = await context.newPage();
  const problems = pageProblems(page);
  await page.goto(`${ORIGIN}/${hash}`);
  // null: no wait (a page whose CSP refuses string evaluation, as waitForFunction's condition is, when the element cannot render)
  if (options.until !== null) await waitFor(page, options.until ?? 'el.estimate !== undefined');
  return { page, context, problems, requests };
}

async function waitFor(page: Page, condition: string): Promise<void> {
  await page.waitForFunction(`(() => { const el = document.querySelector('trainplan-estimator'); return !!el && (${condition}); })()`, undefined, { timeout: 15_000 });
}
const link = (scenario: unknown) => `#scenario=${encodeURIComponent(JSON.stringify(scenario))}`;
const estimateOf = (page: Page) => page.locator('trainplan-estimator').evaluate((el) => (el as Estimator).estimate!);
const shown = (page: Page, selector: string) => page.locator(`trainplan-estimator ${selector}`).first().innerText();
const hashOf = (page: Page) => page.evaluate(() => window.location.hash);
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
/** Time for the debounced estimate (and any hash write) after an edit to have happened. */
const settle = (page: Page) => page.waitForTimeout(600);

describe('<trainplan-estimator> opening shared links, in Chromium', () => {
  it('a cluster.gpus link gets the nodes the API resolves: 4 A100s are 1 node of 4 (1.718 s), not 1 of 8', async () => {
    const scenario = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-40gb', gpus: 4 }, training: { globalBatchSize: 64 } };
    const { page, context, problems } = await open(link(scenario));
    await waitFor(page, "el.estimate.resolved.gpu === 'a100-40gb'");
    expect(await field(page, 'Nodes').inputValue()).toBe('1');
    expect(await field(page, 'GPUs per node').inputValue()).toBe('4');
    const api = runEstimate(scenario) as EstimateOk;
    const widget = await estimateOf(page);
    expect([widget.resolved.nodes, widget.resolved.gpusPerNode]).toEqual([1, 4]);
    expect(widget.stepTimeSeconds).toBe(api.stepTimeSeconds);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps the link's fields the form cannot show, says so, answers as the API, and shares them on", async () => {
    const scenario = {
      model: { layers: 24, hiddenSize: 2048, attentionHeads: 16, vocabSize: 51200, seqLength: 2048, tiedEmbeddings: false },
      cluster: { gpu: 'a100-80gb', nodes: 2 },
      training: { globalBatchSize: 64, precision: 'bf16', dropout: false, attentionKernel: 'unfused' },
      parallelism: { tensor: 2, pipeline: 2, zeroStage: 1, overlapGradReduce: true },
    };
    const { page, context, problems } = await open(link(scenario));
    await waitFor(page, "el.estimate.resolved.gpu === 'a100-80gb' && el.estimate.resolved.nodes === 2");
    const api = runEstimate(scenario) as EstimateOk;
    expect(api.ok).toBe(true);
    expect((await estimateOf(page)).stepTimeSeconds).toBe(api.stepTimeSeconds);
    expect((await estimateOf(page)).memory).toEqual(api.memory);
    const note = await shown(page, '.note');
    for (const part of ['From the link, not editable here:', 'tiedEmbeddings false', 'dropout false', 'attentionKernel unfused', 'zeroStage 1', 'overlapGradReduce true']) expect(note).toContain(part);
    // The hash written back still carries them.
    const shared = scenarioFromHash(await hashOf(page)) as typeof scenario;
    expect(shared.model.tiedEmbeddings).toBe(false);
    expect(shared.parallelism.zeroStage).toBe(1);
    expect(shared.training.dropout).toBe(false);
    // An edit that does not conflict keeps them; ticking the distributed optimizer drops ZeRO, and says so.
    await field(page, 'Global batch (sequences)').fill('128');
    await waitFor(page, 'el.estimate.resolved.globalBatchSize === 128');
    expect((await estimateOf(page)).stepTimeSeconds).toBe((runEstimate({ ...scenario, training: { ...scenario.training, globalBatchSize: 128 } }) as EstimateOk).stepTimeSeconds);
    await field(page, 'Distributed optimizer').check();
    await waitFor(page, 'el.estimate.resolved.distributedOptimizer === true');
    await expect.poll(() => shown(page, '.note')).toContain('Dropped from the link (Distributed optimizer changed): zeroStage 1');
    expect(await shown(page, '.note')).toContain('tiedEmbeddings false');
    await settle(page);
    expect((scenarioFromHash(await hashOf(page)) as typeof scenario).parallelism.zeroStage).toBeUndefined();
    // Leaving the custom shape for a preset drops the shape's own fields, and says so.
    await field(page, 'Model').selectOption('gpt3-1.3b');
    await expect.poll(() => shown(page, '.note')).toMatch(/Dropped from the link \(the model is no longer the link's custom shape\): tiedEmbeddings false/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a V100 link without precision takes fp16 as the API does; switching the GPU to V100 switches bf16 to fp16 and says so", async () => {
    const scenario = { model: 'gpt3-350m', cluster: { gpu: 'v100-32gb', nodes: 1 }, training: { globalBatchSize: 64 } };
    const v100 = await open(link(scenario));
    await waitFor(v100.page, "el.estimate.resolved.gpu === 'v100-32gb'");
    expect(await field(v100.page, 'Precision').inputValue()).toBe('fp16');
    expect((await estimateOf(v100.page)).stepTimeSeconds).toBe((runEstimate(scenario) as EstimateOk).stepTimeSeconds);
    expect(await shown(v100.page, '.status')).toBe('');
    await v100.context.close();

    const { page, context, problems } = await open();
    await field(page, 'GPU').selectOption('v100-32gb');
    await expect.poll(() => field(page, 'Precision').inputValue()).toBe('fp16');
    await settle(page);
    // GPT-3 175B does not fit 32 GB V100s at this plan: the answer is "out of memory", not the precision.
    expect(await shown(page, '#m-mbs')).toContain('out of memory');
    expect(await page.locator('trainplan-estimator #m-precision').innerText()).toBe('');
    expect(await shown(page, '.note')).toMatch(/V100.* has no BF16 tensor cores: precision switched from bf16 to fp16/);
    await field(page, 'GPU').selectOption('h100-sxm');
    await waitFor(page, "el.estimate.resolved.gpu === 'h100-sxm'");
    expect(await field(page, 'Precision').inputValue()).toBe('bf16');
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [name, hash, says] of [
    ['an unreadable link', '#scenario=%7Bbad', "The link's scenario could not be read"],
    ['an invalid link', link({ model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 64 } }), "The link's scenario is not valid (cluster.nodes"],
  ] as const) {
    it(`${name} keeps its message and the reader's URL until the reader edits a field`, async () => {
      const { page, context, problems } = await open(hash);
      await waitFor(page, "el.shadowRoot.querySelector('.out-scaling svg') !== null");
      await settle(page);
      expect(await shown(page, '.status')).toContain(says);
      expect(await hashOf(page)).toBe(hash);
      await field(page, 'Pipeline (p)').fill('16');
      await waitFor(page, 'el.estimate.resolved.pipeline === 16');
      await settle(page);
      expect(await shown(page, '.status')).toBe('');
      expect((scenarioFromHash(await hashOf(page)) as { parallelism: { pipeline: number } }).parallelism.pipeline).toBe(16);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('a link opened while Auto is on shows the plan the link states: Auto goes off, not a search that replaces the plan', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Auto: search the fastest').check();
    // The search runs in a worker (compute/off-thread.ts), which the first search starts: more than the poll's default second.
    await expect.poll(() => shown(page, '.out-search'), { timeout: 10_000 }).toContain('Searched');
    const scenario = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb', nodes: 2 }, training: { globalBatchSize: 64 }, parallelism: { tensor: 2, pipeline: 2 } };
    await page.evaluate((hash) => { window.location.hash = hash; }, link(scenario));
    await waitFor(page, "el.estimate.resolved.model === 'gpt3-1.3b'");
    await settle(page);
    const e = await estimateOf(page);
    expect([e.resolved.tensor, e.resolved.pipeline]).toEqual([2, 2]);
    expect(e.stepTimeSeconds).toBe((runEstimate(scenario) as EstimateOk).stepTimeSeconds);
    expect(await field(page, 'Auto: search the fastest').isChecked()).toBe(false);
    expect(await shown(page, '.out-search')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("is styled under a strict CSP (style-src 'self'), with no violation reported", async () => {
    const { page, context, problems } = await open('', { csp: STRICT_CSP });
    const css = await page.locator('trainplan-estimator').evaluate((el) => {
      const s = getComputedStyle(el);
      const op = el.shadowRoot!.querySelector('svg.pipeline rect.op');
      return { border: s.borderTopStyle, padding: s.paddingTop, display: s.display, opFill: op ? getComputedStyle(op).fill : '' };
    });
    expect(css).toEqual({ border: 'solid', padding: '12px', display: 'block', opFill: expect.stringMatching(/^rgb\(/) });
    expect(css.opFill).not.toBe('rgb(0, 0, 0)');
    expect(problems).toEqual([]);
    await context.close();
  });

  // A page enforcing Trusted Types (w3c.github.io/trusted-types): innerHTML and new Worker refuse plain strings, so
  // without the widget's policy the element would throw at its first render and every search would run in the page.
  it('renders and searches in its worker under Trusted Types (require-trusted-types-for \'script\'), with no violation', async () => {
    const csp = `${STRICT_CSP}; require-trusted-types-for 'script'; trusted-types trainplan-widget`;
    const { page, context, problems, requests } = await open('', { csp });
    expect(await page.locator('trainplan-estimator').evaluate((el) => el.shadowRoot!.querySelectorAll('svg.pipeline rect.op').length)).toBeGreaterThan(0);
    await field(page, 'Auto: search the fastest').check();
    await expect.poll(() => shown(page, '.out-search'), { timeout: 10_000 }).toContain('Searched');
    // The worker loaded the module a second time (same origin: its own URL): in the page, no second request.
    expect(requests.filter((path) => path === '/w.js')).toHaveLength(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('under Trusted Types without its policy listed, the box says what to add to the CSP instead of staying empty', async () => {
    const csp = `${STRICT_CSP}; require-trusted-types-for 'script'; trusted-types other`;
    const { page, context, problems } = await open('', { csp, until: null });
    const said = () => page.locator('trainplan-estimator').evaluate((el) => el.shadowRoot?.textContent ?? '');
    await expect.poll(said, { timeout: 10_000 }).toContain('list trainplan-widget in its trusted-types directive');
    // The refusal still reaches the console, for the page's developer.
    expect(problems.join('\n')).toMatch(/TrustedType|trusted/i);
    await context.close();
  });

  it('paints each series in its default colour, or the page\'s --trainplan-* one, in the bar and its legend swatch alike', async () => {
    const { page, context } = await open();
    const paint = () => page.locator('trainplan-estimator').evaluate((el) => {
      const q = (s: string) => getComputedStyle(el.shadowRoot!.querySelector(s)!);
      return {
        computeBar: q('rect.seg-compute').fill, computeSwatch: q('.swatch.seg-compute').backgroundColor,
        weightsBar: q('rect.mem-weights').fill, weightsSwatch: q('.swatch.mem-weights').backgroundColor,
      };
    });
    // styles.ts: compute and weights default to #2563eb, rgb(37, 99, 235).
    const blue = 'rgb(37, 99, 235)';
    expect(await paint()).toEqual({ computeBar: blue, computeSwatch: blue, weightsBar: blue, weightsSwatch: blue });
    await page.locator('trainplan-estimator').evaluate((el) => { el.style.setProperty('--trainplan-compute', 'rgb(1, 2, 3)'); });
    expect(await paint()).toEqual({ computeBar: 'rgb(1, 2, 3)', computeSwatch: 'rgb(1, 2, 3)', weightsBar: blue, weightsSwatch: blue });
    await context.close();
  });
});

describe('<trainplan-estimator> opening an infeasible scenario, in Chromium', () => {
  it('says out of memory (a typo is "Fix the marked field."), with no empty result headings until a scenario runs, then the results', async () => {
    const scenario = {
      model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 },
      training: { globalBatchSize: 1536, microBatchSize: 8 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'none' },
    };
    const { page, context, problems } = await open(link(scenario), { until: "/out of memory/.test(el.shadowRoot.getElementById('m-mbs').textContent)" });
    const headings = page.locator('trainplan-estimator h3');
    expect(await headings.count()).toBe(5);
    for (const h of await headings.all()) expect(await h.isVisible()).toBe(false);
    expect(await page.locator('trainplan-estimator .share-link').isVisible()).toBe(false);
    // Not a typing mistake: the status says what happened, and the marked field lists what to try.
    expect(await shown(page, '.status')).toBe('Out of memory: see the marked field for what to try.');
    await field(page, 'Micro-batch').fill('abc');
    await expect.poll(() => shown(page, '#m-mbs')).toContain('not a number');
    expect(await shown(page, '.status')).toBe('Fix the marked field.');
    await field(page, 'Micro-batch').fill('1');
    await field(page, 'Recompute').selectOption('full');
    await waitFor(page, 'el.estimate !== undefined');
    await expect.poll(() => headings.first().isVisible()).toBe(true);
    expect(await page.locator('trainplan-estimator .share-link').isVisible()).toBe(true);
    expect(await shown(page, '.status')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<trainplan-estimator> opening a model no split of its GPUs holds, in Chromium', () => {
  it('QA link (GPT-3 175B on one DGX A100): names more nodes and how many, not levers that fit nothing there', async () => {
    const scenario = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 1536 } };
    const { page, context, problems } = await open(link(scenario), { until: "/out of memory/.test(el.shadowRoot.getElementById('m-mbs').textContent)" });
    const message = await shown(page, '#m-mbs');
    expect(message).toMatch(/^out of memory \(needs .+ of 80\.0 GiB per GPU; .+\): try more nodes \(the model states alone need at least 5\)$/);
    expect(message).not.toContain('recompute');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<trainplan-estimator> with an issue about several fields, in Chromium', () => {
  it('says "t × p × c does not divide the GPUs" beside the nodes and beside t (once per fieldset), marks the nodes, t, p and c, and clears them all once fixed', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Pipeline (p)').fill('3');
    await expect.poll(() => shown(page, '#m-tp'), { timeout: 10_000 }).toContain('not divisible by tensor × pipeline × context');
    const marks = () => page.locator('trainplan-estimator').evaluate((el) => Object.fromEntries(['nodes', 'tp', 'pp', 'vp', 'cp', 'gbs'].map((name) => {
      const input = el.shadowRoot!.getElementById(`f-${name}`)!;
      const msg = el.shadowRoot!.getElementById(`m-${name}`)!;
      return [name, { invalid: input.getAttribute('aria-invalid'), points: input.getAttribute('aria-errormessage'), says: msg.textContent, shown: msg.offsetHeight > 0 }];
    })));
    const message = await shown(page, '#m-tp');
    expect(await marks()).toEqual({
      nodes: { invalid: 'true', points: null, says: message, shown: true },
      tp: { invalid: 'true', points: null, says: message, shown: true },
      pp: { invalid: 'true', points: 'm-tp', says: '', shown: false },
      vp: { invalid: null, points: null, says: '', shown: false },
      cp: { invalid: 'true', points: 'm-tp', says: '', shown: false },
      gbs: { invalid: null, points: null, says: '', shown: false },
    });
    expect(await shown(page, '.status')).toBe('Fix the marked fields. Showing the last good result.');
    await field(page, 'Pipeline (p)').fill('16');
    await waitFor(page, 'el.estimate.resolved.pipeline === 16');
    for (const mark of Object.values(await marks())) expect(mark).toEqual({ invalid: null, points: null, says: '', shown: false });
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * Each named field's mark: aria-invalid, the message it points to (aria-errormessage), its own message and whether that
 * shows (takes room: an empty message is there for screen readers, of no height).
 */
function marksOf(page: Page, names: readonly string[]) {
  return page.locator('trainplan-estimator').evaluate((el, fields) => Object.fromEntries(fields.map((name) => {
    const input = el.shadowRoot!.getElementById(`f-${name}`)!;
    const msg = el.shadowRoot!.getElementById(`m-${name}`)!;
    return [name, { invalid: input.getAttribute('aria-invalid'), points: input.getAttribute('aria-errormessage'), says: msg.textContent, shown: msg.offsetHeight > 0 }];
  })), names);
}

/** A field marked and saying the message (`says`), marked and pointing to another's (`points`), or not marked. */
const saying = (message: string) => ({ invalid: 'true', points: null, says: message, shown: true });
const pointing = (to: string) => ({ invalid: 'true', points: `m-${to}`, says: '', shown: false });
const UNMARKED = { invalid: null, points: null, says: '', shown: false };
const MARKED_FIELDS = ['nodes', 'gbs', 'mbs', 'tp', 'pp', 'vp', 'cp'] as const;

describe('<trainplan-estimator> with a batch or schedule issue about several fields, in Chromium', () => {
  it('says "global batch is not a multiple of micro-batch × data-parallel" beside the global batch, the nodes and t, marks the micro-batch, p and c too, and clears them all once fixed (1,000 over 16 ranks)', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Global batch (sequences)').fill('1000');
    await expect.poll(() => shown(page, '#m-gbs'), { timeout: 10_000 }).toContain('is not a multiple of micro-batch × data-parallel');
    const message = await shown(page, '#m-gbs');
    expect(await marksOf(page, MARKED_FIELDS)).toEqual({
      nodes: saying(message), gbs: saying(message), mbs: pointing('gbs'), tp: saying(message), pp: pointing('tp'), vp: UNMARKED, cp: pointing('tp'),
    });
    expect(await shown(page, '.status')).toBe('Fix the marked fields. Showing the last good result.');
    await field(page, 'Global batch (sequences)').fill('1024');
    await waitFor(page, 'el.estimate.resolved.globalBatchSize === 1024');
    for (const mark of Object.values(await marksOf(page, MARKED_FIELDS))) expect(mark).toEqual(UNMARKED);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says "the interleaved schedule needs the micro-batches per step in whole rounds" beside v, the global batch and the nodes, marks p, t, c and the micro-batch too, and clears them all once fixed (65 micro-batches over 8 stages)', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Global batch (sequences)').fill('1040');
    await waitFor(page, 'el.estimate.resolved.globalBatchSize === 1040');
    await field(page, 'Virtual stages (v)').fill('2');
    await expect.poll(() => shown(page, '#m-vp'), { timeout: 10_000 }).toContain('in whole rounds of the 8 pipeline stages');
    const message = await shown(page, '#m-vp');
    expect(await marksOf(page, MARKED_FIELDS)).toEqual({
      nodes: saying(message), gbs: saying(message), mbs: pointing('gbs'), tp: pointing('vp'), pp: pointing('vp'), vp: saying(message), cp: pointing('vp'),
    });
    expect(await shown(page, '.status')).toBe('Fix the marked fields. Showing the last good result.');
    await field(page, 'Global batch (sequences)').fill('1024');
    await waitFor(page, 'el.estimate.resolved.globalBatchSize === 1024 && el.estimate.resolved.virtualStages === 2');
    for (const mark of Object.values(await marksOf(page, MARKED_FIELDS))) expect(mark).toEqual(UNMARKED);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<trainplan-estimator> after Auto and GPU changes, in Chromium', () => {
  it('Auto leaves the blank network and GPUs per node blank: unticked, a GB200 and then an H100 estimate on their own defaults', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Auto: search the fastest').check();
    await expect.poll(() => shown(page, '.out-search')).toContain('Searched');
    expect(await field(page, 'Network').inputValue()).toBe('');
    expect(await field(page, 'GPUs per node').inputValue()).toBe('');
    await field(page, 'Auto: search the fastest').uncheck();
    await field(page, 'GPU').selectOption('gb200');
    await waitFor(page, "el.estimate.resolved.gpu === 'gb200'");
    expect((await estimateOf(page)).resolved.gpusPerNode).toBe(4);
    await field(page, 'GPU').selectOption('h100-sxm');
    await waitFor(page, "el.estimate.resolved.gpu === 'h100-sxm'");
    const e = await estimateOf(page);
    const form = { ...(scenarioFromHash(await hashOf(page)) as { cluster: object }) };
    expect(e.stepTimeSeconds).toBe((runEstimate(form as never) as EstimateOk).stepTimeSeconds);
    expect(form.cluster).toEqual({ gpu: 'h100-sxm', nodes: 128 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("sets the network back to the GPU's default, with a note, when the new GPU cannot use it (nvl72 under an H100)", async () => {
    const { page, context, problems } = await open();
    await field(page, 'GPU').selectOption('gb200');
    await field(page, 'Network').selectOption('nvl72');
    await waitFor(page, "el.estimate.resolved.network === 'nvl72'");
    await field(page, 'GPU').selectOption('h100-sxm');
    await waitFor(page, "el.estimate.resolved.gpu === 'h100-sxm'");
    expect(await field(page, 'Network').inputValue()).toBe('');
    expect(await shown(page, '.note')).toMatch(/^Network back to the GPU's default: nvl72 is the NVLink domain of /);
    expect(await shown(page, '.status')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('brings the network back, with a note, when the arrow keys step on to a GPU it serves (gb200 → b200 → gb200), as the precision comes back', async () => {
    const { page, context, problems } = await open();
    await field(page, 'GPU').selectOption('gb200');
    await field(page, 'Network').selectOption('nvl72');
    await waitFor(page, "el.estimate.resolved.network === 'nvl72'");
    // The GPU's options in the form's order: b200 comes just before gb200, so ↑ and ↓ step to it and back.
    const gpus = await field(page, 'GPU').evaluate((s) => [...(s as HTMLSelectElement).options].map((o) => o.value));
    expect(gpus.indexOf('gb200') - gpus.indexOf('b200')).toBe(1);
    await field(page, 'GPU').focus();
    await page.keyboard.press('ArrowUp');
    await waitFor(page, "el.estimate.resolved.gpu === 'b200'");
    expect(await field(page, 'Network').inputValue()).toBe('');
    expect(await shown(page, '.note')).toMatch(/^Network back to the GPU's default: nvl72 /);
    await page.keyboard.press('ArrowDown');
    await waitFor(page, "el.estimate.resolved.gpu === 'gb200'");
    expect(await field(page, 'Network').inputValue()).toBe('nvl72');
    expect(await shown(page, '.note')).toMatch(/^Network back to nvl72 on .*GB200/);
    await waitFor(page, "el.estimate.resolved.network === 'nvl72'");
    // Once the reader picks a network, it is theirs: the GPU stepping back to one nvl72 serves does not bring it back.
    await page.keyboard.press('ArrowUp');
    await waitFor(page, "el.estimate.resolved.gpu === 'b200'");
    await field(page, 'Network').selectOption('ndr-ib-8x');
    await waitFor(page, "el.estimate.resolved.network === 'ndr-ib-8x'");
    await field(page, 'GPU').selectOption('gb200');
    await waitFor(page, "el.estimate.resolved.gpu === 'gb200'");
    expect(await field(page, 'Network').inputValue()).toBe('ndr-ib-8x');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<trainplan-estimator> while the form shows an error, in Chromium', () => {
  it('links to the form as shown (the hash too) and marks the last good results stale, until the form is fixed', async () => {
    const { page, context, problems } = await open();
    const results = page.locator('trainplan-estimator .results');
    // Stale, the results are outlined (dashed) under their note, at full strength: dimmed, their text fell under 4.5:1 (QA).
    const stale = () => results.evaluate((el) => ({
      stale: el.classList.contains('stale'), note: (el.querySelector('.stale-note') as HTMLElement).offsetParent !== null,
      outline: getComputedStyle(el).outlineStyle, opacity: getComputedStyle(el.querySelector('.headline')!).opacity,
    }));
    expect(await stale()).toEqual({ stale: false, note: false, outline: 'none', opacity: '1' });
    await field(page, 'Pipeline (p)').fill('3');
    await expect.poll(() => shown(page, '#m-tp')).toContain('not divisible');
    await settle(page);
    expect(await stale()).toEqual({ stale: true, note: true, outline: 'dashed', opacity: '1' });
    expect(await shown(page, '.stale-note')).toBe('Results for the last valid scenario.');
    const pipeline = async (hash: string) => (scenarioFromHash(hash.slice(hash.indexOf('#'))) as { parallelism: { pipeline: number } }).parallelism.pipeline;
    expect(await pipeline(await hashOf(page))).toBe(3);
    expect(await pipeline((await page.locator('trainplan-estimator .share-link').getAttribute('href'))!)).toBe(3);
    // A field no scenario can state: no link at all, rather than the last good one's.
    await field(page, 'Pipeline (p)').fill('abc');
    await expect.poll(() => shown(page, '#m-pp')).toContain('not a number');
    expect(await page.locator('trainplan-estimator .share-link').isVisible()).toBe(false);
    await field(page, 'Pipeline (p)').fill('16');
    await waitFor(page, 'el.estimate.resolved.pipeline === 16');
    expect(await stale()).toEqual({ stale: false, note: false, outline: 'none', opacity: '1' });
    expect(await page.locator('trainplan-estimator .share-link').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks for a token budget of whole tokens, and of at least one step (1,536 × 2,048 tokens)', async () => {
    const { page, context, problems } = await open();
    await field(page, 'Token budget').fill('1.5');
    await expect.poll(() => shown(page, '#m-tokens')).toBe('a whole number, got 1.5');
    await field(page, 'Token budget').fill('1000');
    await expect.poll(() => shown(page, '#m-tokens')).toBe("at least one step's 3,145,728 tokens (global batch × sequence length)");
    await field(page, 'Token budget').fill('3145728');
    await waitFor(page, 'el.estimate.timeToTrain?.tokens === 3145728');
    expect(await shown(page, '#m-tokens')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<trainplan-estimator> in a wide embed, in Chromium', () => {
  it('draws the scaling chart across its column (it stayed about 350 px in a 1,384 px embed), its text still 14 px at most', async () => {
    const { page, context, problems } = await open('', { viewport: { width: 1400, height: 900 } });
    await waitFor(page, "el.shadowRoot.querySelector('.out-scaling svg') !== null");
    const seen = await page.locator('trainplan-estimator').evaluate((el) => {
      const svg = el.shadowRoot!.querySelector<SVGSVGElement>('svg.scaling')!;
      const column = el.shadowRoot!.querySelector('.out-scaling')!.clientWidth;
      const text = [...svg.querySelectorAll<SVGTextElement>('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a);
      return { host: el.getBoundingClientRect().width, column, svg: svg.getBoundingClientRect().width, largest: Math.max(...text), smallest: Math.min(...text) };
    });
    expect(seen.host).toBeGreaterThan(1300);
    expect(seen.svg).toBeGreaterThan(900);
    expect(seen.svg).toBeCloseTo(seen.column, 0);
    expect(seen.largest).toBeLessThanOrEqual(14);
    expect(seen.smallest).toBeGreaterThanOrEqual(10);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the API docs page (/docs), in Chromium', () => {
  it('labels every "Try it" request body and asks for no /favicon.ico', async () => {
    const context = await browser().newContext();
    const calls = await routeToApi(context, 'http://api.test');
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    await page.goto('http://api.test/docs');
    await page.waitForFunction(() => document.querySelectorAll('textarea').length > 0);
    const names = await page.locator('textarea').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(names.length).toBeGreaterThanOrEqual(7);
    for (const n of names) expect(n).toMatch(/^Request body \(JSON\) for POST \/v1\//);
    expect(new Set(names).size).toBe(names.length);
    await page.getByRole('textbox', { name: 'Request body (JSON) for POST /v1/estimate' }).waitFor();
    // Headless Chromium asks for no favicon either way; a headed browser asks for /favicon.ico (a 404) unless the page names one.
    expect(await page.locator('head link[rel=icon]').getAttribute('href')).toBe('data:,');
    expect(calls.map((c) => c.path)).not.toContain('/favicon.ico');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says when /openapi.json cannot be loaded (it said "Loading…" forever), and Retry loads it', async () => {
    const context = await browser().newContext();
    await routeToApi(context, 'http://api.test');
    let fail = true;
    await context.route('http://api.test/openapi.json', (route) => (fail ? route.abort('failed') : route.fallback()));
    const page = await context.newPage();
    await page.goto('http://api.test/docs');
    const intro = page.locator('#intro');
    await expect.poll(() => intro.innerText()).toMatch(/^Could not load \/openapi\.json \(.+\)\. Retry$/);
    expect(await intro.getAttribute('role')).toBe('alert');
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(() => document.querySelectorAll('textarea').length > 0);
    expect(await intro.innerText()).not.toContain('Could not load');
    expect(await intro.getAttribute('role')).toBeNull();
    await context.close();
  });
});
