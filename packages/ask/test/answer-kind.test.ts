import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { failureKind } from '../src/answer/issue-words.ts';

describe('an answer says what kind of reply it is: an answer, a refusal of the question, or the help', () => {
  it.each([
    ['what is the weather on mars', 'not understood'],
    ['how long to train foo-13q on 8 h100', 'no model it knows'],
    ['serve llama3-70b on 8 h100 with -5 token prompts', 'a negative token count'],
    ['serve llama3-70b on 8 h100 with a ttft of 0 ms', 'a first-token bound of 0 ms, refused by the protocol'],
    ['step time of llama3-8b on 8 h100 with tp 8 and global batch 0', 'a zero global batch, refused by the protocol'],
    ['memory for 70b with tp 3 on a100 80gb', 'a tensor-parallel size that does not divide the heads'],
    ['all-reduce 0 GB on 64 h100', 'an empty message'],
    ['all-reduce 1 GB on 64 a100 with nvls', 'an algorithm the GPUs cannot run'],
    ['how long to train gpt3-175b on 129 gpus', 'GPUs that are not whole nodes'],
  ])('"%s" (%s) is a refusal, not ok', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.ok).toBe(false);
  });

  it.each([
    ['step time of llama3-8b on 8 h100 with tp 8', true],
    ['all-reduce 1 GB on 64 h100', true],
    ['what does it cost per day to run 128 H100 nodes at $2/GPU-hour', true],
    // That a model does not fit is the answer to a memory question, though not ok.
    ['memory for gpt3-175b on 8 a100 with tp 8', false],
    ['serve llama3-405b on 1 h100', false],
  ])('"%s" is an answer (ok: %s)', (question, ok) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('answer');
    expect(a.ok).toBe(ok);
  });

  it.each(['help', '', 'what can you do?'])('"%s" asks for the help, and gets it as kind help', (question) => {
    expect(ask(question, { publicUrl: null }).kind).toBe('help');
  });

  it.each([
    ['invalid', 'refusal'], ['indivisible', 'refusal'], ['unavailable', 'refusal'],
    ['out-of-memory', 'answer'], ['no-feasible-configuration', 'answer'], ['deadline-unreachable', 'answer'], ['budget-exhausted', 'answer'],
  ])('a protocol failure for "%s" is a %s', (reason, kind) => {
    expect(failureKind(reason)).toBe(kind);
  });
});
