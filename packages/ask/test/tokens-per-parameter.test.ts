import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { asksTokensAlone } from '../src/answer/tokens-per-parameter.ts';

describe('"chinchilla optimal tokens for 70B": the tokens, never a cluster plan', () => {
  it('about 1.4T tokens for 70B, 20 per parameter, Hoffmann et al. 2022 cited', () => {
    const q = parse('chinchilla optimal tokens for 70B');
    expect(q.stated).toMatchObject({ model: 'llama3-70b', tokensPerParameter: 20 });
    const a = ask('chinchilla optimal tokens for 70B', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama 3 70B: about 1\.40T training tokens at 20 tokens per parameter/);
    expect(a.headline).toContain('arXiv:2203.15556');
    expect(a.configuration).toBeUndefined();
    expect(a.scenario).toBeUndefined();
    expect(a.notes.some((n) => n.includes('15.0T tokens'))).toBe(true);
  });

  // "how many parameters does llama3-70b have" is the count alone now (parameter-count.test.ts).
  it.each([
    // Before: a configuration search, "Best for Llama 3 70B … 194 days".
    'tokens per parameter for 70B',
  ])('"%s": answered with the parameter count and the tokens, never a search', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(/^Llama 3 70B: about 1\.4\d?T training tokens at 20 tokens per parameter \(70\.\dB parameters × 20/);
    expect(a.configuration).toBeUndefined();
  });

  it('"how many parameters … on 64 H100 in 30 days" still plans', () => {
    expect(ask('how many parameters can I train on 64 H100 in 30 days', { publicUrl: null }).headline).not.toMatch(/tokens per parameter \(/);
  });

  it('"how many tokens is compute-optimal for llama3-8b": 160B', () => {
    expect(ask('how many tokens is compute-optimal for llama3-8b', { publicUrl: null }).headline).toMatch(/^Llama 3 8B: about 160B training tokens/);
  });

  it('a plan asked beside it is planned on the Chinchilla tokens, the reading said', () => {
    const a = ask('how many H100 nodes to train 70b chinchilla optimal in 30 days', { publicUrl: null });
    expect(a.intent).toBe('nodes');
    expect(a.headline).toMatch(/train 1\.40T tokens in [\d.]+ days \(deadline 30 days\)$/);
    expect(a.assumptions[0]).toMatch(/^Chinchilla-optimal read as 20 training tokens per parameter \(Hoffmann et al\. 2022, arXiv:2203\.15556/);
  });

  it('a stated budget wins over the word', () => {
    expect(parse('train 70b on 2T tokens, more than chinchilla optimal, on 64 h100').stated).toMatchObject({ tokens: 2e12 });
    expect(parse('train 70b on 2T tokens, more than chinchilla optimal, on 64 h100').stated.tokensPerParameter).toBeUndefined();
  });
});

describe('"tokens for 70B", "how many tokens for 70B": a token count asked of a model is the tokens-per-parameter question', () => {
  it.each([
    ['tokens for 70B', /^Llama 3 70B: about 1\.40T training tokens at 20 tokens per parameter/],
    ['how many tokens for 70B', /^Llama 3 70B: about 1\.40T training tokens at 20 tokens per parameter/],
    ['how many training tokens for llama3-8b?', /^Llama 3 8B: about 160B training tokens at 20 tokens per parameter/],
  ])('"%s" answers the tokens at Chinchilla\'s 20 a parameter, said as assumed (before: a configuration or time search)', (question, headline) => {
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.headline).toMatch(headline);
    expect(a.configuration).toBeUndefined();
    expect(a.assumptions[0]).toMatch(/^no tokens per parameter given: Chinchilla-optimal read as 20 training tokens per parameter/);
  });

  it.each([
    'how many tokens per second for 70B on 64 H100',
    'how many tokens can I train llama3-8b on in 30 days on 64 H100',
    'how long to train 70B on 2T tokens',
  ])('"%s" is no token count of a model: planned as before', (question) => {
    expect(asksTokensAlone(parse(question))).toBe(false);
  });
});
