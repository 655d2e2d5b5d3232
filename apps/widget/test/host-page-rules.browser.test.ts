/// <reference lib="dom" />
// What a host page's own rules do to the elements' text, in a real browser (Debian's chromium, driven by playwright-core;
// never a downloaded one). A page rule matching the custom element itself (`*`) beats the shadow root's `:host` and is
// inherited inside: QA's dark docs site (`*{color:#e8e8e8;font-family:Georgia,serif;line-height:1.8}`) drew the form's
// text light on the widget's white box. Runs in the browser suite (test/e2e/vitest.config.ts), whose globalSetup
// installs chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems } from './support/browser-page.ts';
import { browserAndBundle } from './support/chromium.ts';

const ORIGIN = 'http://host-rules.test';
/** QA's dark docs site's rule and its aggressive page's (font size and line height) in one. */
const PAGE_RULE = '*{color:#e8e8e8;font-family:Georgia,serif;font-size:30px;line-height:3}';
/** Text inside each element: its root, a group's legend, a field's label, an input. */
const TEXTS = ['.tp', 'legend', 'label', 'input[type=text]'];

const { browser, bundle } = browserAndBundle();

/** Each of TEXTS' first element's colour, font family, size and line height in `tag`'s shadow root, on a page styled by `css`. */
async function textLook(tag: string, css: string): Promise<Record<string, string>[]> {
  const page: Page = await browser().newPage({ colorScheme: 'light' });
  const problems = pageProblems(page);
  await page.route(`${ORIGIN}/**`, (route) => (new URL(route.request().url()).pathname === '/w.js'
    ? route.fulfill({ contentType: 'text/javascript', body: bundle() })
    : route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>t</title>
<style>${css}</style><script type="module" src="/w.js"></script></head><body><${tag}></${tag}></body></html>` })));
  await page.goto(`${ORIGIN}/`);
  await page.locator(`${tag} form`).waitFor({ state: 'attached' });
  const look = await page.locator(tag).evaluate((el, selectors) => selectors.map((sel) => {
    const s = getComputedStyle(el.shadowRoot!.querySelector(sel)!);
    return { sel, color: s.color, fontFamily: s.fontFamily, fontSize: s.fontSize, lineHeight: s.lineHeight };
  }), TEXTS);
  expect(problems).toEqual([]);
  await page.close();
  return look;
}

describe("a host page's rules for every element, in Chromium", () => {
  it.each(['trainplan-estimator', 'trainplan-serving'])('leave %s\'s text colour, font, size and line height its own', async (tag) => {
    const plain = await textLook(tag, '');
    const styled = await textLook(tag, PAGE_RULE);
    expect(styled).toEqual(plain);
    // Its own: the light theme's foreground (#1b1f24) in 14 px system-ui at 1.45, not the page's.
    expect(plain[0]).toMatchObject({ color: 'rgb(27, 31, 36)', fontSize: '14px', lineHeight: `${14 * 1.45}px` });
    for (const look of styled) expect(look.fontFamily, look.sel).not.toContain('Georgia');
  });
});
