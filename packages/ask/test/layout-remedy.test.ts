import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a layout that does not divide the GPUs is refused with the fix, which then answers', () => {
  it.each([
    ['step time of llama3-8b on 8 H100 with tp 16', 'TP can be at most 8 on 8 GPUs ("with tp 8"), or ask on 16 GPUs', 'tp 16', ['tp 8', 'tp 16 on 16 gpus']],
    ['step time of llama3-8b on 8 H100 with tp 3', 'TP must divide the 8 GPUs: TP 2 does ("with tp 2")', 'tp 3', ['tp 2']],
    ['step time of llama3-8b on 8 H100 with pp 16', 'PP can be at most 8 on 8 GPUs ("with pp 8"), or ask on 128 GPUs', 'pp 16', ['pp 8']],
    ['step time of llama3-8b on 8 H100 with tp 4 pp 4', 'give a TP × PP × CP that divides the 8 GPUs (e.g. "tp 8 pp 1"), or ask on 16 GPUs', 'tp 4 pp 4', ['tp 8 pp 1']],
  ])('"%s": %s', (question, remedy, asked, fixes) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.headline.endsWith(`; ${remedy}`)).toBe(true);
    // Each fix the refusal gives, asked in its words, is answered.
    for (const fix of fixes) {
      const fixed = ask(question.replace('on 8 H100 ', fix.includes(' on ') ? '' : 'on 8 H100 ').replace(asked, fix), { publicUrl: null });
      expect(fixed.ok).toBe(true);
    }
  });
});
