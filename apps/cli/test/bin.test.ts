import { spawnSync } from 'node:child_process';
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
});
