import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/commands/index.ts';
import { generalHelp } from '../src/help.ts';
import { main } from '../src/main.ts';
import { fakeIo } from './support/fake-io.ts';

/** The repository root, where a user pastes the help's examples (the README's commands run from there too). */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Every example of every help: the `  trainplan …` lines of the general help and of each command's. */
const examples = [generalHelp(commands), ...commands.map((c) => c.usage)]
  .flatMap((help) => help.split('\n').filter((line) => line.startsWith('  trainplan ')).map((line) => line.trim()));

/**
 * An example's arguments as a shell passes them, where it reads a file (`--input FILE` or `-i FILE`, not `-` for stdin):
 * words after `trainplan`, up to a redirection of stdout (`> /tmp/answers.json`), which the test captures instead.
 */
function fileReading(example: string): { args: string[]; file: string } | undefined {
  const words = example.split(/\s+/).slice(1);
  const redirect = words.indexOf('>');
  const args = redirect < 0 ? words : words.slice(0, redirect);
  const at = args.findIndex((w) => w === '--input' || w === '-i');
  const file = at < 0 ? undefined : args[at + 1];
  return file === undefined || file === '-' ? undefined : { args, file };
}

const reading = [...new Set(examples)].flatMap((example) => {
  const run = fileReading(example);
  return run === undefined ? [] : [{ example, ...run }];
});

/** The CLI's runtime with the real files under the repository root, as `trainplan` run there reads them. */
function repoIo() {
  const io = fakeIo();
  return { ...io, readFile: (path: string) => readFile(join(repoRoot, path), 'utf8') };
}

describe('the help examples that read a file run as written, from the repository root', () => {
  // QA: `trainplan estimate --input scenario.json` (top-level and estimate help) and `--input scenarios.json --json >
  // answers.json` exited 2, "cannot read scenario.json: no such file": no such file shipped.
  it('estimate\'s two file examples, and the general help\'s, are among them', () => {
    expect(reading.map((r) => r.example)).toEqual(expect.arrayContaining([
      'trainplan estimate --input examples/scenario.json',
      'trainplan estimate --input examples/scenarios.json --json > /tmp/answers.json',
    ]));
    expect(examples.filter((e) => e === 'trainplan estimate --input examples/scenario.json')).toHaveLength(2);
  });

  // QA: `… --json > answers.json`, pasted from the repository root as these examples are, left an untracked answers.json there.
  it('an example that redirects its output writes outside the repository: an absolute path under /tmp', () => {
    const targets = examples.flatMap((e) => [...e.matchAll(/\s>\s*(\S+)/g)].map((m) => m[1]!));
    expect(targets).toContain('/tmp/answers.json');
    for (const target of targets) expect(target).toMatch(/^\/tmp\//);
  });

  it.each(reading)('$example: exit 0, nothing on stderr', async ({ args }) => {
    const io = repoIo();
    const code = await main(args, io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(io.out()).not.toBe('');
  });

  it('examples/scenario.json is the contract\'s example scenario, and examples/scenarios.json an array of feasible ones', async () => {
    expect(JSON.parse(await readFile(join(repoRoot, 'examples/scenario.json'), 'utf8'))).toEqual(CONTRACT_EXAMPLE);
    const io = repoIo();
    expect(await main(['estimate', '--input', 'examples/scenarios.json', '--json'], io)).toBe(0);
    const answers = JSON.parse(io.out()) as { ok: boolean }[];
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.every((a) => a.ok)).toBe(true);
  });
});
