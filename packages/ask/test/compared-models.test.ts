import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { MAX_COMPARED } from '../src/lexicon/compared-models.ts';
import { parse } from '../src/parse.ts';

const line = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';
const days = (a: ReturnType<typeof ask>, label: string): number => Number(/([\d.,]+) days/.exec(line(a, label))?.[1]?.replace(/,/g, ''));

describe('models compared in one question are each answered, side by side, never one planned and the others dropped', () => {
  it.each([
    // Before (each): only the first model found was planned; the other was dropped unsaid.
    ['how long to train 7B vs 13B on 64 H100', 'llama2-7b', ['llama2-13b']],
    // The first written leads, though the lexicon finds llama3-70b first.
    ['how long to train llama3-8b vs llama3-70b on 64 H100', 'llama3-8b', ['llama3-70b']],
    ['compare 7B and 13B on 2T tokens on 64 H100', 'llama2-7b', ['llama2-13b']],
    ['is 13B cheaper than 7B on 2T tokens on 64 H100', 'llama2-13b', ['llama2-7b']],
    ['how long to train 7B, 13B or 70B on 1024 H100', 'llama2-7b', ['llama2-13b', 'llama3-70b']],
    // Before: "vs." (a dot) and "compare … with/to" dropped the second model unsaid (70B alone, 7B alone).
    ['llama3-8b vs. llama3-70b on 1024 H100 for 15T tokens', 'llama3-8b', ['llama3-70b']],
    ['7B vs. 13B on 64 H100 for 1T tokens', 'llama2-7b', ['llama2-13b']],
    ['compare 7B with 13B on 64 H100 for 1T tokens', 'llama2-7b', ['llama2-13b']],
    ['compare 7B to 13B on 64 H100 for 1T tokens', 'llama2-7b', ['llama2-13b']],
  ])('"%s" reads each model', (question, first, others) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.model).toBe(first);
    expect(q.stated.comparedModels?.map((m) => m.model)).toEqual(others);
  });

  it('"7B vs 13B on 64 H100": a line for each model on the same GPUs, the larger slower, its reading said', () => {
    const a = ask('how long to train 7B vs 13B on 64 H100', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 2 7B vs Llama 2 13B on H100 SXM5 80GB: Llama 2 7B: 8 nodes \(64 GPUs\), .*; Llama 2 13B: 8 nodes \(64 GPUs\), /);
    expect(days(a, 'Llama 2 13B')).toBeGreaterThan(days(a, 'Llama 2 7B'));
    expect(a.assumptions.some((x) => x.startsWith('13B taken as Llama 2 13B (llama2-13b)'))).toBe(true);
    expect(a.notes).toContain('The configuration and figures after the side-by-side are for Llama 2 7B; for the plan of Llama 2 13B in full, ask the question naming it alone.');
  });

  it('a size no preset has is compared as a decoder of that size', () => {
    const q = parse('how long to train 7B vs 30B on 64 H100');
    expect(q.stated.comparedModels?.[0]?.customModel?.parameters).toBeGreaterThan(25e9);
  });

  it('"tokens for 7B vs 13B": the tokens of each, side by side', () => {
    const a = ask('tokens for 7B vs 13B', { publicUrl: null });
    expect(a.headline).toMatch(/^Llama 2 7B vs Llama 2 13B in training tokens: Llama 2 7B: about 140B training tokens .*; Llama 2 13B: about 260B training tokens /);
  });

  it(`past ${MAX_COMPARED} models the rest are not compared, and said so (Not read)`, () => {
    const q = parse('how long to train 7B, 13B, 30B, 70B, 175B, 405B and 1T on 1024 H100');
    expect(q.stated.comparedModels).toHaveLength(MAX_COMPARED - 1);
    expect(q.notRead).toContainEqual({ phrase: 'the model "1T"', why: `not compared: at most ${MAX_COMPARED} models a question are set side by side; ask again for it` });
  });

  it('beside GPUs compared, the models are not compared (one comparison a question), and said so', () => {
    const q = parse('how long to train 7B vs 13B on 64 H100 vs 64 A100');
    expect(q.stated.comparedGpus).toBeDefined();
    expect(q.stated.comparedModels).toBeUndefined();
    expect(q.notRead).toContainEqual({ phrase: 'the model "13B"', why: 'not compared: one comparison a question, and this one compares GPUs; ask again naming it' });
  });

  it('a model named apart from the compared ones is said (Not read), never dropped unsaid', () => {
    // Before: llama3-70b planned, llama3-8b dropped with no note.
    const q = parse('train llama3-8b on 64 H100 for 1T tokens, also what about llama3-70b');
    expect(q.stated.comparedModels).toBeUndefined();
    expect(q.notRead?.map((n) => n.phrase)).toEqual(expect.arrayContaining([expect.stringMatching(/^the model "llama3-/)]));
  });

  it('"with" joins two models only after "compare": "train 7B with 13B …" compares nothing', () => {
    expect(parse('train 7B with 13B on 64 H100').stated.comparedModels).toBeUndefined();
  });

  it.each([
    'serve llama3-8b at 8.64 million requests per day',
    'how long to train llama 3 8b with seq 1m',
    'train llama3-70b on 2T tokens with a 2M € budget',
  ])('"%s": a size not joined to the model by a comparing word is no model compared', (question) => {
    expect(parse(question).stated.comparedModels).toBeUndefined();
    expect(parse(question).notRead?.some((n) => n.phrase.startsWith('the model'))).not.toBe(true);
  });
});
