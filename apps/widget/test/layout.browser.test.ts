/// <reference lib="dom" />
// The form's layout in a real browser (Debian's chromium, driven by playwright-core; never a downloaded one),
// at a phone's width, the width where the fieldsets' columns are narrowest, a tablet's and a desktop's.
// Runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup installs chromium.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidgetBundle } from '../src/build.ts';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run this file in the browser suite (npx vitest run --config test/e2e/vitest.config.ts)`);

const ORIGIN = 'http://layout.test';
/** model="custom" shows the custom shape's fields too (KV heads, FFN size carry placeholders). */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>t</title><script type="module" src="/w.js"></script></head>
<body style="margin:8px"><trainplan-estimator model="custom"></trainplan-estimator></body></html>`;
/**
 * 320 and 360: phones; 436: the fieldsets' grid (auto-fill, 7.5rem columns) has just gone to three columns,
 * each at its narrowest (a 106 px text box); 800: the form above the results; 1280: the form's 19rem column
 * beside them.
 */
const WIDTHS = [320, 360, 436, 800, 1280];
/** What Chromium's drop-down arrow takes from a select's content box (measured: 18–20 px at 14 px text). */
const SELECT_ARROW_PX = 20;

let browser: Browser;
let bundle: string;

beforeAll(async () => {
  bundle = (await buildWidgetBundle()).code;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 120_000);
afterAll(async () => { await browser?.close(); });

async function open(width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle })
    : route.fulfill({ contentType: 'text/html', body: PAGE })));
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => (document.querySelector('trainplan-estimator') as HTMLElement & { estimate?: unknown } | null)?.estimate !== undefined);
  return page;
}

/**
 * Each text a control shows that is wider than the room it has: an empty input's placeholder, and every
 * option of a select (any of them may be the one picked). Measured with the control's own font.
 */
function clipped(page: Page): Promise<string[]> {
  return page.locator('trainplan-estimator').evaluate((el, arrow) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const c of el.shadowRoot!.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[placeholder], select')) {
      const s = getComputedStyle(c);
      ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const isSelect = c instanceof HTMLSelectElement;
      const room = c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - (isSelect ? arrow : 0);
      const texts = isSelect ? [...c.options].map((o) => o.text) : [c.placeholder];
      for (const t of texts) {
        const w = ctx.measureText(t).width;
        if (w > room) out.push(`${c.name}: "${t}" is ${w.toFixed(0)} px in ${room.toFixed(0)} px`);
      }
    }
    return out;
  }, SELECT_ARROW_PX);
}

describe("the widget's form, in Chromium", () => {
  it.each(WIDTHS)('at %i px, no placeholder and no select option is cut off', async (width) => {
    const page = await open(width);
    expect(await page.locator('trainplan-estimator [data-field=ffn]').isVisible()).toBe(true);
    expect(await clipped(page)).toEqual([]);
    await page.close();
  });
});
