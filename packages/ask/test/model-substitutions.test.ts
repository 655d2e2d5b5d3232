import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const ON = 'on 2T tokens on 512 H100';
const texts = (question: string): string[] => parse(question).defaults.map((d) => d.text);

describe('a model planned as another says so', () => {
  it.each([
    [`how long to train palm 540b ${ON}`, 'mt-nlg-530b', /^PaLM 540B is not a preset: 540B taken as Megatron-Turing NLG 530B \(mt-nlg-530b\)/],
    [`how long to train opt-175b ${ON}`, 'gpt3-175b', /^OPT 175B is not a preset: 175B taken as GPT-3 175B \(gpt3-175b\)/],
  ])('"%s" is planned as %s, and the reading names the family typed', (question, model, reading) => {
    expect(parse(question).stated.model).toBe(model);
    expect(texts(question)[0]).toMatch(reading);
  });

  it.each([
    [`how long to train codellama 34b ${ON}`, 'Code Llama 34B'],
    [`how long to train code llama 34B ${ON}`, 'Code Llama 34B'],
    [`how long to train yi 34b ${ON}`, 'Yi 34B'],
  ])('"%s": a size no preset has, shaped Llama-style (a Llama-architecture family), the name typed said not planned', (question, name) => {
    const q = parse(question);
    expect(q.stated.customModel?.askedParameters).toBe(34e9);
    expect(q.defaults[0]?.text).toMatch(new RegExp(`^${name} is not a preset: 34B taken as a Llama-style decoder`));
  });

  it('"a 13B llama-like model" says the preset it is planned as, as a bare size does', () => {
    const question = `how long to train a 13B llama-like model ${ON}`;
    expect(parse(question).stated.model).toBe('llama2-13b');
    expect(texts(question)[0]).toBe('13B Llama-like taken as Llama 2 13B (llama2-13b)');
    expect(texts(`how long to train a 7B llama-style model ${ON}`)[0]).toBe('7B Llama-style taken as Llama 2 7B (llama2-7b)');
  });

  it('"a 34B model with 60 layers": the layers said not read, first among the notes', () => {
    const a = ask(`how long to train a 34B model with 60 layers ${ON}`, { publicUrl: null });
    expect(a.notes[0]).toMatch(/^Not read: "with 60 layers" \(a layer count is not taken: /);
  });
});

describe('a model name no preset has is named back, never "name a model"', () => {
  it.each([
    [`how long to train gpt2 ${ON}`, 'GPT-2'],
    [`how long to train llama 1 65b ${ON}`, 'Llama 1'],
  ])('"%s": %s is not a known model, with known ones listed', (question, name) => {
    const a = ask(question, { publicUrl: null });
    expect(a.headline).toContain(`${name} is not a known model; known ones include gpt3-175b, llama3-8b, llama3-70b`);
    expect(a.headline).not.toContain('name a model');
  });

  it('"deepseek v3 on 2048 H800s" names the GPU no preset models beside the model', () => {
    const q = parse('how long to train deepseek v3 on 2048 H800s');
    expect(q.problems.some((p) => p.startsWith('H800 is not modelled; the GPU presets are '))).toBe(true);
    expect(q.problems.some((p) => p.startsWith('DeepSeek-V3 is a mixture-of-experts model'))).toBe(true);
  });
});
