import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

describe('a stated DP that does not fill the GPUs: the fix is the DP, not the layout asked', () => {
  it('"… on 512 H100 with tp 8 pp 8 dp 16" suggests DP 8 (512 / (8 × 8)), never "tp 8 pp 8" again', () => {
    // QA: the remedy suggested 'e.g. "tp 8 pp 8"', the layout the question had asked.
    const a = ask('how long to train llama3 70b on 512 H100 with tp 8 pp 8 dp 16', { publicUrl: null });
    expect(a.headline).toMatch(/DP must be the 512 GPUs over TP × PP × CP = 64: DP 8 \("with dp 8", or leave DP out\), or ask on 1,024 GPUs$/);
    expect(a.headline).not.toMatch(/e\.g\. "tp 8 pp 8"/);
  });

  it('a TP × PP that does not divide the GPUs keeps the layout remedy', () => {
    expect(ask('how long to train llama3 70b on 512 H100 with tp 8 pp 3 dp 4', { publicUrl: null }).headline).toMatch(/give a TP × PP × CP that divides the 512 GPUs \(e\.g\. "tp 8 pp 4"\)/);
  });
});
