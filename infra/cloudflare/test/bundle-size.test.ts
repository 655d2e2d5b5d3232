import { describe, expect, it } from 'vitest';
import { buildWorkerBundle, WORKER_CONFIGS, WORKER_GZIP_BUDGET_BYTES } from './worker-bundle.ts';

// Issue 5: the Worker bundle "under 250 KB gzip". Each Worker a deploy uploads is held to it in decimal kilobytes
// (250,000 bytes), which also meets the binary reading (250 KiB): the API Worker, and the chat Worker it forwards the
// chat bot's requests to, whose question answerer would not fit beside the API in one bundle.
describe('the Worker bundles', () => {
  const workers = WORKER_CONFIGS.map(({ name, config }) => [name, config] as const);
  it.each(workers)(`wrangler deploy --dry-run builds the %s (%s), under ${WORKER_GZIP_BUDGET_BYTES.toLocaleString('en-US')} B (250 KB) gzip`, (_, config) => {
    const bundle = buildWorkerBundle(config);
    expect(bundle.bytes).toBeGreaterThan(0);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(WORKER_GZIP_BUDGET_BYTES);
  });
});
