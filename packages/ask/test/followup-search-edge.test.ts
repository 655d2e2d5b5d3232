import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

const EDGE = /The search's largest size is 8,192 nodes: a larger cluster may be faster; ask "how long on N nodes" for one size\./;

describe('an answer at the capacity search\'s largest size says so, in the bot\'s words (QA: the CLI said it, the bot did not)', () => {
  it('a budget whose fastest plan is 8,190 nodes: the note, never the CLI\'s flag', () => {
    // Llama 3 70B, 2T tokens on H100, 770k GPU-hours: 8,190 nodes in 11.7 hours (the CLI's nodes --gpu-hours 770k).
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens with 770k GPU hours');
    expect(a.ok).toBe(true);
    expect(a.notes.join('\n')).toMatch(EDGE);
    expect(a.notes.join('\n')).not.toContain('--nodes');
  }, 120_000);

  it('a deadline\'s answer far below the largest size: no such note', () => {
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens in 30 days');
    expect(a.ok).toBe(true);
    expect(a.notes.join('\n')).not.toMatch(/largest size/);
  }, 120_000);
});
