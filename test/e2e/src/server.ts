import { fileURLToPath } from 'node:url';
import { startServer as startLiveServer, type LiveServer } from '../../runtimes/src/live-server.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export type Server = LiveServer;

/** `npm start`'s entry on 127.0.0.1 and an ephemeral port (PORT=0), as a fresh machine runs it. */
export function startServer(): Promise<Server> {
  return startLiveServer({
    name: 'node', command: process.execPath, args: ['--import', 'tsx', 'infra/node/src/main.ts'], cwd: root,
    ready: /listening on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 30_000,
  });
}
