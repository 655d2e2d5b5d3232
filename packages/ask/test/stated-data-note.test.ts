import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { statedDataNote } from '../src/answer/stated-data-note.ts';

describe('a DP stated in a search question', () => {
  it('says nothing when the best plan has the DP asked, or none was asked', () => {
    expect(statedDataNote(16, 1024, 16)).toEqual([]);
    expect(statedDataNote(undefined, 1024, 16)).toEqual([]);
  });
  it('says the search set another DP, and the TP × PP × CP that leaves the DP asked (GPUs ÷ DP)', () => {
    expect(statedDataNote(32, 1024, 16)).toEqual([
      'DP 32 asked: a search sets DP from the GPUs over TP × PP × CP, and its best plan has DP 16; for DP 32, state a TP × PP × CP of 32 (e.g. "tp 8 pp 4").',
    ]);
    expect(statedDataNote(512, 1024, 16)[0]).toContain('(e.g. "tp 2 pp 1")');
  });
  it('says when the DP asked does not divide the GPUs', () => {
    expect(statedDataNote(48, 1024, 16)[0]).toMatch(/DP 48 does not divide the 1,024 GPUs\.$/);
  });
  it('end to end: the layout it suggests, asked back, is planned at the DP asked', () => {
    const question = 'best config for gpt3-175b on 1024 a100 with dp 32';
    const first = ask(question, { publicUrl: null });
    const note = first.notes.find((n) => n.startsWith('DP 32 asked')) ?? '';
    const layout = /"(tp \d+ pp \d+)"/.exec(note)?.[1];
    expect(layout).toBeDefined();
    const again = ask(`${question}, ${layout}`, { publicUrl: null });
    expect(again.ok).toBe(true);
    expect(again.headline).toContain('DP 32');
    expect(again.notes.some((n) => n.startsWith('DP 32 asked'))).toBe(false);
  });
});
