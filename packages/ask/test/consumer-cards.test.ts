import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a consumer card named by its number alone is refused as not modelled, as "RTX 4090" is', () => {
  it.each([
    // QA: "can I fit a 13B model on one 4090" was answered for H100 ×8.
    ['can I fit a 13B model on one 4090', 'RTX 4090'],
    ['can a 3090 run llama 3 8b', 'RTX 3090'],
    ['train llama 3 8b on 8x 5090s', 'RTX 5090'],
    ['train 7b on 2 3090 gpus', 'RTX 3090'],
    ['run 7b on a 4080 super', 'RTX 4080 Super'],
    ['run 7b with a 1080 ti', 'GTX 1080 Ti'],
    ['does llama 3 8b fit on an a6000', 'A6000'],
  ])('"%s" is refused: %s is not modelled', (question, name) => {
    const q = parse(question);
    expect(q.stated.gpu).toBeUndefined();
    expect(q.problems[0]).toMatch(new RegExp(`^${name} is not modelled`));
  });

  it('the refusal matches the one for "RTX 4090"', () => {
    expect(ask('can I fit a 13B model on one 4090').headline).toBe(ask('can I fit a 13B model on one RTX 4090').headline);
  });

  it.each([
    ['serve llama3 8b with 4090 tokens prompt on h100', { gpu: 'h100-sxm', promptTokens: 4090 }],
    ['how long to train 7b on 4090 GPUs', { gpus: 4090 }],
    ['how long to train llama3 8b on 4090 h100', { gpu: 'h100-sxm', gpus: 4090 }],
    ['train gpt3 on 1080 nodes', { nodes: 1080 }],
  ])('"%s": the number counts something, no card: %o', (question, stated) => {
    const q = parse(question);
    expect(q.stated).toMatchObject(stated);
    expect(q.problems).toEqual([]);
  });
});

describe('an unmodelled card beside a GPU a preset models: the question answered for that one, the card said not modelled', () => {
  it.each([
    // QA: the whole question was refused for an aside.
    ['how long to train llama 3 8b on 1T tokens on 64 h100? I also own a 4090', 'h100-sxm', '4090', 'RTX 4090'],
    // The card's count goes with it (QA item 3): the phrase said is "8x 4090".
    ['8x 4090 or 8 h100 for llama 3 8b, 100B tokens', 'h100-sxm', '8x 4090', 'RTX 4090'],
    ['compare h100 and mi300x for llama 3 70b on 64 gpus', 'h100-sxm', 'mi300x', 'MI300X'],
  ])('"%s": planned on %s, "%s" not read (%s is not modelled)', (question, gpu, phrase, name) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.gpu).toBe(gpu);
    const note = q.notRead?.find((n) => n.phrase === `"${phrase}"`);
    expect(note?.why).toMatch(new RegExp(`^${name} is not modelled.*: the plan is for the GPU named beside it$`));
  });

  it('alone, the card is still the refusal', () => {
    expect(parse('how long to train llama 3 8b on 1T tokens on one 4090').problems[0]).toMatch(/^RTX 4090 is not modelled/);
  });

  // QA item 3: the unmodelled card's count was planned on the modelled GPU ("64 belongs to the MI300X").
  it.each([
    ['how long to train llama3-70b on 2T tokens on 64 mi300x or 8 h100', '64 mi300x', 'MI300X', { gpus: 8 }],
    ['how long to train llama3-70b on 2T tokens on 64x mi300x or 8 h100', '64x mi300x', 'MI300X', { gpus: 8 }],
    ['how long to train llama3-70b on 2T tokens on 64 rtx 4090 and 8 h100', '64 rtx 4090', 'RTX 4090', { gpus: 8 }],
    ['how long to train llama3-70b on 2T tokens on 8 h100 or 64 MI300X', '64 MI300X', 'MI300X', { gpus: 8 }],
    ['how long to train llama3-70b on 2T tokens on 16 mi300x nodes or 2 h100 nodes', '16 mi300x nodes', 'MI300X', { nodes: 2 }],
  ])('"%s": the count "%s" goes with the unmodelled card, the modelled GPU keeps its own', (question, phrase, name, size) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.gpu).toBe('h100-sxm');
    expect(q.stated).toMatchObject(size);
    // One size only: the card's count is neither the H100's size nor a size compared.
    expect(q.stated.comparedSizes).toBeUndefined();
    expect(q.notRead).toEqual([{ phrase: `"${phrase}"`, why: expect.stringMatching(new RegExp(`^${name} is not modelled.*: the plan is for the GPU named beside it$`)) }]);
  });

  it('"16 nodes of mi300x or h100": the 16 nodes are the MI300X\'s, so the H100 size is the default, said', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 16 nodes of mi300x or h100');
    expect(q.stated.nodes).toBeUndefined();
    expect(q.stated.gpus).toBeUndefined();
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"16 nodes of mi300x"']);
  });

  it('"on 64 4090s vs h100": the count goes with the card, never quoted with the gap it left', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 64 4090s vs h100');
    expect(q.notRead).toEqual([{ phrase: '"64 4090s"', why: expect.stringMatching(/^RTX 4090 is not modelled/) }]);
  });
});

describe('a number no reading takes is quoted as typed, never with the blanks of a word read beside it', () => {
  it('"3 bf16 copies": "3", not "3      copies"', () => {
    const q = parse('train llama 3 8b on 1T tokens on 64 h100 with 3 bf16 copies');
    expect(q.notRead?.map((n) => n.phrase)).toEqual(['"3"']);
  });
});
