import { defineConfig } from 'vitest/config';

// One run over every workspace package: each package's tests live in its own `test/` folder.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'infra/*/test/**/*.test.ts', 'test/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
