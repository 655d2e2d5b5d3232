import { describe, expect, it } from 'vitest';
import { clipText } from '../src/clip-text.ts';

/** Whether a string holds a surrogate that is not half of a pair (what JSON would write as "\ud83d"). */
const hasLoneSurrogate = (s: string): boolean => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('clipText', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['eleven char', 10, 'eleven ch…'],
  ])('cuts %j to %i code units with an ellipsis', (text, max, clipped) => {
    expect(clipText(text, max)).toBe(clipped);
  });

  it('never leaves half a surrogate pair: an emoji at the cut is dropped whole', () => {
    // 'ab' then 🚀 (U+1F680, two code units): a cut after 3 code units would keep only its high half.
    expect(clipText('ab🚀🚀🚀', 4)).toBe('ab…');
    expect(clipText('abc🚀🚀🚀', 4)).toBe('abc…');
  });

  it.each([5, 6, 7, 80, 255])('an emoji-heavy text cut to %i code units is well-formed and within the limit', (max) => {
    const text = '🚀'.repeat(200);
    const clipped = clipText(text, max);
    expect(hasLoneSurrogate(clipped)).toBe(false);
    expect(clipped.length).toBeLessThanOrEqual(max);
    expect(clipped.endsWith('…')).toBe(true);
  });
});
