import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { DATA_BYTES_WHY } from '../src/lexicon/data-bytes.ts';
import { parse } from '../src/parse.ts';

// A data size in bytes is no token count: said not read with how to rephrase, never dropped unsaid (QA: "on 2TB of text"
// planned the preset's 15T tokens with nothing said).
describe('a training set\'s size in bytes is said not read, never taken as tokens nor dropped', () => {
  it.each([
    ['how many nodes to train llama3 70b on 2TB of text in 30 days', '"2TB of text"'],
    ['how many H100 to train a 7b on a 10 TB dataset in 5 days', '"10 TB dataset"'],
    ['how many nodes for llama3-8b with a corpus of 3 TB in 10 days', '"corpus of 3 TB"'],
    ['how many nodes for llama3-8b on 500GB of clean web text in 10 days', '"500GB of clean web text"'],
    ['how many nodes for llama3-8b on 2 terabytes of data in 10 days', '"2 terabytes of data"'],
  ])('"%s": %s not read, no token count read from it', (question, phrase) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.tokens).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase, why: DATA_BYTES_WHY }]);
  });

  it('the why says what to write: the tokens', () => {
    expect(DATA_BYTES_WHY).toMatch(/not a token count.*say the tokens, e\.g\. "500B tokens"$/);
  });

  it('the default tokens planned say they stand in for the bytes, and the answer says the bytes were not read', () => {
    const a = ask('how many nodes to train llama3 70b on 2TB of text in 30 days', { publicUrl: null });
    // Llama 3 70B's published 15T tokens, taken in their place (Dubey et al. 2024), said so.
    expect(a.assumptions).toContain('15.0T training tokens (Llama 3 70B\'s published budget) in place of "2TB of text", which is bytes, not tokens');
    expect(a.notes).toContain(`Not read: "2TB of text" (${DATA_BYTES_WHY}).`);
  });

  it('bytes that are no data size are read as before: a collective\'s message, a GPU\'s memory', () => {
    const collective = parse('all-reduce 1 GB of data on 64 H100');
    expect(collective.stated.bytes).toBe(1e9);
    expect(collective.notRead ?? []).toEqual([]);
    const gpu = parse('how long to train llama3-8b on 1T tokens on 64 A100 80GB');
    expect(gpu.stated.gpu).toBe('a100-80gb');
    expect(gpu.notRead ?? []).toEqual([]);
  });
});
