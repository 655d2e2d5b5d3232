import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServer, type LiveServer } from '../../runtimes/src/live-server.ts';
import { freePort, postGcHeap, type HeapUsage } from './heap.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// The wrangler infra/cloudflare depends on (wherever npm placed it), as test/runtimes does.
const wranglerBin = () => createRequire(`${root}infra/cloudflare/package.json`).resolve('wrangler/bin/wrangler.js');

export type RuntimeName = 'node' | 'workerd';

/** A live server and the process that serves its requests (whose memory the load test watches). */
export interface LoadTarget {
  server: LiveServer;
  /** The process whose isolate runs the API (for workerd, the Worker's runtime, not wrangler's proxy). */
  servingPid: number;
  /** The JS heap of the isolate that runs the API, right after a forced full collection. */
  postGcHeap(): Promise<HeapUsage>;
}

/** One cheap request, to give the server's isolate a turn (see postGcHeap). */
async function poke(base: string): Promise<void> {
  try { await (await fetch(`${base}/healthz`)).arrayBuffer(); } catch { /* the measurement's timeout reports a dead server */ }
}

/** Starts `npm start`'s entry on Node, or `wrangler dev`'s workerd, on 127.0.0.1 and a free port. */
export async function startRuntime(name: RuntimeName): Promise<LoadTarget> {
  // The V8 inspector of the isolate that serves, on a port chosen here (the servers print none for port 0).
  const inspectorPort = await freePort();
  if (name === 'node') {
    const server = await startServer({
      name, command: process.execPath, args: [`--inspect=127.0.0.1:${inspectorPort}`, '--import', 'tsx', 'infra/node/src/main.ts'], cwd: root,
      ready: /listening on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 60_000,
    });
    try {
      const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json() as { webSocketDebuggerUrl: string }[];
      // `node --import tsx main.ts` serves in the process it starts: no launcher in between.
      return { server, servingPid: server.pid, postGcHeap: () => postGcHeap(target!.webSocketDebuggerUrl, () => poke(server.base)) };
    } catch (e) {
      server.stop();
      throw e;
    }
  }
  const server = await startServer({
    name, command: process.execPath,
    args: [wranglerBin(), 'dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false'],
    cwd: `${root}infra/cloudflare`, env: { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    ready: /Ready on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 120_000,
  });
  // wrangler (Node) spawns two workerd processes: its proxy (which listens on the address printed and
  // serves the inspector proxy) and the runtime that runs the Worker, the one started with an
  // inspector address of its own. The Worker's runtime is the one whose memory matters.
  const workerd = descendants(server.pid).find((pid) => commandName(pid) === 'workerd' && commandLine(pid).includes('--inspector-addr'));
  if (workerd === undefined) { server.stop(); throw new Error('wrangler dev started no workerd process running the Worker'); }
  // wrangler's inspector proxy forwards to the Worker's isolate (the runtime admits one session, the proxy's).
  return { server, servingPid: workerd, postGcHeap: () => postGcHeap(`ws://127.0.0.1:${inspectorPort}/ws`, () => poke(server.base)) };
}

/** The command line of a process, its arguments joined by spaces (Linux /proc/<pid>/cmdline). */
function commandLine(pid: number): string {
  try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '); } catch { return ''; }
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
