import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// The Worker's suite (scripts/test.mjs SUITES): the tests run inside workerd, against the Worker
// that wrangler.toml builds, so Workers-only behaviour (no eval, Web APIs only) is the real thing.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
  test: {
    include: ['workerd-test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
