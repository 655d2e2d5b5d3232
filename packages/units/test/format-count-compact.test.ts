import { describe, expect, it } from 'vitest';
import { formatCountCompact } from '../src/index.ts';

describe('formatCountCompact', () => {
  // As the chat bot ("70.6B parameters") and the CLI's reports ("8.07B parameters") write counts: the scale letter against
  // the figure, so a count never reads as a byte size ("58.0 B") beside one.
  it.each([
    [8.07e9, '8.07B'],
    [175e9, '175B'],
    [172_000, '172k'],
    [124e6, '124M'],
    [72, '72'],
    [15.6e12, '15.6T'],
  ])('%d is "%s"', (n, text) => {
    expect(formatCountCompact(n)).toBe(text);
  });
});
