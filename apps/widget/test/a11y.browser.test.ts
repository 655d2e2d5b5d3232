/// <reference lib="dom" />
// What a screen reader and a dark theme get, in a real browser (Debian's chromium, driven by playwright-core; never a
// downloaded one), read from Chromium's own accessibility tree (CDP's Accessibility.getFullAXTree): the live regions are
// in it before anything is said in them, the charts' points are in their accessible names, and the themes set the native
// controls' colour scheme and readable placeholders. Runs in the browser suite (test/e2e/vitest.config.ts), whose
// globalSetup installs chromium.
import { runEstimate, type EstimateOk } from '@trainplan/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';

const ORIGIN = 'http://a11y.test';
const ESTIMATOR = 'model="gpt3-175b" gpu="a100-80gb" nodes="128" tp="8" pp="8" gbs="1536" mbs="1" recompute="full"';
const SERVING = 'model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512" max-token-ms="50"';
/** The page's clock, installed and paused before the page loads: no timer runs, so the elements' first update waits. */
const START = new Date('2025-01-01T00:00:00Z');

const { browser, bundle } = browserAndBundle();

interface Opened { page: Page; context: BrowserContext; problems: string[] }

/**
 * A page holding `<tag attributes>`, with the system's colour scheme `scheme`. With `paused`, the page's clock stands
 * still from the start (the elements' updates, scheduled with setTimeout, wait for page.clock.runFor).
 */
