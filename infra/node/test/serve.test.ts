import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real thing: `npm start`'s entry on Node, on 127.0.0.1 and a free port (PORT=0).
const root = fileURLToPath(new URL('../../../', import.meta.url));
let server: ChildProcess;
let base = '';

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'infra/node/src/main.ts'], {
    cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    server.stdout!.on('data', (chunk: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}, 30_000);

afterAll(() => { server?.kill(); });

describe('npm start on Node', () => {
  it('answers /healthz', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(await res.json()).toEqual({ ok: true });
  });
  it('estimates the contract example over HTTP', async () => {
    const res = await fetch(`${base}/v1/estimate`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });
  it('serves the landing page at /', async () => {
    expect(await (await fetch(`${base}/`)).text()).toContain('POST /v1/estimate');
  });
});
