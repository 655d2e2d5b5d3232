import { describe, expect, it } from 'vitest';
import { buildWorkerBundle, WORKER_GZIP_BUDGET_BYTES } from './worker-bundle.ts';

describe('the Worker bundle', () => {
  it(`wrangler deploy --dry-run builds it, under ${WORKER_GZIP_BUDGET_BYTES / 1024} KB gzip`, () => {
    const bundle = buildWorkerBundle();
    expect(bundle.bytes).toBeGreaterThan(0);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(WORKER_GZIP_BUDGET_BYTES);
  });
});
