import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServer, type LiveServer } from '../../runtimes/src/live-server.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// The wrangler infra/cloudflare depends on (wherever npm placed it), as test/runtimes does.
const wranglerBin = () => createRequire(`${root}infra/cloudflare/package.json`).resolve('wrangler/bin/wrangler.js');

export type RuntimeName = 'node' | 'workerd';

/** A live server and the process that serves its requests (whose memory the load test watches). */
export interface LoadTarget { server: LiveServer; servingPid: number }

/** Starts `npm start`'s entry on Node, or `wrangler dev`'s workerd, on 127.0.0.1 and a free port. */
export async function startRuntime(name: RuntimeName): Promise<LoadTarget> {
  if (name === 'node') {
    const server = await startServer({
      name, command: process.execPath, args: ['--import', 'tsx', 'infra/node/src/main.ts'], cwd: root,
      ready: /listening on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 60_000,
    });
    // `node --import tsx main.ts` serves in the process it starts: no launcher in between.
    return { server, servingPid: server.pid };
  }
  const server = await startServer({
    name, command: process.execPath,
    args: [wranglerBin(), 'dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0', '--show-interactive-dev-session=false'],
    cwd: `${root}infra/cloudflare`, env: { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    ready: /Ready on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 120_000,
  });
  // wrangler (Node) spawns workerd, which runs the Worker: its memory is the one that matters.
  const workerd = descendants(server.pid).find((pid) => commandName(pid) === 'workerd');
  if (workerd === undefined) { server.stop(); throw new Error('wrangler dev started no workerd process'); }
  return { server, servingPid: workerd };
}

/** The command name of a process (Linux /proc/<pid>/comm). */
function commandName(pid: number): string {
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return ''; }
}

/** Every live descendant of a process, from the parent links in /proc/<pid>/stat (Linux). */
export function descendants(ancestor: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces, inside parentheses): state, ppid, …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch { /* the process ended while we looked */ }
  }
  const found: number[] = [];
  const frontier = [ancestor];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) if (ppid === parent) { found.push(pid); frontier.push(pid); }
  }
  return found;
}
