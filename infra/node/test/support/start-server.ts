import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface StartedServer {
  readonly server: ChildProcess;
  /** e.g. http://127.0.0.1:40123 */
  readonly base: string;
  /** Everything the server has written to stdout and stderr so far. */
  output(): string;
}

/**
 * `npm start`'s entry on Node (infra/node/src/main.ts), on 127.0.0.1 and a free port (PORT=0),
 * with `env` added to the environment; resolves once it says where it listens.
 */
export function startServer(env: Record<string, string> = {}): Promise<StartedServer> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'infra/node/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  return new Promise<StartedServer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    // Accumulated, not per chunk: the line may arrive split across reads.
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) { clearTimeout(timer); resolve({ server, base: m[1]!, output: () => output }); }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}
