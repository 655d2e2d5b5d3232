import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { contractScenario } from './support/scenarios.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'trainplan-cli-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run { status: number | null; stdout: string; stderr: string; path: 'hit' | 'miss' | 'off' }

/** Runs a bin with the cache's debug line on, and splits that line (which path ran) from what a user sees. */
function runBin(root: string, args: string[], env: Record<string, string>, input = ''): Run {
  const child = spawnSync(process.execPath, ['apps/cli/bin/trainplan.mjs', ...args], {
    cwd: root, input, encoding: 'utf8', timeout: 120_000,
    env: { ...process.env, TRAINPLAN_CACHE_DEBUG: '1', ...env },
  });
  return parse(child.status, child.stdout, child.stderr);
}

function parse(status: number | null, stdout: string, stderr: string): Run {
  const lines = stderr.split(/(?<=\n)/);
  const debug = lines.filter((l) => l.startsWith('trainplan: cache: ')).join('');
  const path = /: hit /.test(debug) ? 'hit' : /: off /.test(debug) ? 'off' : 'miss';
  return { status, stdout, stderr: lines.filter((l) => !l.startsWith('trainplan: cache: ')).join(''), path };
}

const seen = (run: Run) => ({ status: run.status, stdout: run.stdout, stderr: run.stderr });

describe('the CLI bundle cache (bin/cli-cache.mjs) on the real CLI', () => {
  it('the second run imports the bundle, and --help, estimate and a usage error answer byte for byte as through tsx', () => {
    const cache = join(scratch, 'real', 'not-yet-created');
    const estimate = JSON.stringify(contractScenario);
    const first = runBin(repoRoot, ['--help'], { TRAINPLAN_CACHE_DIR: cache });
    expect(first.path).toBe('miss');
    const cases: [string[], string][] = [[['--help'], ''], [['estimate', '--input', '-', '--json'], estimate], [['estimate', '--no-such-flag'], '']];
    for (const [args, input] of cases) {
      const tsx = runBin(repoRoot, args, { TRAINPLAN_NO_CACHE: '1' }, input);
      const bundled = runBin(repoRoot, args, { TRAINPLAN_CACHE_DIR: cache }, input);
      expect(tsx.path).toBe('off');
      expect(bundled.path).toBe('hit');
      expect(seen(bundled)).toEqual(seen(tsx));
    }
    expect(seen(first)).toEqual(seen(runBin(repoRoot, ['--help'], { TRAINPLAN_NO_CACHE: '1' })));
  }, 300_000);
});

/**
 * A CLI of two small files laid out as the repository is (apps/cli/src, packages/<name>/src) with a copy of the bin,
 * so the tests can edit sources without touching the repository's; node_modules is the repository's (tsx, esbuild).
 */
function fakeRepo(name: string): { root: string; cache: string; greeting: string } {
  const root = join(scratch, name);
  mkdirSync(join(root, 'apps/cli/bin'), { recursive: true });
  mkdirSync(join(root, 'apps/cli/src'), { recursive: true });
  mkdirSync(join(root, 'packages/greeting/src'), { recursive: true });
  for (const file of ['trainplan.mjs', 'cli-cache.mjs']) copyFileSync(join(repoRoot, 'apps/cli/bin', file), join(root, 'apps/cli/bin', file));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const greeting = join(root, 'packages/greeting/src/index.ts');
  writeFileSync(greeting, "export const greeting: string = 'hello';\n");
  // Echoes its stdin and exits with the code its first argument names: the bin's stdin and exit status, end to end.
  writeFileSync(join(root, 'apps/cli/src/main.ts'), [
    "import { greeting } from '../../../packages/greeting/src/index.ts';",
    'export async function main(argv: string[], io: { stdout(s: string): void; readStdin(): Promise<string> }): Promise<number> {',
    '  io.stdout(`${greeting} ${await io.readStdin()}\\n`);',
    '  return Number(argv[0] ?? 0);',
    '}',
    '',
  ].join('\n'));
  return { root, cache: join(root, 'cache'), greeting };
}

