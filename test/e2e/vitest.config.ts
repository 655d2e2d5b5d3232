import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The browser suite: Debian chromium driven by playwright-core against `npm start`'s server. Not in
// the main config (it needs a real browser); scripts/test.mjs runs it as its own suite.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    // Browser tests of a package (apps/*/test/*.browser.test.ts) run here too, where chromium is ensured.
    include: ['test/e2e/test/**/*.test.ts', 'apps/*/test/**/*.browser.test.ts'],
    globalSetup: ['test/e2e/src/ensure-chromium.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
