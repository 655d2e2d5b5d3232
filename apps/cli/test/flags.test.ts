import { describe, expect, it } from 'vitest';
import { parseFlags, type FlagSpec } from '../src/flags.ts';

const spec: Record<string, FlagSpec> = {
  input: { type: 'string', short: 'i', valueName: 'FILE' },
  json: { type: 'boolean' },
};

describe('parseFlags', () => {
  it.each([
    [['--input', 'a.json', '--json'], { input: 'a.json', json: true }],
    [['-i', '-'], { input: '-' }],
    [['--input=a.json'], { input: 'a.json' }],
    [['-ia.json'], { input: 'a.json' }],
    [['--input', 'a.json', '--input', 'a.json'], { input: 'a.json' }],
    [[], {}],
  ])('%j parses to %j', (argv, values) => {
    expect(parseFlags(argv, spec)).toEqual({ ok: true, values, positionals: [] });
  });

  it.each([
    [['--frob'], 'unknown flag --frob'],
    [['--inptu', 'a.json'], 'unknown flag --inptu: did you mean --input?'],
    [['--JSON'], 'unknown flag --JSON: did you mean --json?'],
    [['-x'], 'unknown flag -x'],
    [['--input'], '--input needs FILE'],
    [['-i'], '-i needs FILE'],
    [['--input', '--json'], '--input needs FILE, got the flag --json'],
    [['--json=no'], '--json does not take a value'],
    [['a.json'], "unexpected argument 'a.json'"],
    [['--', '--json'], "unexpected argument '--json'"],
    // A second value would silently replace the first (trainplan search --gpu a100-80gb … --gpu h100-sxm).
    [['--input', 'a.json', '-i', 'b.json'], "-i given twice ('a.json' and 'b.json'): give it once"],
  ])('%j is refused: %s', (argv, message) => {
    expect(parseFlags(argv, spec)).toEqual({ ok: false, message });
  });

  it.each([
    [['--input='], '--input: empty value: give FILE'],
    [['--input', ''], '--input: empty value: give FILE'],
    [['-i', ' '], '-i: empty value: give FILE'],
  ])('%j is an empty value, refused against its own flag: %s', (argv, message) => {
    expect(parseFlags(argv, spec)).toEqual({ ok: false, message });
  });

  const lists: Record<string, FlagSpec> = { nodes: { type: 'string', list: true }, model: { type: 'string' } };
  it.each([
    [['--nodes', '16,,32'], '--nodes: item 2 of "16,,32" is empty'],
    [['--nodes=16,32,'], '--nodes: item 3 of "16,32," is empty'],
    [['--nodes', ',16'], '--nodes: item 1 of ",16" is empty'],
    [['--nodes', '16, ,32'], '--nodes: item 2 of "16, ,32" is empty'],
  ])('a list flag %j names its empty item: %s', (argv, message) => {
    expect(parseFlags(argv, lists)).toEqual({ ok: false, message });
  });

  it('a list flag with no empty item, and a flag that is not a list, keep their commas', () => {
    expect(parseFlags(['--nodes', '16, 32', '--model', 'a,,b'], lists)).toEqual({ ok: true, values: { nodes: '16, 32', model: 'a,,b' }, positionals: [] });
  });

  it('takes positional arguments only where asked to, a negative number among them as a word', () => {
    expect(parseFlags(['for', '-5B', '--json', '-1e3'], spec, { positionals: true })).toEqual({ ok: true, values: { json: true }, positionals: ['for', '-5B', '-1e3'] });
    expect(parseFlags(['-x'], spec, { positionals: true })).toEqual({ ok: false, message: 'unknown flag -x' });
  });

  it('takes --input=--odd-name literally: an inline value is never a slip', () => {
    expect(parseFlags(['--input=--odd-name'], spec)).toEqual({ ok: true, values: { input: '--odd-name' }, positionals: [] });
  });
});

describe('preset ids typed in another case', () => {
  const presets: Record<string, FlagSpec> = {
    model: { type: 'string', preset: 'model' }, gpu: { type: 'string', preset: 'gpu' }, network: { type: 'string', preset: 'network' },
  };
  it('are taken as the id they spell: a model, a GPU, a system (in the GPU\'s place) and a network', () => {
    expect(parseFlags(['--model', 'LLaMA3-70B', '--gpu', 'H100-SXM', '--network', 'NDR-IB-8X'], presets))
      .toEqual({ ok: true, values: { model: 'llama3-70b', gpu: 'h100-sxm', network: 'ndr-ib-8x' }, positionals: [] });
    expect(parseFlags(['--gpu', 'DGX-H100'], presets)).toMatchObject({ values: { gpu: 'dgx-h100' } });
  });
  it('a text that is no id in any case is left as typed, for validation to refuse with its did-you-mean', () => {
    expect(parseFlags(['--gpu', 'H100'], presets)).toMatchObject({ values: { gpu: 'H100' } });
  });
  it('the same id twice in two cases is one value, not "given twice"', () => {
    expect(parseFlags(['--model', 'llama3-70b', '--model', 'Llama3-70B'], presets)).toMatchObject({ ok: true, values: { model: 'llama3-70b' } });
  });
  it('a flag that is not a preset keeps its case', () => {
    expect(parseFlags(['--input', 'Scenario.JSON'], spec)).toMatchObject({ values: { input: 'Scenario.JSON' } });
  });
});
