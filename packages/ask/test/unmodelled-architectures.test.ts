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
    // The architecture word names the model planned: with its size, or a model's word after it.
    ['train a 7B multimodal model on 1T tokens in 30 days', 'a multimodal model (7B) is not modelled: an image encoder'],
    ['train a vision-language 7B on 1T tokens in 30 days', 'a vision-language model (7B) is not modelled: an image encoder'],
    ['how long to train a multimodal llm on 1T tokens on 64 H100', 'a multimodal model is not modelled: an image encoder'],
    ['how long to train mamba on 1T tokens on 64 H100', 'Mamba is not modelled: a state-space model'],
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

/**
 * An architecture's word that names no model planned: the data trained on, the team, a tokenizer or a classifier used on the
 * data. QA: each of the four below was declined as a multimodal model, T5 or BERT, the model asked a 7B decoder.
 */
describe('a passing mention of another architecture leaves the model asked planned', () => {
  it.each([
    'train a 7B model on 1T tokens of multimodal data in 30 days',
    'train a 7B model on 1T tokens in 30 days for our multimodal team',
    'train a 7B model on 1T tokens in 30 days tokenized with the T5 tokenizer',
    'train a 7B model on 1T tokens in 30 days deduplicated with a BERT classifier',
  ])('"%s" is planned as the 7B asked', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    // 7B is Llama 2 7B's size, the preset a bare 7B is read as (lexicon/models.ts).
    expect(q.stated).toMatchObject({ model: 'llama2-7b', tokens: 1e12, deadlineSeconds: 30 * 86_400 });
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.assumptions.join(' ')).not.toMatch(/not modelled|text decoder/);
  });
});

/**
 * A preset named as the language model of a vision-language model ("train llava with llama3-8b"): planned as the text decoder
 * it is, and said, since the image encoder and projector are not counted. QA: the preset was planned with nothing said, and
 * "llava" said not read as a second model not compared.
 */
describe('a preset named with a vision-language model is planned as its text decoder, said', () => {
  const NOTE = 'planned as the text decoder of';
  const ENCODER = 'alone: the image encoder and the projector that feed it image tokens are not modelled (LLaVA: Liu et al. 2023, arXiv:2304.08485)';

  it.each([
    ['train llava with llama3-8b on 1T tokens on 64 H100', 'Llama 3 8B planned as the text decoder of LLaVA '],
    ['how long to train llama3-8b as a multimodal model on 1T tokens on 64 H100', 'Llama 3 8B planned as the text decoder of a multimodal model '],
  ])('"%s"', (question, note) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama3-8b', tokens: 1e12, gpus: 64 });
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.assumptions).toContain(`${note}${ENCODER}`);
  });

  it('a preset with no vision-language model named says nothing of one', () => {
    const a = ask('how long to train llama3-8b on 1T tokens of multimodal data on 64 H100', OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.assumptions.join(' ')).not.toContain(NOTE);
  });
});

/**
 * Llama 3.2 11B and 90B are its Vision models, Llama 3.1 8B and 70B with a vision adapter (Meta's Llama 3.2 model card): declined
 * as vision-language models with the text model each is built on, never shaped as Llama 3.2-style text decoders of 11B or 90B.
 */
describe('Llama 3.2 11B and 90B are declined as its Vision models', () => {
  it.each([
    ['how long to train llama 3.2 11b on 1T tokens on 64 H100', '11B', 'llama3.1-8b'],
    ['how long to train llama 3.2 90b on 1T tokens on 64 H100', '90B', 'llama3.1-70b'],
  ])('"%s"', (question, size, text) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems).toEqual([`Llama 3.2 ${size} is Llama 3.2 ${size} Vision, a vision-language model: ${text} with an image encoder and a vision adapter of cross-attention layers `
      + `that a decoder's plan does not count (Meta's Llama 3.2 model card, 2024-09-25); ask for ${text} to plan its text decoder alone`]);
  });
});
