import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * A model of another architecture than a decoder-only transformer (a vision-language model, a state-space model, an
 * encoder-decoder, an encoder) is declined naming the architecture, never planned as the Llama or GPT-style decoder of the
 * size beside it. QA: "a 7B vision-language model" was planned as Llama 2 7B, "T5-11B" and "Jamba 52B" as GPT-style decoders,
 * each with nothing said.
 */
describe('another architecture is declined by name, never planned as a decoder of its size', () => {
  it.each([
    ['how long to train a 7B vision-language model on 1T tokens on 64 H100', 'a vision-language model (7B) is not modelled: an image encoder'],
    ['how long to train a mamba 7B on 1T tokens on 64 H100', 'Mamba 7B is not modelled: a state-space model'],
    ['how long to train a 7B state space model on 1T tokens on 64 H100', 'a state-space model (7B) is not modelled: its layers have no attention'],
    ['how long to train llava 13b on 64 H100', 'LLaVA 13B is not modelled: a vision-language model'],
    ['how long to train a multimodal 70B on 1T tokens on 64 H100', 'a multimodal model (70B) is not modelled'],
    ['how long to train T5-11B on 1T tokens on 64 H100', 'T5 11B is not modelled: an encoder-decoder'],
    ['how long to train flan-t5 11b on 64 H100', 'Flan-T5 11B is not modelled: an encoder-decoder'],
    ['how long to train an 11B encoder-decoder on 1T tokens on 64 H100', 'an encoder-decoder model (11B) is not modelled'],
    ['how long to train a 3B encoder-only model on 1T tokens on 64 H100', 'an encoder-only model (3B) is not modelled'],
    ['how long to train BERT-large on 64 H100', 'BERT-large is not modelled: an encoder-only model'],
    ['how long to train Jamba 52B on 1T tokens on 64 H100', 'Jamba 52B is not modelled: a hybrid of Transformer and Mamba layers with mixture-of-experts'],
  ])('"%s": %s', (question, problem) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toContain(problem);
    expect(q.problems[0]).toContain('trainplan plans decoder-only transformers');
    // The size written with the architecture is the same model's, never a second one said not read.
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.headline).toBe(`I could not answer that: ${q.problems[0]}.`);
    expect(a.assumptions.join(' ')).not.toContain('taken as');
  });

  it.each([
    ['how long to train llama3-8b on 1T tokens on 64 H100', 'llama3-8b'],
    ['how long to train a 7B model on 1T tokens of code on 64 H100', 'llama2-7b'],
    // "decoder-only" is what is planned: no encoder-decoder.
    ['how long to train a decoder-only 7B model on 1T tokens on 64 H100', 'llama2-7b'],
  ])('"%s" names no other architecture and is planned', (question, model) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated.model).toBe(model);
  });
});
