import { describe, expect, it } from 'vitest';
import { cutAtWord, splitAtWord } from '../src/cut-text.ts';

const NOTICE = ' (cut)';

describe('cutAtWord', () => {
  it('keeps a text that fits whole, with no notice', () => {
    expect(cutAtWord('the fewest GPUs', 15, NOTICE)).toBe('the fewest GPUs');
  });

  it('cuts after the last whole word that leaves room for the notice, never mid-word', () => {
    // 14 code units of room before the notice: a cut there would leave "the fewest GPU", a word cut short.
    expect(cutAtWord('the fewest GPUs for the deadline', 20, NOTICE)).toBe('the fewest (cut)');
  });

  it('cuts at a line break as at a space, dropping the trailing space', () => {
    expect(cutAtWord('• first note \n• second note', 20, NOTICE)).toBe('• first note (cut)');
  });

  it('cuts one word longer than the room (a URL) between whole code points', () => {
    const cut = cutAtWord('🚀'.repeat(10), 9, NOTICE);
    // 3 code units of room: one rocket (2), not one and a half.
    expect(cut).toBe('🚀 (cut)');
  });

  it('never exceeds the limit, even when the notice alone does not fit', () => {
    expect(cutAtWord('a long text here', 4, NOTICE).length).toBeLessThanOrEqual(4);
  });
});

describe('splitAtWord', () => {
  it('leaves a text that fits whole, with no rest', () => {
    expect(splitAtWord('No: $229k over', 14)).toEqual({ head: 'No: $229k over', rest: undefined });
  });

  it('splits after a whole word: the head ends with "…" within the limit, and head and rest hold every word', () => {
    const text = 'No: $229k over the $1M budget; $1M buys about 1.63T of the 2.00T tokens';
    const { head, rest } = splitAtWord(text, 32);
    expect(head).toBe('No: $229k over the $1M budget;…');
    expect(head.length).toBeLessThanOrEqual(32);
    expect(rest).toBe('$1M buys about 1.63T of the 2.00T tokens');
  });
});
