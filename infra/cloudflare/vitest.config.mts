import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { buildWorkerInto, CHAT_WORKER_CONFIG, infraDir } from './test/worker-bundle.ts';
import { CHAT_WORKER_SLACK_SECRET } from './workerd-test/chat-worker-env.ts';

// The Worker's suite (scripts/test.mjs SUITES): the tests run inside workerd, against the API Worker that wrangler.toml
// builds, so Workers-only behaviour (no eval, Web APIs only) is the real thing. Its CHAT service binding reaches the chat
// Worker (chat/wrangler.toml) as an auxiliary Worker, the bundle `wrangler deploy --dry-run` builds for it (an auxiliary
// Worker runs as built JavaScript, not through the suite's own transform), built each run into a folder of its own under
// .wrangler/ (ignored; workerd refuses a module outside this folder, so not the system's temp folder), removed on exit.
mkdirSync(`${infraDir}.wrangler`, { recursive: true });
const chatOutdir = mkdtempSync(`${infraDir}.wrangler/workerd-test-chat-`);
process.once('exit', () => rmSync(chatOutdir, { recursive: true, force: true }));
const chatWorker = buildWorkerInto(chatOutdir, CHAT_WORKER_CONFIG);
const chatCompatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(`${infraDir}${CHAT_WORKER_CONFIG}`, 'utf8'))?.[1];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [cloudflareTest({
    wrangler: { configPath: './wrangler.toml' },
    miniflare: {
      workers: [{
        // The name wrangler.toml's [[services]] binding names.
        name: 'trainplan-chat',
        modules: true,
        scriptPath: chatWorker,
        compatibilityDate: chatCompatibilityDate,
        bindings: { SLACK_SIGNING_SECRET: CHAT_WORKER_SLACK_SECRET },
      }],
    },
  })],
  test: {
    include: ['workerd-test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
