import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** The API Worker's config ("trainplan": the API, the chat routes forwarded through its CHAT binding), from infraDir. */
export const API_WORKER_CONFIG = 'wrangler.toml';
/** The chat Worker's config ("trainplan-chat": the chat bot, reached through that binding), from infraDir. */
export const CHAT_WORKER_CONFIG = 'chat/wrangler.toml';
/** Both Workers a deploy uploads, as the budget test and the bench report them. */
export const WORKER_CONFIGS = [
  { name: 'API Worker', config: API_WORKER_CONFIG },
  { name: 'chat Worker', config: CHAT_WORKER_CONFIG },
] as const;

/**
 * Each Worker's gzip budget: what `wrangler deploy` would upload, gzipped. Issue 5 asks for a bundle "under 250 KB
 * gzip": read as decimal kilobytes, 250,000 bytes, which also meets the binary reading (250 KiB, 256,000 bytes).
 */
export const WORKER_GZIP_BUDGET_BYTES = 250_000;

export interface WorkerBundle { bytes: number; gzipBytes: number }

/**
 * `wrangler deploy --dry-run --outdir`: builds the bundle `config` would upload into `outdir` (no upload, no account)
 * and returns the path of its main module (named after the config's `main`).
 */
export function buildWorkerInto(outdir: string, config: string = API_WORKER_CONFIG): string {
  const run = spawnSync(process.execPath, [wranglerCli, 'deploy', '--dry-run', '--outdir', outdir, '--config', config], {
    cwd: infraDir, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' }, timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run --config ${config} failed: ${run.stderr || run.stdout}`);
  const modules = readdirSync(outdir).filter((f) => f.endsWith('.js'));
  if (modules.length !== 1) throw new Error(`wrangler deploy --dry-run --config ${config}: expected one module in ${outdir}, found ${modules.join(', ') || 'none'}`);
  return join(outdir, modules[0]!);
}

/** The bundle `config` (default: the API Worker's) would upload, measured: its bytes and its gzip -9 bytes. */
export function buildWorkerBundle(config: string = API_WORKER_CONFIG): WorkerBundle {
  const outdir = mkdtempSync(join(tmpdir(), 'trainplan-worker-'));
  try {
    const code = readFileSync(buildWorkerInto(outdir, config));
    return { bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
