import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Its own suite in scripts/test.mjs: two live servers (Node, workerd) loaded one after the other, in
// one file, so the load never shares the machine's cores with another test file.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/load/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
