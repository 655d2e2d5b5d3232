import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface Server {
  readonly base: string;
  stop(): void;
}

/** `npm start`'s entry on 127.0.0.1 and an ephemeral port (PORT=0), as a fresh machine runs it. */
export async function startServer(): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'infra/node/src/main.ts'], {
    cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${stderr}`)); });
  });
  return { base, stop: () => { child.kill(); } };
}
