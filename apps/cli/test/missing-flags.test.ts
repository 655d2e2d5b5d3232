import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { fakeIo } from './support/fake-io.ts';

const MACHINE = ['--model', 'gpt3-175b', '--gpu', 'a100-80gb'];

/**
 * A required flag left out is said in flags, with what to give and an example, rather than as the
 * schema's "missing required field: expected an array of 1 to 64 items" (RequestCommandSpec.missing).
 */
describe('a required flag left out', () => {
  it.each([
    [['scale', ...MACHINE], [
      'missing --global-batch: give the sequences per optimizer step, e.g. --global-batch 1536',
      'missing --nodes: give the node counts to sweep, e.g. --nodes 105,140,175',
    ]],
    [['search', ...MACHINE], ['give either --nodes or --gpus, got neither']],
    [['nodes', ...MACHINE, '--days', '30'], ['missing --tokens: give the tokens to train on, e.g. --tokens 300B']],
    [['inference', ...MACHINE], [
      'missing --output: give the generated tokens per sequence, e.g. --output 512',
      'missing --prompt: give the prompt tokens per sequence, e.g. --prompt 2048',
    ]],
  ])('%j: one line each, naming the flag and what to give', async (argv, messages) => {
    const io = fakeIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err().split('\n').filter(Boolean).sort()).toEqual(messages.map((m) => `trainplan: ${m}`));
  });

  it('under --json stdout is still the answer (ok: false, its issues by JSON path); stderr says it in flags', async () => {
    const io = fakeIo();
    expect(await main(['scale', ...MACHINE, '--global-batch', '1536', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out()).issues).toEqual([{ path: 'nodes', message: 'missing required field: expected an array of 1 to 64 items' }]);
    expect(io.err()).toBe('trainplan: missing --nodes: give the node counts to sweep, e.g. --nodes 105,140,175\n');
  });
});

/** A number flag whose text reads as no number says how numbers are written, besides the range (QA: "--tokens 300BB"). */
describe('a number flag given a text that is no number', () => {
  it.each([
    [['nodes', ...MACHINE, '--tokens', '300BB', '--days', '30'], '--tokens: expected a number > 0'],
    [['search', ...MACHINE, '--nodes', '1x'], '--nodes: expected an integer from 1'],
  ])('%j names the range and the forms a number takes', async (argv, start) => {
    const io = fakeIo();
    expect(await main(argv, io)).toBe(2);
    const line = io.err().trim();
    expect(line.startsWith(`trainplan: ${start}`)).toBe(true);
    expect(line).toContain('or with k, M, B or T: 300B');
  });

  /**
   * The forms said are the flag's own, and each reads: --days takes its unit, not k/M/B/T ("30k" days is no form to
   * offer), --price a currency sign. Every form the hint names is tried on the same command and must not be refused.
   */
  it.each([
    ['nodes', [...MACHINE, '--tokens', '300B'], '--days', '3O'],
    ['nodes', [...MACHINE, '--tokens', '300B', '--days', '30'], '--price', '2x'],
    ['nodes', [...MACHINE, '--tokens', '300B', '--price', '2'], '--budget', '5MM'],
  ])('%s %s: the forms said for %s read on that flag', async (command, rest, flag, bad) => {
    const io = fakeIo();
    expect(await main([command, ...rest, flag, bad], io)).toBe(2);
    const forms = /\(write (.+); see trainplan --help\)/.exec(io.err())?.[1];
    expect(forms).toBeDefined();
    expect(forms).not.toContain('300B');
    for (const form of (forms ?? '').split(/, | or /)) {
      const ok = fakeIo();
      await main([command, ...rest, flag, form, '--json'], ok);
      expect(ok.err(), `${flag} ${form}`).not.toMatch(new RegExp(`${flag}: expected`));
    }
  });

  it('a number out of range is told its range alone: the forms are not what went wrong', async () => {
    const io = fakeIo();
    expect(await main(['search', ...MACHINE, '--nodes', '0'], io)).toBe(2);
    expect(io.err()).toBe('trainplan: --nodes: expected an integer ≥ 1, got 0\n');
  });
});

/** An enumerated flag given a slip of one of its values names the one meant (protocol meant-choice.ts, in the schema's enumOf). */
describe('an enumerated flag given a slip', () => {
  it.each([
    [['search', ...MACHINE, '--nodes', '1', '--recompute', 'ful'], '(did you mean full or full-partial?)'],
    [['inference', ...MACHINE, '--prompt', '1k', '--output', '100', '--batching', 'continous'], '(did you mean continuous?)'],
  ])('%j', async (argv, meant) => {
    const io = fakeIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.err().trim().endsWith(meant)).toBe(true);
  });
});
