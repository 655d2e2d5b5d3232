import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's chromium; playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Vitest globalSetup: a fresh CI machine has no chromium, so install Debian's when we are root
 * (apt-get update, apt-get install -y chromium). Anything else fails the suite loudly: a browser
 * suite that skips would report green without testing anything.
 */
export default function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) throw new Error(`${CHROMIUM} is missing and we are not root to apt-get install it; install Debian's chromium first`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (status ${r.status ?? r.error?.message}); the browser suite cannot run`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}
