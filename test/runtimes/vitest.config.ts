import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Its own suite in scripts/test.mjs: three live servers, started once, in one file.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/runtimes/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
