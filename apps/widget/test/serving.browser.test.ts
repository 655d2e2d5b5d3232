/// <reference lib="dom" />
// <trainplan-serving> in a real browser (Debian's chromium, driven by playwright-core; never a downloaded one):
// the widget's module is bundled in-process and served with the page through request routing, so no server
// or port is needed. It runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup installs
// chromium on a fresh CI machine. Expected answers are runInference's own, asked here, never copied figures.
import { runInference, type InferenceRequest, type InferenceResponseJson } from '@trainplan/protocol';
import { formatGrouped } from '@trainplan/units';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clippedTexts, pageProblems, routeToApi, unlabelledControls, type ApiCall } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';

const ORIGIN = 'http://widget.test';
const API = 'http://api.test';
const ATTRIBUTES = 'model="llama3-70b" gpu="h100-sxm" prompt="2048" output="512" max-token-ms="50"';
/** The request those attributes make: continuous batching is the element's default. */
const REQUEST = { model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, batching: 'continuous', maxDecodeSecondsPerToken: 0.05 };
/** A host page with nothing inline, so it runs under a strict CSP too (the first test serves it with one). */
const page = (attributes: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title>
<script type="module" src="/w.js"></script></head><body><trainplan-serving ${attributes}></trainplan-serving></body></html>`;
const STRICT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:";

type Served = Extract<InferenceResponseJson, { ok: true }>;
type Serving = HTMLElement & { response?: Served; request?: InferenceRequest };
const { browser, bundle } = browserAndBundle();

interface Opened { page: Page; context: BrowserContext; problems: string[]; apiCalls: ApiCall[] }

/**
 * Opens a page holding the element with `attributes` (an API at http://api.test answers as apps/api does) and
 * waits for a first answer. With `csp`, the page is served under it (Playwright's later string waits need eval, which it blocks).
 */
async function open(attributes = ATTRIBUTES, csp?: string): Promise<Opened> {
  const context = await browser().newContext();
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const headers: Record<string, string> = csp ? { 'content-security-policy': csp } : {};
    if (path === '/w.js') return route.fulfill({ contentType: 'text/javascript', body: bundle(), headers });
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: page(attributes), headers });
    return route.fulfill({ status: 404, body: 'not found' });
  });
  const apiCalls = await routeToApi(context, API);
  const tab = await context.newPage();
  const problems = pageProblems(tab);
  await tab.goto(`${ORIGIN}/`);
  await waitFor(tab, 'el.response !== undefined');
  return { page: tab, context, problems, apiCalls };
}

async function waitFor(tab: Page, condition: string): Promise<void> {
  await tab.waitForFunction(`(() => { const el = document.querySelector('trainplan-serving'); return !!el && (${condition}); })()`, undefined, { timeout: 15_000 });
}
const shown = (tab: Page, selector: string) => tab.locator(`trainplan-serving ${selector}`).first().innerText();
const field = (tab: Page, label: string) => tab.getByLabel(label, { exact: true });
const responseOf = (tab: Page) => tab.locator('trainplan-serving').evaluate((el) => (el as Serving).response!);
const plan = (r: InferenceResponseJson) => {
  if (!r.ok || !r.best) throw new Error('expected a best plan');
  return r.best;
};

describe('<trainplan-serving>, in Chromium', () => {
  it("shows runInference's best configuration, its figures and chart, styled under a strict CSP", async () => {
    const { page: tab, context, problems } = await open(ATTRIBUTES, STRICT_CSP);
    const best = plan(runInference(REQUEST));
    expect((await responseOf(tab)).best).toEqual(best);
    const answer = await shown(tab, '.answer');
    expect(answer).toContain(`TP ${best.tensor} · PP ${best.pipeline} · batch ${best.batch} · continuous batching`);
    expect(answer).toMatch(/^Best at ≤ 50 ms per token/);
    for (const name of ['ttft', 'tpot', 'gpu-rate', 'user-rate', 'memory']) expect(await tab.locator(`trainplan-serving [data-stat="${name}"]`).count()).toBe(1);
    expect(await shown(tab, '[data-stat="tpot"]')).toMatch(/ms\s+time per output token/);
    expect(await tab.locator('trainplan-serving svg.serving-frontier circle.dot').count()).toBe((runInference(REQUEST) as Served).frontier.length);
    expect(await tab.locator('trainplan-serving svg.memory rect.mem-kv').count()).toBe(1);
    // Styled under a strict CSP (a constructable stylesheet), with the series colour of the KV cache.
    const fill = await tab.locator('trainplan-serving svg.memory rect.mem-kv').evaluate((el) => getComputedStyle(el).fill);
    expect(fill).toMatch(/^rgb\(/);
    expect(fill).not.toBe('rgb(0, 0, 0)');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers again when a field changes: 16 GPUs give the replicas runInference gives, and the event carries request and response', async () => {
    const { page: tab, context, problems } = await open();
    await tab.evaluate(() => {
      document.addEventListener('trainplan-inference', (ev) => { (window as unknown as { last: unknown }).last = (ev as CustomEvent).detail; });
    });
    await field(tab, 'GPUs').fill('16');
    await waitFor(tab, 'el.request.gpus === 16');
    const best = plan(runInference({ ...REQUEST, gpus: 16 }));
    expect(best.replicas).toBeGreaterThanOrEqual(1);
    await expect.poll(() => shown(tab, '.answer')).toContain(`× ${best.replicas} replica`);
    expect(await shown(tab, '[data-stat="total-rate"]')).toContain('tokens/s on the 16 GPUs');
    const detail = await tab.evaluate(() => (window as unknown as { last: { request: InferenceRequest; response: Served } }).last);
    expect(detail.request).toEqual({ ...REQUEST, gpus: 16 });
    expect(detail.response.best).toEqual(best);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("typing a rate shows the load runInference gives (GPUs, how loaded, the wait for a slot, the first token with it); clearing it removes them", async () => {
    const { page: tab, context, problems } = await open();
    const loadStat = tab.locator('trainplan-serving [data-stat="load-gpus"]');
    expect(await loadStat.count()).toBe(0);
    await field(tab, 'Requests/s').fill('20');
    await waitFor(tab, 'el.request.requestsPerSecond === 20');
    const best = plan(runInference({ ...REQUEST, requestsPerSecond: 20 }));
    const load = best.load!;
    expect((await responseOf(tab)).best).toEqual(best);
    await expect.poll(() => shown(tab, '.answer')).toContain(`× ${load.replicas} replicas (${load.gpus} GPUs)`);
    expect(await loadStat.innerText()).toMatch(new RegExp(`^${load.gpus} GPUs\\s+${load.replicas} replicas for 20 requests/s$`));
    expect(await shown(tab, '[data-stat="utilization"]')).toMatch(/^\d+%\s+loaded \(slots in use\)$/);
    expect(await shown(tab, '[data-stat="queue"]')).toMatch(/mean wait for a slot$/);
    expect(await shown(tab, '[data-stat="ttft"]')).toMatch(/time to first token \(wait included\)$/);
    await field(tab, 'Requests/s').fill('');
    await waitFor(tab, 'el.request.requestsPerSecond === undefined');
    await expect.poll(() => loadStat.count()).toBe(0);
    expect(await tab.locator('trainplan-serving [data-stat="queue"]').count()).toBe(0);
    expect(await shown(tab, '[data-stat="ttft"]')).toMatch(/time to first token$/);
    expect((await responseOf(tab)).best).toEqual(plan(runInference(REQUEST)));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('choosing a draft model shows γ and α and the speculation runInference gives; an unreadable α under "none" blocks nothing, and none removes it', async () => {
    const { page: tab, context, problems } = await open();
    const specStat = tab.locator('trainplan-serving [data-stat="speculation"]');
    const tokensField = tab.locator('trainplan-serving [data-field="draft-tokens"]');
    expect(await specStat.count()).toBe(0);
    expect(await tokensField.isVisible()).toBe(false);
    expect(await tab.locator('trainplan-serving [data-field="acceptance"]').isVisible()).toBe(false);
    await field(tab, 'Draft model').selectOption('llama3.2-1b');
    await waitFor(tab, "el.request.speculative?.draftModel === 'llama3.2-1b'");
    const speculative = { draftModel: 'llama3.2-1b', draftTokens: 4, acceptanceRate: 0.7 };
    expect(await tab.locator('trainplan-serving').evaluate((el) => (el as Serving).request)).toEqual({ ...REQUEST, speculative });
    expect(await tokensField.isVisible()).toBe(true);
    expect(await field(tab, 'Draft tokens (γ)').inputValue()).toBe('4');
    expect(await field(tab, 'Acceptance (α, 0–1)').inputValue()).toBe('0.7');
    const best = plan(runInference({ ...REQUEST, speculative }));
    expect((await responseOf(tab)).best).toEqual(best);
    const tokens = formatGrouped(best.speculation!.tokensPerStep, 3);
    await expect.poll(() => specStat.count()).toBe(1);
    expect(await specStat.innerText()).toMatch(new RegExp(`^${tokens} tokens a step\\s+4 drafted, 70% accepted$`));
    expect(await shown(tab, '.answer')).toContain(`TP ${best.tensor} · PP 1 · batch ${best.batch} · continuous batching · speculative decoding with llama3.2-1b`);
    expect(await tab.locator('trainplan-serving svg.memory rect.mem-draft').count()).toBe(1);
    // γ 8 is asked and shown.
    await field(tab, 'Draft tokens (γ)').fill('8');
    await waitFor(tab, 'el.request.speculative?.draftTokens === 8');
    await expect.poll(() => specStat.innerText()).toMatch(/8 drafted, 70% accepted$/);
    // An unreadable α is named beside its field; under "none" it is hidden and blocks nothing.
    await field(tab, 'Acceptance (α, 0–1)').fill('1.5');
    await expect.poll(() => shown(tab, '#m-acceptance')).toContain('at most 1, got 1.5');
    await field(tab, 'Draft model').selectOption('');
    await waitFor(tab, 'el.request.speculative === undefined');
    await expect.poll(() => specStat.count()).toBe(0);
    expect(await tokensField.isVisible()).toBe(false);
    expect(await tab.locator('trainplan-serving #m-acceptance').isVisible()).toBe(false);
    expect(await tab.locator('trainplan-serving svg.memory rect.mem-draft').count()).toBe(0);
    expect(await shown(tab, '.answer')).not.toContain('speculative');
    expect(await shown(tab, '.status')).toBe('');
    expect((await responseOf(tab)).best).toEqual(plan(runInference(REQUEST)));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows an invalid value's issue beside its field (and the protocol's, fp8 on an A100, beside the precision), keeping the last answer", async () => {
    const { page: tab, context, problems } = await open();
    const before = await shown(tab, '.answer');
    await field(tab, 'Prompt (tokens)').fill('abc');
    await expect.poll(() => shown(tab, '#m-prompt')).toContain('not a number');
    expect(await field(tab, 'Prompt (tokens)').getAttribute('aria-invalid')).toBe('true');
    expect(await shown(tab, '.status')).toBe('Fix the marked field. Showing the last answer.');
    expect(await shown(tab, '.answer')).toBe(before);
    await field(tab, 'Prompt (tokens)').fill('2048');
    await field(tab, 'GPU').selectOption('a100-80gb');
    await field(tab, 'Precision').selectOption('fp8');
    await expect.poll(() => shown(tab, '#m-precision')).toContain('no FP8 tensor cores');
    // The remedy it names, in the form's labels (it said `kvCachePrecision "fp8"`), marks the KV cache too.
    expect(await shown(tab, '#m-precision')).toContain('(“Precision” bf16, “KV cache” fp8)');
    expect(await field(tab, 'KV cache').getAttribute('aria-invalid')).toBe('true');
    expect(await tab.locator('trainplan-serving #m-prompt').innerText()).toBe('');
    await field(tab, 'Precision').selectOption('');
    await waitFor(tab, "el.request.cluster.gpu === 'a100-80gb' && el.request.precision === undefined");
    expect(await shown(tab, '.status')).toBe('');
    // A shared prefix longer than the prompt: said beside it with the prompt's label ("at most promptTokens"), both marked.
    await field(tab, 'Shared prefix (tokens)').fill('4096');
    await expect.poll(() => shown(tab, '#m-shared-prefix')).toContain('at most “Prompt (tokens)” (2,048)');
    expect(await field(tab, 'Prompt (tokens)').getAttribute('aria-invalid')).toBe('true');
    expect(await field(tab, 'Shared prefix (tokens)').getAttribute('aria-invalid')).toBe('true');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says plainly when the model does not fit the GPUs given, with the protocol's message and what would hold it", async () => {
    const { page: tab, context, problems } = await open('model="llama3.1-405b" gpu="h100-sxm" prompt="2048" output="512" gpus="2"');
    const a = runInference({ ...REQUEST, model: 'llama3.1-405b', gpus: 2, maxDecodeSecondsPerToken: undefined }) as Served;
    expect(a.unservable).toBeDefined();
    expect(await shown(tab, '.answer')).toContain(a.unservable!);
    expect(await tab.locator('trainplan-serving [data-answer="unservable"]').count()).toBe(1);
    // The ways out, under the message: more GPUs than the 2 given, and FP8 weights on an H100.
    const remedies = await tab.locator('trainplan-serving [data-remedies] li').allInnerTexts();
    expect(remedies).toHaveLength(2);
    expect(remedies[0]).toMatch(/: more GPUs than the 2 given$/);
    expect(remedies[1]).toMatch(/^FP8 weights/);
    expect(await tab.locator('trainplan-serving [data-remedies]').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the shape fields with "custom shape…", answers for the shape typed (its issue beside its field), and hides them again under a preset', async () => {
    const { page: tab, context, problems } = await open();
    const shapeField = tab.locator('trainplan-serving [data-field="layers"]');
    expect(await shapeField.isVisible()).toBe(false);
    await field(tab, 'Model').selectOption('custom');
    expect(await shapeField.isVisible()).toBe(true);
    for (const label of ['Hidden size', 'Attention heads', 'KV heads', 'FFN size', 'Vocabulary', 'Gated MLP (SwiGLU)', 'Sequence length']) {
      expect(await field(tab, label).isVisible()).toBe(true);
    }
    // Llama 3 70B's shape (Meta's config.json), typed field by field.
    for (const [label, value] of [['Layers', '80'], ['Hidden size', '8192'], ['Attention heads', '64'], ['KV heads', '8'], ['FFN size', '28672'], ['Vocabulary', '128256']]) {
      await field(tab, label!).fill(value!);
    }
    await field(tab, 'Gated MLP (SwiGLU)').check();
    await waitFor(tab, 'el.request.model.gatedMlp === true && el.request.model.vocabSize === 128256');
    // A blank sequence length is the request's context, 2,048 prompt + 512 output tokens.
    const shape = { layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 128256, seqLength: 2560, gatedMlp: true, name: 'custom' };
    const request = await tab.locator('trainplan-serving').evaluate((el) => (el as Serving).request);
    expect(request).toEqual({ ...REQUEST, model: shape });
    const best = plan(runInference({ ...REQUEST, model: shape }));
    expect((await responseOf(tab)).best).toEqual(best);
    await expect.poll(() => shown(tab, '.answer')).toContain(`TP ${best.tensor} · PP ${best.pipeline} · batch ${best.batch}`);
    // 8,192 is no multiple of 60 heads: the protocol's issue shows beside the hidden size in the form's labels (it said
    // "attentionHeads", the wire name), and the heads it names are marked with it.
    await field(tab, 'KV heads').fill('');
    await field(tab, 'Attention heads').fill('60');
    await expect.poll(() => shown(tab, '#m-hidden-size')).toContain('must be a multiple of “Attention heads” (60)');
    expect(await field(tab, 'Hidden size').getAttribute('aria-invalid')).toBe('true');
    expect(await field(tab, 'Attention heads').getAttribute('aria-invalid')).toBe('true');
    expect(await shown(tab, '.status')).toBe('Fix the marked fields. Showing the last answer.');
    // Back to a preset: the shape's fields (and the message beside one) are hidden, and the preset is answered.
    await field(tab, 'Model').selectOption('llama3-70b');
    await waitFor(tab, "el.request.model === 'llama3-70b'");
    expect(await shapeField.isVisible()).toBe(false);
    expect(await tab.locator('trainplan-serving #m-hidden-size').isVisible()).toBe(false);
    expect((await responseOf(tab)).best).toEqual(plan(runInference(REQUEST)));
    expect(await shown(tab, '.status')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes a custom shape from attributes, as the estimator does (a bare gated is on)', async () => {
    const shapeAttributes = 'model="custom" layers="80" hidden-size="8192" heads="64" kv-heads="8" ffn="28672" vocab="128256" gated seq="8192"';
    const { page: tab, context, problems } = await open(`${shapeAttributes} gpu="h100-sxm" prompt="2048" output="512" max-token-ms="50"`);
    const shape = { layers: 80, hiddenSize: 8192, attentionHeads: 64, kvHeads: 8, ffnHiddenSize: 28672, vocabSize: 128256, seqLength: 8192, gatedMlp: true, name: 'custom' };
    expect(await tab.locator('trainplan-serving').evaluate((el) => (el as Serving).request)).toEqual({ ...REQUEST, model: shape });
    expect(await field(tab, 'Gated MLP (SwiGLU)').isChecked()).toBe(true);
    expect(await field(tab, 'Layers').inputValue()).toBe('80');
    expect((await responseOf(tab)).best).toEqual(plan(runInference({ ...REQUEST, model: shape })));
    // Unticked, the box reads false (a checkbox's value is "on" either way).
    await field(tab, 'Gated MLP (SwiGLU)').uncheck();
    await waitFor(tab, 'el.request.model.gatedMlp === false');
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([320, 436])("at %i px, no placeholder of the custom shape's or the draft's fields and no select option is cut off", async (width) => {
    // The custom shape's default vocabulary is GPT-3's 51,200 tokens: its draft is a GPT-3 too (a draft shares its target's tokenizer).
    const { page: tab, context } = await open('model="custom" draft-model="gpt3-126m"');
    await tab.setViewportSize({ width, height: 900 });
    expect(await field(tab, 'Sequence length').isVisible()).toBe(true);
    expect(await field(tab, 'Acceptance (α, 0–1)').isVisible()).toBe(true);
    expect(await clippedTexts(tab.locator('trainplan-serving'))).toEqual([]);
    await context.close();
  });

  it('asks the API (POST /v1/inference) with api="…", labels every control, and follows theme="dark"', async () => {
    const { page: tab, context, problems, apiCalls } = await open(`${ATTRIBUTES} api="${API}" theme="dark"`);
    expect(apiCalls).toContainEqual({ method: 'POST', path: '/v1/inference' });
    expect((await responseOf(tab)).best).toEqual(plan(runInference(REQUEST)));
    expect(await unlabelledControls(tab.locator('trainplan-serving'))).toEqual([]);
    const background = await tab.locator('trainplan-serving').evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    // Rec. 601 luma: a dark theme's background is dark.
    expect(0.299 * r! + 0.587 * g! + 0.114 * b!).toBeLessThan(60);
    expect(problems).toEqual([]);
    await context.close();
  });
});
