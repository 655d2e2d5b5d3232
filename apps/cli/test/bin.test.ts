import { spawn, spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contractScenario } from './support/scenarios.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('bin/trainplan.mjs (a real Node process)', () => {
  it('estimate --input - --json reads stdin, prints the JSON answer and exits 0', () => {
    const child = spawnSync(process.execPath, ['apps/cli/bin/trainplan.mjs', 'estimate', '--input', '-', '--json'], {
      cwd: repoRoot,
      input: JSON.stringify(contractScenario),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toMatchObject({ ok: true, stepTimeSeconds: expect.any(Number) });
  });

  it('--input - fed without end (/dev/zero) stops past 64 MiB with one line and exit 2, not unbounded memory (security QA: 7 GB in 19 s)', () => {
    const child = spawnSync(process.execPath, ['apps/cli/bin/trainplan.mjs', 'estimate', '--input', '-'], {
      cwd: repoRoot, stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'], encoding: 'utf8', timeout: 60_000,
    });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: 2, stdout: '', stderr: 'trainplan: --input: cannot read stdin: more than 64 MiB, far past any request (a scenario is a few hundred bytes)\n',
    });
  });

  it('--input FILE reads at most 64 MiB too (/dev/zero, a device of no size)', () => {
    const child = spawnSync(process.execPath, ['apps/cli/bin/trainplan.mjs', 'estimate', '--input', '/dev/zero'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(child.status).toBe(2);
    expect(child.stderr).toBe('trainplan: --input: cannot read /dev/zero: more than 64 MiB, far past any request (a scenario is a few hundred bytes)\n');
  });

  it('a CLI that cannot load (a module that fails to resolve) is one "internal error" line and exit 70, not a stack', () => {
    const failing = 'export async function resolve(s, c, next) { if (s.endsWith("/src/main.ts")) throw new Error("boom"); return next(s, c); }';
    const hook = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(failing)}`)});`;
    const child = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, 'apps/cli/bin/trainplan.mjs', '--version'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: 70, stdout: '', stderr: 'trainplan: internal error: cannot load the CLI: boom\n',
    });
  });

  it('a stderr whose reader is gone (`2>&1 | head -1`) is not an error: the answer still goes to stdout, exit 0', async () => {
    // No --global-batch: the "assumed" line goes to stderr, whose pipe is closed before the CLI writes to it.
    const child = spawn(process.execPath, ['apps/cli/bin/trainplan.mjs', 'search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '128', '--json'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.destroy();
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(status).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ ok: true });
  }, 60_000);
});
