import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { EXIT, commands, main, type CliIo } from '@trainplan/cli';
import { caseCounter, hostileScalar, hostileText } from '../src/index.ts';

const counter = caseCounter('cli-fuzz');

/** An in-memory terminal: stdin and one file hold hostile text. */
function io(stdin: string, file: string) {
  let out = '';
  let err = '';
  const cli: CliIo = {
    stdout: (s) => { out += s; },
    stderr: (s) => { err += s; },
    readStdin: async () => stdin,
    readFile: async (path) => {
      if (path === 'scenario.json') return file;
      throw Object.assign(new Error(`ENOENT: open '${path}'`), { code: 'ENOENT' });
    },
  };
  return { cli, out: () => out, err: () => err };
}

/** Every flag a command documents, read from its own help text, so new commands are fuzzed too. */
const flagsOf = (usage: string) => [...new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])];

const argvFor = (command: (typeof commands)[number]) => {
  const flags = flagsOf(command.usage);
  const word = fc.oneof(
    fc.constantFrom(...flags, '-', 'scenario.json', 'missing.json', '--', '-x', '--no-such-flag', '=', ''),
    hostileScalar.map((v) => String(v).slice(0, 200)),
  );
  return fc.array(word, { maxLength: 8 }).map((rest) => [command.name, ...rest]);
};

describe('every CLI command under random arguments and hostile input', () => {
  it.each(commands.map((c) => [c.name, c] as const))('trainplan %s: exits 0, 1 or 2 with a message, never an internal error', async (_name, command) => {
    await fc.assert(fc.asyncProperty(argvFor(command), hostileText, fc.oneof(hostileText, fc.constant(JSON.stringify(CONTRACT_EXAMPLE))), async (argv, stdin, file) => {
      counter.add();
      const t = io(stdin, file);
      const code = await main(argv, t.cli);
      expect([EXIT.ok, EXIT.infeasible, EXIT.usage], `${JSON.stringify(argv)} → ${code}: ${t.err()}`).toContain(code);
      if (code === EXIT.usage) expect(t.err().trim().length).toBeGreaterThan(0);
      expect(t.err()).not.toMatch(/\n\s+at /); // never a stack trace
    }), { numRuns: 400 });
  });
});

afterAll(() => {
  expect(counter.count).toBeGreaterThanOrEqual(counter.floor);
});
