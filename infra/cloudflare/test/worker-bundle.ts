import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const infraDir = fileURLToPath(new URL('..', import.meta.url));
/**
 * This workspace's wrangler (pinned to 4.86, the last line whose bin runs on Node 20; the Workers
 * vitest pool brings its own newer copy for the workerd suite).
 */
export const wranglerCli = fileURLToPath(import.meta.resolve('wrangler/package.json').replace('package.json', 'bin/wrangler.js'));

/** The Worker's gzip budget (250 KiB): what `wrangler deploy` would upload, gzipped. */
export const WORKER_GZIP_BUDGET_BYTES = 250 * 1024;

export interface WorkerBundle { bytes: number; gzipBytes: number }

/** `wrangler deploy --dry-run --outdir`: builds the bundle that would be uploaded and measures it. */
export function buildWorkerBundle(): WorkerBundle {
  const outdir = mkdtempSync(join(tmpdir(), 'trainplan-worker-'));
  try {
    const run = spawnSync(process.execPath, [wranglerCli, 'deploy', '--dry-run', '--outdir', outdir], {
      cwd: infraDir, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' }, timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed: ${run.stderr || run.stdout}`);
    const code = readFileSync(join(outdir, 'worker.js'));
    return { bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
