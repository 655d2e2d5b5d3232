import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * "How many params is llama3 70b", "param count of gpt3 175b": the parameter count of the preset's shape. QA found both
 * answered with a Chinchilla token budget ("about 1.40T training tokens at 20 tokens per parameter").
 */
describe('a model\'s parameter count is answered as the count, from its shape', () => {
  it.each([
    // By hand, Llama 3 70B (h 8192, FFN 28672, 80 layers, 64 heads of which 8 KV, vocabulary 128256, untied, RMSNorm):
    // a layer's matrices 8192·(8192 + 2·1024) + 8192² + 3·8192·28672 = 855,638,016, with its two norms 855,654,400;
    // × 80 = 68.45B, plus 2 × 128256·8192 = 2.10B of embedding and output layer and the final norm: 70,553,706,496 = 70.6B.
    ['how many params is llama3 70b', 'Llama 3 70B: 70.6B parameters (80 layers of 856M, 2.10B in the embedding and output layer; published as 70B)'],
    ['how many parameters does llama3-70b have', 'Llama 3 70B: 70.6B parameters (80 layers of 856M, 2.10B in the embedding and output layer; published as 70B)'],
    // By hand, GPT-3 175B (h 12288, 96 layers, vocabulary padded to 51200, 2048 learned positions, tied): 12h² + 13h =
    // 1,812,099,072 a layer, × 96 = 173.96B, plus 51200·12288 + 2048·12288 = 654M and the final LayerNorm: 174.6B.
    ['param count of gpt3 175b', 'GPT-3 175B: 175B parameters (96 layers of 1.81B, 654M in the embedding (tied with the output layer); published as 175B)'],
  ])('"%s"', (question, headline) => {
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(true);
    expect(a.headline).toBe(headline);
    expect(a.headline).not.toContain('training tokens');
    expect(a.configuration).toBeUndefined();
  });

  it('the active parameters asked of a preset are its whole count: every preset is dense (QA: a configuration search ran)', () => {
    const a = ask('what are the active parameters of llama3-70b', OPTIONS);
    expect(a.ok).toBe(true);
    // The count by hand above: 70,553,706,496 = 70.6B, every one of them active for each token.
    expect(a.headline).toBe('Llama 3 70B: 70.6B parameters, all active for every token: a dense model (80 layers of 856M, 2.10B in the embedding and output layer; published as 70B)');
    expect(a.configuration).toBeUndefined();
    // Asked without "active", nothing of it is said.
    expect(ask('how many params is llama3 70b', OPTIONS).headline).not.toContain('active');
  });

  it('a token count asked of a model is still the tokens', () => {
    expect(ask('tokens per parameter for 70B', OPTIONS).headline).toMatch(/^Llama 3 70B: about 1\.40T training tokens/);
  });
});

/**
 * "2M gpu hours of h100": a GPU-hour budget. QA found the 2M read as a 2M-parameter model, refused as smaller than any
 * decoder; and "how big a model" is no question the planner answers, which is said.
 */
describe('"we have 2M gpu hours of h100, how big a model …": the budget read, the model size said not answered', () => {
  const question = 'we have 2M gpu hours of h100, how big a model can we train on 10T tokens?';

  it('reads 2M H100 GPU-hours and 10T tokens, and no model', () => {
    const q = parse(question, OPTIONS);
    expect(q.stated).toMatchObject({ gpu: 'h100-sxm', gpuHours: 2e6, tokens: 10e12 });
    expect(q.stated.customModel).toBeUndefined();
    expect(q.stated.model).toBeUndefined();
  });

  it('says how big a model is not answered, with a question that is, never a 2M-parameter model', () => {
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('how big a model a budget trains is not answered here: I plan a model you name');
    expect(a.headline).not.toMatch(/2M parameters|name a model:/);
    // The question it names is one the bot answers (an answer, not a refusal): the budget checked for the model named.
    const named = ask('can we train llama3-70b on 10T tokens with 2M H100 GPU-hours', OPTIONS);
    expect(named.kind).toBe('answer');
    expect(named.headline).toContain('2M GPU-hour budget');
  });

  it('"600k H100 hours" beside a model is the budget too, the model the one named', () => {
    expect(parse('train 70b with 600k H100 hours', OPTIONS).stated).toMatchObject({ model: 'llama3-70b', gpuHours: 600e3 });
  });
});
