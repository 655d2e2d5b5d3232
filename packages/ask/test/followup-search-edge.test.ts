import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';

const EDGE = /The search's largest size is 8,192 nodes: a larger cluster may be faster; ask "how long on N nodes" for one size\./;

describe('an answer at the capacity search\'s largest size says so, in the bot\'s words (QA: the CLI said it, the bot did not)', () => {
  it('a budget whose fastest plan is 8,181 nodes: the note, never the CLI\'s flag', () => {
    // Llama 3 70B, 2T tokens of 2,048 on H100, 2M GPU-hours: 8,181 nodes in 14.8 hours (the CLI's nodes --seq-length 2k
    // --gpu-hours 2M). At 2,048 tokens the batch grows to a sequence per 8 GPUs all the way (8,192 sequences are the 16M-token
    // cap); at Llama 3's 8,192 it stops at 2,048 sequences from 2,048 nodes, and the fastest size is smaller.
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens at 2k sequence length with 2M GPU hours');
    expect(a.ok).toBe(true);
    expect((a.data as { nodes?: number }).nodes).toBeGreaterThan(8000);
    expect(a.notes.join('\n')).toMatch(EDGE);
    expect(a.notes.join('\n')).not.toContain('--nodes');
  }, 120_000);

  it('a deadline\'s answer far below the largest size: no such note', () => {
    const a = ask('how many H100 nodes to train llama3-70b on 2T tokens in 30 days');
    expect(a.ok).toBe(true);
    expect(a.notes.join('\n')).not.toMatch(/largest size/);
  }, 120_000);
});
