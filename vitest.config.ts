import { defineConfig } from 'vitest/config';

// One run over every workspace package: each package's tests live in its own `test/` folder.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'infra/*/test/**/*.test.ts', 'test/*/test/**/*.test.ts'],
    // Browser tests run in the browser suite (test/e2e/vitest.config.ts), which installs chromium first.
    exclude: ['**/node_modules/**', 'test/e2e/**', '**/*.browser.test.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
