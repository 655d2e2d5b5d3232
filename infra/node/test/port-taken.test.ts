import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from './support/start-server.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let first: StartedServer | undefined;

beforeAll(async () => { first = await startServer(); }, 30_000);
afterAll(() => { first?.server.kill(); });

/** `npm start`'s entry on PORT and HOST: its exit status and everything it wrote. */
function runOn(port: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/node/src/main.ts'], {
    cwd: root, env: { ...process.env, PORT: port, HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const timer = setTimeout(() => child.kill(), 20_000);
  return new Promise((resolve) => child.on('exit', (code) => { clearTimeout(timer); resolve({ code, output }); }));
}

describe('npm start on a port already taken', () => {
  it('says so in one line naming PORT and exits 1, with no stack (newcomer QA: Node printed "Emitted \'error\' event" and its stack)', async () => {
    const port = new URL(first!.base).port;
    const { code, output } = await runOn(port);
    expect(code).toBe(1);
    expect(output.trim()).toBe(`trainplan: 127.0.0.1:${port} is already in use (another server there?); choose another with PORT=… (and HOST=…), e.g. PORT=9000 npm start`);
  }, 30_000);
});
