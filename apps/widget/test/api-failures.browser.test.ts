/// <reference lib="dom" />
// Both elements with api="…" against an API that hangs, fails or answers something else, in a real browser (Debian's
// chromium, driven by playwright-core): the widget's module is bundled in-process and served by request routing, and
// the page's clock is Playwright's, so the timeouts (compute/backend.ts) pass in an instant.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ESTIMATE_TIMEOUT_MS, SEARCH_TIMEOUT_MS } from '../src/compute/backend.ts';
import { pageProblems, routeToApi } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';

const ORIGIN = 'http://widget.test';
const API = 'http://api.test';
const ESTIMATOR = 'model="gpt3-175b" gpu="a100-80gb" nodes="128" tp="8" pp="8" gbs="1536" mbs="1" recompute="full"';
const SERVING = 'model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512"';
const { browser, bundle } = browserAndBundle();

interface Opened { page: Page; context: BrowserContext; problems: string[]; api: { hang: boolean } }
let opened: Opened | undefined;
afterEach(async () => {
  await opened?.context.close();
  opened = undefined;
});

/**
 * A page holding `<tag attributes api="http://api.test">`, the API answering as apps/api does, or not at all while
 * `api.hang` is set, or as `answer` says when given. The page's clock is installed (time flows until fastForward).
 */
async function open(tag: string, attributes: string, answer?: (route: Route) => Promise<void>): Promise<Opened> {
  const context = await browser().newContext();
  await context.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
    : route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title>
<script type="module" src="/w.js"></script></head><body><${tag} ${attributes} api="${API}"></${tag}></body></html>` })));
  await routeToApi(context, API);
  const api = { hang: false };
  // Registered last, so asked first: a hung API never answers (the request stays pending), `answer` answers instead.
  await context.route(`${API}/**`, async (route) => {
    if (api.hang) return;
    return answer ? answer(route) : route.fallback();
  });
  const page = await context.newPage();
  const problems = pageProblems(page);
  await page.clock.install();
  await page.goto(`${ORIGIN}/`);
  opened = { page, context, problems, api };
  return opened;
}

/** The element's status line, whether its results are dimmed as stale, and whether they are shown at all. */
const state = (page: Page, tag: string) => page.locator(tag).evaluate((el) => {
  const r = el.shadowRoot!;
  const results = r.querySelector<HTMLElement>('.results')!;
  return { status: r.querySelector('.status')!.textContent, stale: results.classList.contains('stale'), shown: !results.hidden };
});
/**
 * The status line's colour. styles.ts's light theme: progress in the muted grey, #5b6470 = rgb(91, 100, 112); an error
 * in the error red, #b42318 = rgb(180, 35, 24) (hex to decimal: 5b = 91, 64 = 100, 70 = 112; b4 = 180, 23 = 35, 18 = 24).
 */
const statusColour = (page: Page, tag: string) => page.locator(tag).evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.status')!).color);
const MUTED = 'rgb(91, 100, 112)';
const ERROR = 'rgb(180, 35, 24)';
const until = async (page: Page, tag: string, check: (s: Awaited<ReturnType<typeof state>>) => boolean) => {
  await expect.poll(async () => check(await state(page, tag)), { timeout: 15_000 }).toBe(true);
  return state(page, tag);
};

describe('<trainplan-estimator api="…"> when the API does not answer', () => {
  it(`hung from the page's load: says it is estimating, muted, then after ${ESTIMATE_TIMEOUT_MS / 1000} s, in the error colour, that it could not reach the API (it stayed blank)`, async () => {
    const { page, api } = await open('trainplan-estimator', ESTIMATOR);
    api.hang = true;
    await page.reload();
    expect(await until(page, 'trainplan-estimator', (s) => s.status !== '')).toEqual({ status: 'Estimating…', stale: true, shown: false });
    // Progress is said in the muted colour, not the error's (QA: "Estimating…" in red read as a failure).
    expect(await statusColour(page, 'trainplan-estimator')).toBe(MUTED);
    await page.clock.fastForward(ESTIMATE_TIMEOUT_MS);
    const s = await until(page, 'trainplan-estimator', (x) => x.status !== 'Estimating…');
    expect(s.status).toBe(`Could not reach the API at ${API}/v1/estimate: no answer in 20 s.`);
    expect(await statusColour(page, 'trainplan-estimator')).toBe(ERROR);
  });

  it('hung after a first answer: the answer on screen is dimmed as the last good one while the new one is awaited, then the timeout is said', async () => {
    const { page, api, problems } = await open('trainplan-estimator', ESTIMATOR);
    await page.waitForFunction(() => !!document.querySelector('trainplan-estimator')?.shadowRoot?.querySelector('.out-scaling svg'), undefined, { timeout: 15_000 });
    expect(await state(page, 'trainplan-estimator')).toEqual({ status: '', stale: false, shown: true });
    api.hang = true;
    await page.getByLabel('Nodes', { exact: true }).fill('64');
    const waiting = await until(page, 'trainplan-estimator', (s) => s.status !== '');
    expect(waiting).toEqual({ status: 'Estimating… Showing the last good result.', stale: true, shown: true });
    await expect.poll(() => page.locator('trainplan-estimator .stale-note').isVisible()).toBe(true);
    await page.clock.fastForward(ESTIMATE_TIMEOUT_MS);
    const failed = await until(page, 'trainplan-estimator', (s) => s.status !== waiting.status);
    expect(failed).toEqual({ status: `Could not reach the API at ${API}/v1/estimate: no answer in 20 s. Showing the last good result.`, stale: true, shown: true });
    // The API back: the next edit is answered and shown at full strength.
    api.hang = false;
    await page.getByLabel('Nodes', { exact: true }).fill('32');
    expect(await until(page, 'trainplan-estimator', (s) => !s.stale)).toEqual({ status: '', stale: false, shown: true });
    expect(problems).toEqual([]);
  });

  it(`Auto against a hung API: "Searching…" dimmed, then after ${SEARCH_TIMEOUT_MS / 1000} s that the search could not reach it`, async () => {
    const { page, api } = await open('trainplan-estimator', ESTIMATOR);
    await page.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate?: unknown }).estimate !== undefined, undefined, { timeout: 15_000 });
    api.hang = true;
    await page.getByLabel('Auto: search the fastest', { exact: true }).check();
    expect(await until(page, 'trainplan-estimator', (s) => s.status !== '')).toEqual({ status: 'Searching parallel configurations… Showing the last good result.', stale: true, shown: true });
    expect(await statusColour(page, 'trainplan-estimator')).toBe(MUTED);
    await page.clock.fastForward(ESTIMATE_TIMEOUT_MS);
    expect((await state(page, 'trainplan-estimator')).status).toMatch(/^Searching/);
    await page.clock.fastForward(SEARCH_TIMEOUT_MS - ESTIMATE_TIMEOUT_MS);
    const s = await until(page, 'trainplan-estimator', (x) => !x.status.startsWith('Searching'));
    expect(s).toEqual({ status: `Could not reach the API at ${API}/v1/search: no answer in 30 s. Showing the last good result.`, stale: true, shown: true });
    expect(await statusColour(page, 'trainplan-estimator')).toBe(ERROR);
  });
});

