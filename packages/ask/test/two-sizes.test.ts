import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('two cluster sizes in one question get a pointer, never one size planned and the other dropped', () => {
  it.each([
    ['is 512 or 1024 H100 cheaper for 405B on 15T tokens', '512 or 1024 GPUs'],
    ['should we use 64 vs 128 nodes for 70b on 2T tokens at $2/gpu-hour', '64 or 128 nodes'],
    ['16k or 32k gpus for 405b on 15T tokens', '16k or 32k GPUs'],
  ])('"%s": %s', (question, sizes) => {
    const a = ask(question);
    expect(a.intent).toBe('help');
    expect(a.headline).toBe(`I could not answer that: ${sizes} are two cluster sizes and I plan one per question: ask "how long …" on each, or "cheapest way to train …" with no cluster for every size's time, GPU-hours and cost.`);
  });

  it('one size, or two models on one cluster, is no such problem', () => {
    expect(parse('how long to train 405b on 15T tokens on 1024 H100').problems).toEqual([]);
    expect(parse('train 7b or 13b on 64 H100').problems).toEqual([]);
  });
});
