import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { commands } from '../src/commands/index.ts';
import { main } from '../src/main.ts';
import { fakeIo } from './support/fake-io.ts';

async function run(argv: string[], stdin?: string) {
  const io = fakeIo(stdin === undefined ? {} : { stdin });
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('trainplan (no command)', () => {
  it.each([[['--help']], [['-h']], [['help']], [['help', '--help']], [['help', '-h']], [['help', 'help']]])('%j lists every command with its summary and exits 0', async (argv) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain('Usage: trainplan <command> [options]');
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const command of commands) expect(out).toMatch(new RegExp(`^  ${command.name} +${literal(command.summary)}$`, 'm'));
    expect(out).toMatch(/^ {2}help +/m);
  });

  it('no command at all is a usage error: the usage and the commands on stderr, nothing on stdout, exit 2', async () => {
    const { code, out, err } = await run([]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('trainplan: missing the command (commands: estimate, ');
    expect(err).toContain('Usage: trainplan <command> [options]');
    expect(err).toContain("run 'trainplan --help'");
  });

  it('the general help has examples: one per command, each the first example of that command\'s own help', async () => {
    const { out } = await run(['--help']);
    const examples = out.slice(out.indexOf('\nExamples:\n')).split('\n').filter((line) => line.startsWith('  trainplan '));
    for (const command of commands) {
      const own = examples.find((line) => line.startsWith(`  trainplan ${command.name} `));
      expect(own, command.name).toBeDefined();
      expect(command.usage, command.name).toContain(own!);
    }
    expect(examples).toContain('  trainplan help search');
  });

  it.each(commands.map((c) => [c.name, c]))('%s --help lists every flag the command accepts, with its short form', (_, command) => {
    // The Options section alone: the usage line and the examples name flags too.
    const start = command.usage.indexOf('\nOptions:\n');
    expect(start, command.name).toBeGreaterThan(0);
    const options = command.usage.slice(start, command.usage.indexOf('\n\n', start + 1));
    const listed = (flag: string) => new RegExp(`(^|[\\s,|(])${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s,|)]|$)`, 'm').test(options);
    const missing = Object.entries(command.flags).flatMap(([name, spec]) => [
      ...(listed(`--${name}`) ? [] : [`--${name}`]),
      ...(spec.short === undefined || listed(`-${spec.short}`) ? [] : [`-${spec.short}`]),
    ]);
    expect(missing, command.name).toEqual([]);
  });

  it.each([[['help', 'search', '--help']], [['help', '--help', 'search']], [['help', 'search', '-h']], [['--help', 'search']], [['-h', 'search']]])('%j prints that command\'s help and exits 0', async (argv) => {
    const { code, out, err } = await run(argv);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.startsWith('Usage: trainplan search ')).toBe(true);
  });

  it.each([[['--version', 'extra']], [['-v', '--json']], [['--help', 'search', 'extra']]])('%j: an argument after them is a usage error, not dropped without a word', async (argv) => {
    const { code, out, err } = await run(argv);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(/^trainplan: unexpected argument '(extra|--json)' \(usage: trainplan /);
  });

  it.each([['--version'], ['-v']])('%s prints the version of package.json', async (flag) => {
    expect(await run([flag])).toEqual({ code: 0, out: `${packageJson.version}\n`, err: '' });
  });

  it('the registry holds the estimate command first, and no serve command yet', () => {
    expect(commands[0]?.name).toBe('estimate');
    expect(commands.map((c) => c.name)).not.toContain('serve');
  });

  // Each area registers its own commands (commands/index.ts), so the list is read from the registry.
  const known = [...commands.map((c) => c.name), 'help'].join(', ');
  it.each([
    [['serve'], `trainplan: unknown command 'serve' (commands: ${known})`],
    [['estimat'], `trainplan: unknown command 'estimat': did you mean 'estimate'? (commands: ${known})`],
    [['nod'], `trainplan: unknown command 'nod': did you mean 'nodes'? (commands: ${known})`],
    [['xyz'], `trainplan: unknown command 'xyz' (commands: ${known})`],
    [['--verison'], 'trainplan: unknown flag --verison: did you mean --version? (usage: trainplan <command> [options]; see trainplan --help)'],
    [['help', 'serve'], `trainplan: unknown command 'serve' (commands: ${known})`],
    [['--json'], 'trainplan: unknown flag --json (usage: trainplan <command> [options]; see trainplan --help)'],
    [['help', 'estimate', 'extra'], "trainplan: unexpected argument 'extra' (usage: trainplan help [<command>])"],
    [['help', '--json'], 'trainplan: unknown flag --json (usage: trainplan help [<command>])'],
  ])('%j is a usage error (exit 2) that lists the real commands or names the flag', async (argv, message) => {
    expect(await run(argv)).toEqual({ code: 2, out: '', err: `${message}\n` });
  });

  it('never throws nor prints a stack: a failure inside a command is one "internal error" line, exit 70', async () => {
    const io = fakeIo();
    const code = await main(['--help'], { ...io, stdout: () => { throw new Error('EPIPE\n    at write (node:net)'); } });
    expect(code).toBe(70);
    expect(io.err()).toBe('trainplan: internal error: EPIPE at write (node:net)\n');
  });
});

describe('trainplan estimate --help', () => {
  const usageArgs = [[['estimate', '--help']], [['estimate', '-h']], [['help', 'estimate']]];

  it.each(usageArgs)('%j prints the usage line, the flags and the exit codes', async (argv) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.startsWith('Usage: trainplan estimate --input FILE|- [--emulate] [--json]\n')).toBe(true);
    expect(out).toContain('-i, --input FILE|-');
    expect(out).toContain('--json');
    expect(out).toMatch(/^ {2}0 +every scenario is feasible$/m);
    expect(out).toMatch(/^ {2}1 +some scenario is infeasible/m);
    expect(out).toMatch(/^ {2}2 +usage error/m);
  });

  it('has three examples: from a file, from stdin with a heredoc, and with --json', async () => {
    const { out } = await run(['estimate', '--help']);
    const examples = out.split('\n').filter((line) => line.startsWith('  trainplan estimate'));
    expect(examples).toEqual([
      '  trainplan estimate --input examples/scenario.json',
      "  trainplan estimate --input - <<'EOF'",
      '  trainplan estimate --input examples/scenarios.json --json > /tmp/answers.json',
    ]);
  });

  it('the heredoc example is a feasible scenario: pasting it works', async () => {
    const { out } = await run(['estimate', '--help']);
    const heredoc = /<<'EOF'\n([\s\S]*?)\n {2}EOF\n/.exec(out)?.[1];
    expect(heredoc).toBeDefined();
    const result = await run(['estimate', '--input', '-'], heredoc);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
  });
});
