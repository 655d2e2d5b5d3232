import { describe, expect, it } from 'vitest';
import { printable } from '../../src/format/printable-text.ts';

describe('printable', () => {
  // Each escape as JSON.stringify writes the character (the name as the --json answer shows it).
  it.each([
    ['a line break', 'a\nb', 'a\\nb'],
    ['a carriage return and a tab', 'a\r\tb', 'a\\r\\tb'],
    ['ESC starting a colour', '\u001b[31mred', '\\u001b[31mred'],
    ['NUL and DEL', '\u0000\u007f', '\\u0000\\u007f'],
    ['a C1 control (CSI)', '\u009b31m', '\\u009b31m'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['the Unicode line separator', 'a\u2028b', 'a\\u2028b'],
  ])('writes %s as an escape', (_, text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it('leaves printable text as it is: markup, accents, the report\'s own bars and symbols', () => {
    const text = '<b>x</b> Llama 3 · café × 8 ⚠ ██▌ µs 1,024';
    expect(printable(text)).toBe(text);
  });
});