async function open(tag: string, attributes: string, options: { paused?: boolean; scheme?: 'light' | 'dark' } = {}): Promise<Opened> {
  const context = await browser().newContext({ colorScheme: options.scheme ?? 'light' });
  await context.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
    : route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title>
<script type="module" src="/w.js"></script></head><body><${tag} ${attributes}></${tag}></body></html>` })));
  const page = await context.newPage();
  const problems = pageProblems(page);
  if (options.paused) {
    await page.clock.install({ time: START });
    await page.clock.pauseAt(new Date(START.getTime() + 1000));
  }
  await page.goto(`${ORIGIN}/`);
  await page.locator(`${tag} form`).waitFor({ state: 'attached' });
  return { page, context, problems };
}

interface AxNode {
  readonly ignored: boolean;
  readonly role?: { readonly value: string };
  readonly name?: { readonly value: string };
  readonly description?: { readonly value: string };
  readonly properties?: readonly { readonly name: string; readonly value: { readonly value: unknown } }[];
}

/** Chromium's accessibility tree of the page, the nodes a screen reader is given (ignored ones left out). */
async function axNodes(context: BrowserContext, page: Page): Promise<AxNode[]> {
  const cdp = await context.newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
  await cdp.detach();
  return nodes.filter((n) => !n.ignored);
}

const live = (n: AxNode): boolean => n.properties?.some((p) => p.name === 'live' && p.value.value === 'polite') ?? false;

/** Each element of `selector` in `tag`'s shadow root: its text, whether it is display:none, and its height in px. */
const boxes = (page: Page, tag: string, selector: string) => page.locator(tag).evaluate((el, sel) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)]
  .map((e) => ({ text: e.textContent, none: getComputedStyle(e).display === 'none', height: e.getBoundingClientRect().height })), selector);

describe('live regions, in Chromium', () => {
  it('the serving element\'s status (role status) and each field\'s message are in the accessibility tree, empty and of no height, before anything is said; what is said goes into them', async () => {
    // prompt="abc" cannot be read: the first update marks the field and says so in the status.
    const { page, context, problems } = await open('trainplan-serving', `${SERVING.replace('prompt="2048"', 'prompt="abc"')}`, { paused: true });
    const status = await boxes(page, 'trainplan-serving', '.status');
    const messages = await boxes(page, 'trainplan-serving', '.msg:not([hidden])');
    expect(status).toEqual([{ text: '', none: false, height: 0 }]);
    expect(messages.length).toBeGreaterThan(10);
    for (const m of messages) expect(m).toEqual({ text: '', none: false, height: 0 });
    const before = await axNodes(context, page);
    expect(before.filter((n) => n.role?.value === 'status')).toHaveLength(1);
    // The status (role status is polite) and one message per field shown, nothing else live yet (the answer's region is
    // in the results, hidden until the first answer).
    expect(before.filter(live)).toHaveLength(1 + messages.length);
    // Mark the nodes, then let the first update run: the same nodes say it.
    await page.locator('trainplan-serving').evaluate((el) => {
      for (const e of el.shadowRoot!.querySelectorAll('.status, #m-prompt')) (e as HTMLElement).dataset.before = '';
    });
    await page.clock.runFor(1000);
    await expect.poll(() => page.locator('trainplan-serving .status').textContent()).toBe('Fix the marked field.');
    expect(await page.locator('trainplan-serving #m-prompt').textContent()).toMatch(/\S/);
    expect(await page.locator('trainplan-serving [data-before]').count()).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the estimator\'s status and note are in the tree before its first estimate, and its empty warnings list after it, each of no height', async () => {
    const { page, context, problems } = await open('trainplan-estimator', ESTIMATOR, { paused: true });
    expect(await boxes(page, 'trainplan-estimator', '.status, .note')).toEqual([{ text: '', none: false, height: 0 }, { text: '', none: false, height: 0 }]);
    const before = await axNodes(context, page);
    expect(before.filter((n) => n.role?.value === 'status')).toHaveLength(1);
    const messages = (await boxes(page, 'trainplan-estimator', '.msg:not([hidden])')).length;
    // The status, the note and each shown field's message (the results' regions are hidden until the first estimate).
    expect(before.filter(live)).toHaveLength(2 + messages);
    await page.clock.resume();
    await page.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate?: unknown }).estimate !== undefined, undefined, { timeout: 15_000 });
    // This scenario has no warning (runEstimate's, asked here): its list is empty, and there.
    const scenario = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536, microBatchSize: 1 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } } as const;
    expect((runEstimate(scenario) as EstimateOk).warnings).toEqual([]);
    expect(await boxes(page, 'trainplan-estimator', '.warnings, .status, .note')).toEqual([
      { text: '', none: false, height: 0 }, { text: '', none: false, height: 0 }, { text: '', none: false, height: 0 },
    ]);
    expect((await axNodes(context, page)).filter((n) => n.role?.value === 'status')).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** WCAG 2.2's contrast ratio of two `rgb(r, g, b)` colours: (L1 + 0.05) / (L2 + 0.05) of their relative luminances. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
      const s = Number(c) / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('themes, in Chromium', () => {
  it.each([
    ['theme="dark" on a light system', 'dark', 'theme="dark"', 'light'],
    ['no theme on a dark system', 'dark', '', 'dark'],
    ['theme="light" on a dark system', 'light', 'theme="light"', 'dark'],
    ['no theme on a light system', 'light', '', 'light'],
  ] as const)('%s: native controls in the %s scheme, placeholders in the muted colour at 4.5:1 or more', async (_what, scheme, theme, system) => {
    // model="custom" shows the shape's fields, KV heads and FFN size with placeholders.
    const { page, context, problems } = await open('trainplan-estimator', `model="custom" ${theme}`, { scheme: system });
    const look = await page.locator('trainplan-estimator').evaluate((el) => {
      const r = el.shadowRoot!;
      const input = r.querySelector<HTMLInputElement>('input[placeholder]')!;
      return {
        host: getComputedStyle(el).colorScheme,
        checkbox: getComputedStyle(r.querySelector('input[type=checkbox]')!).colorScheme,
        select: getComputedStyle(r.querySelector('select')!).colorScheme,
        placeholder: getComputedStyle(input, '::placeholder').color,
        field: getComputedStyle(input).backgroundColor,
        muted: getComputedStyle(r.querySelector('label')!).color,
        page: getComputedStyle(el).backgroundColor,
        // Each text input's and select's boundary and fill.
        controls: [...r.querySelectorAll<HTMLElement>('input:not([type=checkbox]), select')]
          .map((c) => ({ name: (c as HTMLInputElement).name, border: getComputedStyle(c).borderTopColor, fill: getComputedStyle(c).backgroundColor })),
      };
    });
    expect({ host: look.host, checkbox: look.checkbox, select: look.select }).toEqual({ host: scheme, checkbox: scheme, select: scheme });
    // The labels' muted colour (styles.ts: #5b6470 light, #9aa3ad dark), not Chromium's grey (3.5:1 on the dark field).
    expect(look.placeholder).toBe(look.muted);
    expect(look.placeholder).toBe(scheme === 'dark' ? 'rgb(154, 163, 173)' : 'rgb(91, 100, 112)');
    expect(contrast(look.placeholder, look.field)).toBeGreaterThanOrEqual(4.5);
    // WCAG 2.2 1.4.11 Non-text Contrast: a text input's or select's boundary 3:1 or more against its fill and the box's
    // background (QA: #d5d9de on #fff, #353a42 on #1e2127, 1.4:1).
    expect(look.controls.length).toBeGreaterThan(10);
    for (const c of look.controls) {
      expect(contrast(c.border, c.fill), c.name).toBeGreaterThanOrEqual(3);
      expect(contrast(c.border, look.page), c.name).toBeGreaterThanOrEqual(3);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** The accessible name Chromium gives the chart whose name starts with `lead`, and the hover titles of its dots. */
async function chartName(context: BrowserContext, page: Page, tag: string, chart: string, lead: string): Promise<{ name: string; titles: string[] }> {
  const named = (await axNodes(context, page)).filter((n) => n.name?.value.startsWith(lead));
  expect(named).toHaveLength(1);
  const titles = await page.locator(tag).evaluate((el, sel) => [...el.shadowRoot!.querySelectorAll(`${sel} circle.dot > title`)].map((t) => t.textContent ?? ''), `svg.${chart}`);
  return { name: named[0]!.name!.value, titles };
}

describe("the charts' text alternatives, in Chromium", () => {
  it('the scaling chart\'s accessible name gives every size drawn and its tokens/s, as its dots\' titles do', async () => {
    const { page, context, problems } = await open('trainplan-estimator', ESTIMATOR);
    await page.locator('trainplan-estimator .out-scaling svg').waitFor({ state: 'attached', timeout: 15_000 });
    const lead = 'tokens per second against node count: ';
    const { name, titles } = await chartName(context, page, 'trainplan-estimator', 'scaling', lead);
    // The default plan runs on 16 nodes and up (t 8 · p 8 on 8-GPU nodes, 1,536 sequences: charts.test.ts), 128 among them.
    expect(titles.length).toBeGreaterThan(3);
    for (const t of titles) expect(t).toMatch(/^[\d,]+ nodes?: [\d.]+( [kMB])? tokens\/s$/);
    expect(titles.some((t) => t.startsWith('128 nodes: '))).toBe(true);
    expect(name).toBe(`${lead}${titles.join('; ')}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the serving chart\'s accessible name gives every plan drawn, its batch, time per token and tokens/s per GPU', async () => {
    const { page, context, problems } = await open('trainplan-serving', SERVING);
    await page.locator('trainplan-serving .out-frontier svg').waitFor({ state: 'attached', timeout: 15_000 });
    const lead = 'tokens/s per GPU against time per output token: ';
    const { name, titles } = await chartName(context, page, 'trainplan-serving', 'serving-frontier', lead);
    const plans = await page.locator('trainplan-serving').evaluate((el) => (el as HTMLElement & { response: { frontier: unknown[] } }).response.frontier.length);
    expect(titles).toHaveLength(plans);
    for (const t of titles) expect(t).toMatch(/^TP \d+ · PP \d+ · batch [\d,]+: .+ per token, .+ tokens\/s per GPU, first token .+$/);
    expect(name).toBe(`${lead}${titles.join('; ')}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('stale results, in Chromium', () => {
  it.each(['light', 'dark'] as const)('keep every text at 4.5:1 or more in the %s theme, marked by a dashed outline and a note, not dimmed', async (theme) => {
    const { page, context, problems } = await open('trainplan-estimator', `${ESTIMATOR} theme="${theme}"`);
    await page.locator('trainplan-estimator .out-scaling svg').waitFor({ state: 'attached', timeout: 15_000 });
    // p = 3 does not divide the GPUs: the results on screen are the last valid scenario's.
    await page.getByLabel('Pipeline (p)', { exact: true }).fill('3');
    await expect.poll(() => page.locator('trainplan-estimator .stale-note').isVisible()).toBe(true);
    const look = await page.locator('trainplan-estimator').evaluate((el) => {
      const results = el.shadowRoot!.querySelector<HTMLElement>('.results')!;
      // Every shown HTML element with text of its own, its colour and the opacity it is drawn at (its own and its ancestors').
      const texts = [...results.querySelectorAll<HTMLElement>('*')]
        .filter((e) => e instanceof HTMLElement && e.offsetParent !== null && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()))
        .map((e) => {
          let opacity = 1;
          for (let a: Element | null = e; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
          return { text: e.textContent!.slice(0, 40), color: getComputedStyle(e).color, opacity };
        });
      return { texts, page: getComputedStyle(el).backgroundColor, outline: getComputedStyle(results).outlineStyle };
    });
    expect(look.outline).toBe('dashed');
    // The headline's figures and their grey labels, the captions, the legends, the answers.
    expect(look.texts.length).toBeGreaterThan(20);
    for (const t of look.texts) {
      expect(t.opacity, t.text).toBe(1);
      expect(contrast(t.color, look.page), t.text).toBeGreaterThanOrEqual(4.5);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * Records what the live regions of `tag`'s shadow root say from now on: after each batch of changes, each live region
 * (aria-live other than "off") changed, with its text then and whether that is the text it already had. A screen reader
 * announces a live region's change; one rewritten with the same text is announced again.
 */
const watchLive = (page: Page, tag: string) => page.locator(tag).evaluate((el) => {
  const root = el.shadowRoot!;
  const said: { region: string; text: string; same: boolean }[] = [];
  const last = new Map<Element, string>([...root.querySelectorAll('[aria-live]')].map((r) => [r, r.textContent ?? '']));
  new MutationObserver((records) => {
    const regions = new Set<Element>();
    for (const r of records) {
      const region = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('[aria-live]');
      if (region) regions.add(region);
    }
    for (const region of regions) {
      const text = region.textContent ?? '';
      if (region.getAttribute('aria-live') !== 'off') said.push({ region: region.id || region.classList[0]!, text, same: last.get(region) === text });
      last.set(region, text);
    }
  }).observe(root, { subtree: true, childList: true, characterData: true });
  (window as unknown as { __said: typeof said }).__said = said;
});
const saidSoFar = (page: Page) => page.evaluate(() => (window as unknown as { __said: { region: string; text: string; same: boolean }[] }).__said);

/** The accessible description Chromium gives the control named `label`. */
async function descriptionOf(context: BrowserContext, page: Page, label: string): Promise<string> {
  const nodes = (await axNodes(context, page)).filter((n) => n.name?.value === label && ['textbox', 'combobox'].includes(n.role?.value ?? ''));
  expect(nodes).toHaveLength(1);
  return nodes[0]!.description?.value ?? '';
}

describe('what a screen reader is told, in Chromium', () => {
  it('describes every field an issue marks by its message, the fields that point to a shared one included; that one alone is live in its fieldset, and copies elsewhere are not', async () => {
    const { page, context, problems } = await open('trainplan-estimator', ESTIMATOR);
    await page.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate?: unknown }).estimate !== undefined, undefined, { timeout: 15_000 });
    // t = 3 does not divide the GPUs: the nodes (Cluster) and t (Parallelism) say it, p and c point to t's message.
    await page.getByLabel('Tensor (t)', { exact: true }).fill('3');
    await expect.poll(() => page.locator('trainplan-estimator #m-tp').textContent(), { timeout: 10_000 }).toContain('not divisible');
    const divides = (await page.locator('trainplan-estimator #m-tp').textContent())!;
    for (const label of ['Tensor (t)', 'Pipeline (p)', 'Context (c)', 'Nodes']) expect(await descriptionOf(context, page, label), label).toBe(divides);
    expect(await descriptionOf(context, page, 'Virtual stages (v)')).toBe('');
    // Said in two fieldsets, announced from one: the first field's (the nodes'); the copy beside t is read where it stands.
    const live = await page.locator('trainplan-estimator').evaluate((el) => [...el.shadowRoot!.querySelectorAll('.msg')]
      .filter((m) => m.textContent).map((m) => [m.id, m.getAttribute('aria-live')]));
    expect(live).toEqual([['m-nodes', 'polite'], ['m-tp', 'off']]);
    // A global batch of 1,000 is no multiple of micro-batch × data-parallel (16): the micro-batch points to the batch's message.
    await page.getByLabel('Tensor (t)', { exact: true }).fill('8');
    await page.getByLabel('Global batch (sequences)', { exact: true }).fill('1000');
    await expect.poll(() => page.locator('trainplan-estimator #m-gbs').textContent(), { timeout: 10_000 }).toContain('not a multiple');
    const batch = (await page.locator('trainplan-estimator #m-gbs').textContent())!;
    expect(await descriptionOf(context, page, 'Micro-batch')).toBe(batch);
    // Fixed, the fields are described by their own (empty) messages again.
    await page.getByLabel('Global batch (sequences)', { exact: true }).fill('1536');
    await expect.poll(() => page.locator('trainplan-estimator #m-gbs').textContent()).toBe('');
    for (const label of ['Micro-batch', 'Pipeline (p)', 'Nodes']) expect(await descriptionOf(context, page, label), label).toBe('');
    expect(await page.locator('trainplan-estimator #f-mbs').getAttribute('aria-describedby')).toBe('m-mbs');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('typing "2048" into Global batch at 250 ms a key says each distinct message once: no "Estimating…", no copy from another fieldset, nothing said again unchanged', async () => {
    const { page, context, problems } = await open('trainplan-estimator', ESTIMATOR);
    await page.locator('trainplan-estimator .out-scaling svg').waitFor({ state: 'attached', timeout: 15_000 });
    await page.waitForTimeout(500);
    await watchLive(page, 'trainplan-estimator');
    const gbs = page.getByLabel('Global batch (sequences)', { exact: true });
    await gbs.selectText();
    await page.keyboard.type('2048', { delay: 250 });
    await page.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate?: { resolved: { globalBatchSize: number } } }).estimate?.resolved.globalBatchSize === 2048, undefined, { timeout: 15_000 });
    await page.waitForTimeout(1000);
    const said = await saidSoFar(page);
    const spoken = said.filter((s) => s.text !== '');
    // QA heard 20 announcements: each batch error three times (one region per fieldset), "Estimating…", "Fix the marked
    // fields…" each key, and an unchanged "Turn on Auto…" line.
    expect(said.filter((s) => s.same)).toEqual([]);
    expect(spoken.map((s) => s.text)).toEqual([...new Set(spoken.map((s) => s.text))]);
    expect(spoken.filter((s) => s.text.startsWith('Estimating'))).toEqual([]);
    // The batch's message for 2, 20 and 204 from its own field (the status once, with the first), then the new headline.
    expect(spoken.map((s) => s.region)).toEqual(['m-gbs', 'status', 'm-gbs', 'm-gbs', 'headline']);
    expect(spoken[1]!.text).toBe('Fix the marked fields. Showing the last good result.');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Auto says its search once, naming each field it changed, and never the cluster sizes counted; the time–cost chart names every size it draws', async () => {
    const { page, context, problems } = await open('trainplan-estimator', ESTIMATOR);
    const estimator = page.locator('trainplan-estimator');
    await expect.poll(() => estimator.locator('.out-frontier').textContent(), { timeout: 15_000 }).toContain('Turn on Auto');
    const searched = ['Micro-batch', 'Recompute', 'Tensor (t)', 'Pipeline (p)', 'Virtual stages (v)', 'Context (c)', 'Sequence parallel', 'Distributed optimizer'];
    const form = () => Promise.all(searched.map(async (label) => {
      const control = page.getByLabel(label, { exact: true });
      return (await control.getAttribute('type')) === 'checkbox' ? ((await control.isChecked()) ? 'on' : 'off') : control.inputValue();
    }));
    const before = await form();
    await watchLive(page, 'trainplan-estimator');
    await page.getByLabel('Auto: search the fastest').check();
    await estimator.locator('.out-frontier svg').waitFor({ state: 'attached', timeout: 90_000 });
    await page.waitForTimeout(500);
    const after = await form();
    const said = await saidSoFar(page);
    // The counts ("12 sizes searched", "40 of 103") are in no live region: QA heard some 470 in 1.5 s.
    expect(said.filter((s) => /sizes? searched|\d of \d/.test(s.text))).toEqual([]);
    expect(said.filter((s) => s.same)).toEqual([]);
    // One announcement of the search, naming every field it changed with its new value, and no other.
    const changed = searched.filter((_, i) => before[i] !== after[i]);
    expect(changed.length).toBeGreaterThan(0);
    const announced = said.filter((s) => s.region === 'out-search');
    expect(announced).toHaveLength(1);
    expect(announced[0]!.text).toMatch(/^Searched [\d,]+ configurations: best .+\. Set in the form: .+\.$/);
    expect(announced[0]!.text.replace(/^.*Set in the form: /, '')).toBe(`${changed.map((label) => `${label} ${after[searched.indexOf(label)]}`).join(', ')}.`);
    // The time–cost chart's accessible name gives every dot's figures, as the scaling and serving charts' do.
    const lead = 'GPU-hours against days to train over cluster sizes: ';
    const { name, titles } = await chartName(context, page, 'trainplan-estimator', 'frontier', lead);
    expect(titles.length).toBeGreaterThan(5);
    expect(name).toBe(`${lead}${titles.join('. ')}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