describe('<trainplan-estimator api="…"> when the API is slow', () => {
  it('says "Estimating…" under "Scaling over nodes" and "How many nodes" while the other sizes are awaited (QA: a 6 s API left them bare), then why none came', async () => {
    // The scenario's own estimate (a batch of one) is answered; the other sizes' batch is not, as a slow API's.
    const { page, problems } = await open('trainplan-estimator', ESTIMATOR, async (route) => {
      const body: unknown = route.request().postDataJSON();
      if (Array.isArray(body) && body.length > 1) return;
      return route.fallback();
    });
    await until(page, 'trainplan-estimator', (s) => s.shown);
    const under = () => page.locator('trainplan-estimator').evaluate((el) => ['.out-scaling', '.out-nodes'].map((sel) => {
      const out = el.shadowRoot!.querySelector(sel)!;
      return `${out.previousElementSibling?.textContent}: ${out.textContent}`;
    }));
    await expect.poll(under, { timeout: 15_000 }).toEqual(['Scaling over nodes: Estimating other cluster sizes…', 'How many nodes: Estimating other cluster sizes…']);
    expect(await state(page, 'trainplan-estimator')).toEqual({ status: '', stale: false, shown: true });
    // Never answered: both say why, not "Estimating…" for good.
    await page.clock.fastForward(ESTIMATE_TIMEOUT_MS);
    const why = `Could not reach the API at ${API}/v1/estimate: no answer in 20 s`;
    await expect.poll(under, { timeout: 15_000 }).toEqual([`Scaling over nodes: ${why}`, `How many nodes: ${why}`]);
    expect(problems).toEqual([]);
  });
});

describe('<trainplan-estimator api="…"> when the API answers something other than its JSON', () => {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
  it.each([
    ['a 500 in plain text', { status: 500, contentType: 'text/plain', body: 'Internal Server Error' }, `The API at ${API}/v1/estimate answered 500.`],
    ['a proxy\'s HTML page with 200', { status: 200, contentType: 'text/html', body: '<html>proxy login</html>' }, `The API at ${API}/v1/estimate answered something that is not trainplan's JSON.`],
  ])('%s: says so, not "Could not reach" with a JSON parse error', async (_what, response, status) => {
    const { page } = await open('trainplan-estimator', ESTIMATOR, (route) => route.fulfill({ ...response, headers: cors }));
    const s = await until(page, 'trainplan-estimator', (x) => x.status !== '' && x.status !== 'Estimating…');
    expect(s.status).toBe(status);
  });
});

describe('<trainplan-serving api="…"> when the API does not answer', () => {
  it(`dims the last answer while the next is awaited ("Estimating…", muted), then says after ${SEARCH_TIMEOUT_MS / 1000} s, in the error colour, that it could not reach the API (not "the estimator")`, async () => {
    const { page, api, problems } = await open('trainplan-serving', SERVING);
    await page.waitForFunction(() => (document.querySelector('trainplan-serving') as HTMLElement & { response?: unknown }).response !== undefined, undefined, { timeout: 15_000 });
    api.hang = true;
    await page.getByLabel('Output (tokens)', { exact: true }).fill('256');
    expect(await until(page, 'trainplan-serving', (s) => s.status !== '')).toEqual({ status: 'Estimating… Showing the last answer.', stale: true, shown: true });
    expect(await statusColour(page, 'trainplan-serving')).toBe(MUTED);
    await page.clock.fastForward(SEARCH_TIMEOUT_MS);
    const s = await until(page, 'trainplan-serving', (x) => !x.status.startsWith('Estimating'));
    // The serving planner's request is no estimate: the API is named, not "the estimator" (QA).
    expect(s).toEqual({ status: `Could not reach the API at ${API}/v1/inference: no answer in 30 s. Showing the last answer.`, stale: true, shown: true });
    expect(await statusColour(page, 'trainplan-serving')).toBe(ERROR);
    expect(problems).toEqual([]);
  });
});
