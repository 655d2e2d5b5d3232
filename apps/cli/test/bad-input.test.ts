import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { fakeIo } from './support/fake-io.ts';
import { contractScenario, withParallelism, withTraining } from './support/scenarios.ts';

const USAGE = '(usage: trainplan estimate --input FILE|- [--emulate] [--json])';
const json = (value: unknown) => JSON.stringify(value);

interface BadInput {
  input: string;
  /** The arguments after `estimate`. */
  argv: string[];
  stdin: string;
  exit: number;
  /** The start of the single stderr line (the whole line where it is short enough to spell out). */
  stderr: string;
}

const cases: BadInput[] = [
  { input: 'a parallel degree of 0', argv: ['-i', '-'], stdin: json(withParallelism({ tensor: 0 })), exit: 1,
    stderr: 'trainplan: parallelism.tensor: expected an integer ≥ 1, got 0\n' },
  { input: 'a misspelt field', argv: ['-i', '-'], stdin: json(withParallelism({ tensr: 8 })), exit: 1,
    stderr: 'trainplan: parallelism.tensr: unknown field' },
  { input: 'an unknown precision', argv: ['-i', '-'], stdin: json(withTraining({ precision: 'fp32' })), exit: 1,
    stderr: 'trainplan: training.precision: ' },
  { input: 'an unknown GPU preset', argv: ['-i', '-'],
    stdin: json({ ...contractScenario, cluster: { ...contractScenario.cluster, gpu: 'a100-81gb' } }), exit: 1,
    stderr: 'trainplan: cluster.gpu: ' },
  { input: 'a bad field in the 2nd scenario of an array', argv: ['-i', '-'],
    stdin: json([contractScenario, withParallelism({ pipeline: -1 })]), exit: 1, stderr: 'trainplan: [1].parallelism.pipeline: ' },
  // As the API's 400 says it (QA: the API said "expected an array of 1 to 1024 scenarios, got 0").
  { input: 'an empty array', argv: ['-i', '-'], stdin: '[]', exit: 1,
    stderr: 'trainplan: expected a scenario or a non-empty array of scenarios, got an empty array\n' },
  { input: 'a number instead of a scenario', argv: ['-i', '-'], stdin: '42', exit: 1,
    stderr: 'trainplan: expected a scenario object, got 42\n' },
  { input: 'a trailing comma', argv: ['-i', '-'], stdin: '{"model":"gpt3-175b",}', exit: 2,
    stderr: "trainplan: --input: not valid JSON (unexpected '}' at position 21, line 1, column 22)\n" },
  { input: 'a truncated file', argv: ['-i', '-'], stdin: '{\n  "model": "gpt3-175b",\n', exit: 2,
    stderr: 'trainplan: --input: not valid JSON (unexpected end of input at position 26, line 3, column 1)\n' },
  { input: 'text that is not JSON', argv: ['-i', '-'], stdin: 'model: gpt3-175b', exit: 2,
    stderr: "trainplan: --input: not valid JSON (unexpected 'm' at position 0, line 1, column 1)\n" },
  { input: 'empty stdin', argv: ['-i', '-'], stdin: ' \n', exit: 2,
    stderr: 'trainplan: --input: stdin is empty (expected a scenario as JSON)\n' },
  { input: 'a missing file', argv: ['--input', 'nope.json'], stdin: '', exit: 2,
    stderr: 'trainplan: --input: cannot read nope.json: no such file\n' },
  { input: 'no --input', argv: ['--json'], stdin: '', exit: 2,
    stderr: `trainplan: missing --input: give a scenario FILE, or - for stdin ${USAGE}\n` },
  { input: 'an unknown flag', argv: ['-i', '-', '--frobnicate'], stdin: '', exit: 2,
    stderr: `trainplan: unknown flag --frobnicate ${USAGE}\n` },
  { input: 'an unknown short flag', argv: ['-x'], stdin: '', exit: 2, stderr: `trainplan: unknown flag -x ${USAGE}\n` },
  { input: '--input without a value', argv: ['--input'], stdin: '', exit: 2,
    stderr: `trainplan: --input needs FILE, or - for stdin ${USAGE}\n` },
  { input: '--input followed by a flag', argv: ['--input', '--json'], stdin: '', exit: 2,
    stderr: `trainplan: --input needs FILE, or - for stdin, got the flag --json ${USAGE}\n` },
  { input: '--json with a value', argv: ['-i', '-', '--json=yes'], stdin: '', exit: 2,
    stderr: `trainplan: --json does not take a value ${USAGE}\n` },
  { input: 'a stray argument', argv: ['-i', '-', 'scenario.json'], stdin: '', exit: 2,
    stderr: `trainplan: unexpected argument 'scenario.json' ${USAGE}\n` },
];

async function estimate(argv: string[], stdin: string) {
  const io = fakeIo({ stdin });
  const code = await main(['estimate', ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

describe('trainplan estimate: bad input', () => {
  it.each(cases)('$input: exit $exit, one stderr line naming the field or flag', async ({ argv, stdin, exit, stderr }) => {
    const { code, err } = await estimate(argv, stdin);
    expect(code).toBe(exit);
    expect(err.split('\n')).toEqual([expect.stringMatching(/^trainplan: /), '']); // exactly one line
    expect(err.startsWith(stderr)).toBe(true);
  });

  it.each(cases.filter((c) => c.exit === 2))('$input: nothing on stdout', async ({ argv, stdin }) => {
    expect((await estimate(argv, stdin)).out).toBe('');
  });

  it.each(cases.filter((c) => c.exit === 1))('$input, with --json: stdout is the ok:false answer, stderr the same line', async ({ argv, stdin, stderr }) => {
    const { code, out, err } = await estimate([...argv, '--json'], stdin);
    expect(code).toBe(1);
    const answer = JSON.parse(out) as { ok: boolean } | { ok: boolean }[];
    expect((Array.isArray(answer) ? answer : [answer]).some((a) => !a.ok)).toBe(true);
    expect(err.split('\n')).toHaveLength(2);
    expect(err.startsWith(stderr)).toBe(true);
  });

  it('a 1 MB model id is refused as too long in about the time a 65-character one in 1 MB of input is (QA: 79 s, compared with every preset id)', async () => {
    const withModel = (length: number) => json({ ...contractScenario, model: 'x'.repeat(length) });
    /** The fastest of three refusals, in ms (the first warms up). */
    const fastest = async (stdin: string): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        const { code, err } = await estimate(['-i', '-'], stdin);
        times.push(performance.now() - start);
        expect(code).toBe(1);
        expect(err).toMatch(/^trainplan: model: expected a non-empty string of at most 64 characters, got "x{40}"… \(a string of [\d,]+ characters\)\n$/);
      }
      return Math.min(...times);
    };
    const huge = await fastest(withModel(1_000_000));
    // Both inputs are 1 MB, so reading them costs alike (the short id's padded with 1 MB of blanks); a table for each preset
    // id took 79 s, about 200 times the reading. Generous: 20 times.
    expect(huge / await fastest(withModel(65) + ' '.repeat(1_000_000))).toBeLessThan(20);
  });

  it('a directory given as --input is named as such', async () => {
    const io = fakeIo();
    const isDirectory = Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
    const code = await main(['estimate', '-i', 'scenarios'], { ...io, readFile: () => Promise.reject(isDirectory) });
    expect(code).toBe(2);
    expect(io.err()).toBe('trainplan: --input: cannot read scenarios: is a directory\n');
  });
});