describe('the CLI bundle cache never runs stale code and never fails the CLI', () => {
  it('an edit to a package source, even one that keeps its size, is not served from the old bundle', () => {
    const { root, cache, greeting } = fakeRepo('edit');
    const env = { TRAINPLAN_CACHE_DIR: cache };
    expect(runBin(root, ['3'], env, 'in')).toEqual({ status: 3, stdout: 'hello in\n', stderr: '', path: 'miss' });
    expect(runBin(root, ['3'], env, 'in')).toEqual({ status: 3, stdout: 'hello in\n', stderr: '', path: 'hit' });
    writeFileSync(greeting, "export const greeting: string = 'HELLO';\n");
    expect(runBin(root, [], env)).toEqual({ status: 0, stdout: 'HELLO \n', stderr: '', path: 'miss' });
    expect(runBin(root, [], env).path).toBe('hit');
  }, 120_000);

  it('touching a source (its mtime alone) is a new key: the next run goes through tsx again', () => {
    const { root, cache, greeting } = fakeRepo('touch');
    const env = { TRAINPLAN_CACHE_DIR: cache };
    runBin(root, [], env);
    expect(runBin(root, [], env).path).toBe('hit');
    utimesSync(greeting, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(runBin(root, [], env).path).toBe('miss');
    expect(runBin(root, [], env).path).toBe('hit');
    expect(readdirSync(cache).filter((f) => f.endsWith('.mjs'))).toHaveLength(1);
  }, 120_000);

  it('concurrent first runs all answer, and leave one whole bundle and no temporary or lock file', async () => {
    const { root, cache } = fakeRepo('concurrent');
    const runs = await Promise.all(Array.from({ length: 4 }, () => new Promise<Run>((resolve) => {
      const child = spawn(process.execPath, ['apps/cli/bin/trainplan.mjs'], {
        cwd: root, env: { ...process.env, TRAINPLAN_CACHE_DIR: cache, TRAINPLAN_CACHE_DEBUG: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
      child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
      child.on('close', (status) => resolve(parse(status, stdout, stderr)));
    })));
    for (const run of runs) expect(seen(run)).toEqual({ status: 0, stdout: 'hello \n', stderr: '' });
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.mjs$/)]);
    expect(runBin(root, [], { TRAINPLAN_CACHE_DIR: cache }).path).toBe('hit');
  }, 120_000);

  it('a bundle that will not import falls back to tsx without a word, and is rewritten', () => {
    const { root, cache } = fakeRepo('damaged');
    runBin(root, [], { TRAINPLAN_CACHE_DIR: cache });
    const [bundle] = readdirSync(cache);
    writeFileSync(join(cache, bundle!), 'export const main = (;\n');
    expect(runBin(root, ['0'], { TRAINPLAN_CACHE_DIR: cache, TRAINPLAN_CACHE_DEBUG: '' }, 'x'))
      .toEqual({ status: 0, stdout: 'hello x\n', stderr: '', path: 'miss' });
    expect(runBin(root, [], { TRAINPLAN_CACHE_DIR: cache }).path).toBe('hit');
  }, 120_000);

  it('TRAINPLAN_NO_CACHE=1, and module hooks in the process (--import), run through tsx even with a bundle', () => {
    const { root, cache } = fakeRepo('off');
    runBin(root, [], { TRAINPLAN_CACHE_DIR: cache });
    expect(runBin(root, [], { TRAINPLAN_CACHE_DIR: cache }).path).toBe('hit');
    expect(runBin(root, [], { TRAINPLAN_CACHE_DIR: cache, TRAINPLAN_NO_CACHE: '1' }).path).toBe('off');
    expect(runBin(root, [], { TRAINPLAN_CACHE_DIR: cache, NODE_OPTIONS: '--import=data:text/javascript,' }).path).toBe('off');
  }, 120_000);
});
