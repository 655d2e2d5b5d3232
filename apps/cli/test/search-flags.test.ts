import { describe, expect, it } from 'vitest';
import { commands } from '../src/commands/index.ts';
import { generalHelp } from '../src/help.ts';
import { main } from '../src/main.ts';
import { count, list, seqLength } from '../src/search-flags.ts';
import { fakeIo } from './support/fake-io.ts';

describe('count and list', () => {
  it.each([
    ['1536', 1536], ['1,536', 1536], ['300B', 300e9], ['-4', -4], [' -2k', -2000], ['abc', 'abc'], ['-abc', '-abc'], ['--4', '--4'],
  ])('count reads %j as %j: a negative count is a number, for the schema to refuse by its range', (raw, read) => {
    expect(count({ nodes: raw }, 'nodes')).toBe(read);
  });

  it.each([['8k', 8192], ['-2k', -2048], ['2048', 2048], ['8kb', '8kb'], ['1M', 1048576], ['1m', 1048576], ['0.5M', 524288], ['1Mb', '1Mb']])('--seq-length %s is %j: k is 1024 and M 1024 k in a sequence length, whatever its sign', (raw, read) => {
    expect(seqLength({ 'seq-length': raw })).toBe(read);
  });

  it('the general help\'s rule holds: counts read k, M, B, T in thousands; lengths in tokens read k as 1,024', () => {
    expect([count({ gpus: '1k' }, 'gpus'), count({ b: '1.5k' }, 'b'), count({ t: '2M' }, 't'), count({ t: '1.5T' }, 't')]).toEqual([1000, 1500, 2e6, 1.5e12]);
    expect(seqLength({ 'seq-length': '2k' })).toBe(2048);
    expect(generalHelp(commands)).toMatch(/--gpus 1k = 1,000 GPUs[\s\S]*whose k is 1,024[\s\S]*8k = 8,192 tokens/);
  });

  it('a length of 1M is 1,048,576 tokens (2^20, as k is 1,024), and the help says so', async () => {
    expect([count({ t: '1M' }, 't'), seqLength({ 'seq-length': '1M' })]).toEqual([1e6, 1048576]);
    expect(generalHelp(commands)).toMatch(/M is 1,024 k[\s\S]*1M = 1,048,576 tokens/);
    const io = fakeIo();
    await main(['inference', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--prompt', '1M', '--output', '1k', '--json'], io);
    expect(JSON.parse(io.out())).toMatchObject({ ok: true, promptTokens: 1048576, outputTokens: 1024 });
  });

  it('list reads each item as count does', () => {
    expect(list({ nodes: '1, -2, x' }, 'nodes')).toEqual([1, -2, 'x']);
  });

  it.each([
    [['search', '--model', 'gpt3-175b', '--gpu', 'a100-80gb', '--nodes', '-4', '--global-batch', '1536'], '--nodes: expected an integer ≥ 1, got -4'],
    [['inference', '--model', 'llama3-8b', '--gpu', 'h100-sxm', '--prompt', '-5', '--output', '8'], '--prompt: expected an integer ≥ 1, got -5'],
  ])('%j is refused for its value, said as a number, not as quoted text', async (argv, message) => {
    const io = fakeIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.err()).toBe(`trainplan: ${message}\n`);
  });
});
