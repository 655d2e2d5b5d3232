import { describe, expect, it } from 'vitest';
import { parseTokenLength } from '../src/index.ts';

describe('parseTokenLength: k and M in a length in tokens are powers of two, as context lengths are named', () => {
  it.each([['8k', 8 * 1024], ['128K', 128 * 1024], ['1M', 1024 * 1024], [' 1.5 k ', 1.5 * 1024], ['2m', 2 * 1024 * 1024]])('%s → %d', (text, tokens) => {
    expect(parseTokenLength(text)).toBe(tokens);
  });
  it('leaves a plain number, a count\'s B or T, and words to the caller', () => {
    expect(['8192', '8,192', '300B', '2T', 'k', '8 kb', ''].map(parseTokenLength)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
