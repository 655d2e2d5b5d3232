import { describe, expect, it } from 'vitest';
import { describeJsonError, jsonErrorOffset } from '../src/json-error.ts';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a":1}'], ['[]'], ['  [1, -2.5e+3, "x\\u00e9\\n", true, false, null, {}]  '], ['"just a string"'], ['0'],
  ])('finds no error in valid JSON %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonErrorOffset(text)).toBeUndefined();
  });

  it.each([
    ['{"a":1,}', 7], ['xyz', 0], ['{"a": tru}', 9], ['{"a":1', 6], ['[1,2', 4], ['{"a":1}}', 7], ['{a:1}', 1],
    ['[01]', 2], ['[1.]', 3], ['"tab\there"', 4], ['"\\x"', 2], ["{'a':1}", 1], ['[1 2]', 3], ['', 0],
  ])('finds the first error in %j at offset %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});

describe('describeJsonError', () => {
  it.each([
    ['{"a":1,}', "unexpected '}' at position 7, line 1, column 8"],
    ['{\n  "a": 1\n  "b": 2\n}', "unexpected '\"' at position 13, line 3, column 3"],
    ['{"a":', 'unexpected end of input at position 5, line 1, column 6'],
    ['{"a":\n"x\ty"}', 'unexpected "\\t" at position 8, line 2, column 3'],
    ["{'a':1}", 'unexpected "\'" at position 1, line 1, column 2'],
    // Invisible characters by code point: a pasted no-break space, a byte-order mark.
    ['{"a":\u00a01}', 'unexpected U+00A0 at position 5, line 1, column 6'],
    ['\ufeff{"a":1}', 'unexpected U+FEFF at position 0, line 1, column 1'],
  ])('describes %j as %j', (text, description) => {
    expect(describeJsonError(text, 'fallback')).toBe(description);
  });

  it('falls back to JSON.parse\'s message, on one line, when its own scan finds nothing', () => {
    expect(describeJsonError('{}', 'Unexpected\n  token')).toBe('Unexpected token');
  });
});
