import { describe, expect, it } from 'vitest';
import { usageLine } from '../../src/format/usage-line.ts';

describe('usageLine', () => {
  it('a synopsis that fits stays one line', () => {
    expect(usageLine('trainplan estimate --input FILE|- [--emulate] [--json]')).toBe('Usage: trainplan estimate --input FILE|- [--emulate] [--json]');
  });

  it('a long one is filled to the width, each further line hung under the first option', () => {
    expect(usageLine('trainplan go --a A [--bb B] [--cc C|D]', 30)).toBe([
      'Usage: trainplan go --a A',
      '                    [--bb B]',
      '                    [--cc C|D]',
    ].join('\n'));
  });

  it('never breaks inside brackets or parentheses', () => {
    expect(usageLine('trainplan go (--x N | --y N) [--z A|B C]', 40)).toBe([
      'Usage: trainplan go (--x N | --y N)',
      '                    [--z A|B C]',
    ].join('\n'));
  });
});
