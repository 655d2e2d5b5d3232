import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildWidgetBundle } from '../../src/build.ts';

/** Debian's chromium: playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's chromium, headless. The browser suite's globalSetup (test/e2e/src/ensure-chromium.ts)
 * installs it on a fresh CI machine; a file run alone says what is missing instead of skipping.
 */
async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run this file in the browser suite (npx vitest run --config test/e2e/vitest.config.ts)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/**
 * A browser test file's chromium and the widget's bundle (built in-process, served by request routing):
 * made once before its tests, the browser closed after them.
 */
export function browserAndBundle(): { readonly browser: () => Browser; readonly bundle: () => string } {
  let browser: Browser | undefined;
  let bundle = '';
  beforeAll(async () => {
    bundle = (await buildWidgetBundle()).code;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => { await browser?.close(); });
  return { browser: () => browser!, bundle: () => bundle };
}
