import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

const modelReading = (question: string): string | undefined => parse(question).defaults.find((d) => d.field === 'model')?.text;

describe('a family named without a size, or a size several of its versions share, says which preset it took', () => {
  it.each([
    // QA: each was planned as a 70B preset with no assumption said.
    ['how long to train llama3', 'llama3-70b', 'Llama 3 alone taken as its largest preset, Llama 3 70B (llama3-70b); also Llama 3: llama3-8b (name one to plan it)'],
    ['how long to train llama 2', 'llama2-70b', 'Llama 2 alone taken as its largest preset, Llama 2 70B (llama2-70b); also Llama 2: llama2-7b, llama2-13b (name one to plan it)'],
    ['how long to train llama 70b on 2T tokens', 'llama3-70b', 'Llama 70B taken as Llama 3 70B (llama3-70b); also that size: llama3.1-70b, llama2-70b (name one to plan it)'],
  ])('"%s" is %s, said', (question, model, reading) => {
    expect(parse(question).stated.model).toBe(model);
    expect(modelReading(question)).toBe(reading);
  });

  it('a version and size named: nothing to say', () => {
    expect(modelReading('how long to train llama 3 70b')).toBeUndefined();
  });

  it('"a 70-billion-parameter model" is 70B', () => {
    const q = parse('how long to train a 70-billion-parameter model on 300 billion tokens on 1024 H100');
    expect(q.stated).toMatchObject({ model: 'llama3-70b', tokens: 300e9, gpus: 1024 });
    expect(q.notRead).toEqual([]);
  });
});
