import { describe, expect, it } from 'vitest';
import { million } from '@trainplan/units';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/** M in a length: 1,024 k of 1,024 tokens (2^20), as k is 1,024 there ("1M context" doubles "512k"). */
const M = 1024 * 1024;

describe('a prompt, output or context length in millions of tokens is read (the protocol takes up to 10,000,000 each)', () => {
  it.each([
    ['serve llama 3 70b with 1M-token prompts', 'promptTokens', M],
    ['serve llama 3 8b with 1.5 million token prompts and 2k outputs', 'promptTokens', million(1.5)],
    ['serve llama 3 8b with prompts of 1M tokens', 'promptTokens', M],
    ['serve llama 3 8b with 9M token prompts', 'promptTokens', 9 * M],
    ['serve llama 3 8b with 10 million token prompts', 'promptTokens', million(10)],
    ['serve llama 3 8b with 2e6 token prompts', 'promptTokens', million(2)],
    ['serve llama 3 8b with a 4k prompt and 1M output tokens', 'outputTokens', M],
    ['serve llama 3 8b with a 1M-token system prompt', 'sharedPrefixTokens', M],
    // k stays 1,024, as "8k context" reads, and M is 1,024 k.
    ['serve llama 3 70b with a 128k context', 'seqLength', 128 * 1024],
    ['serve llama 3 8b with a 1m context', 'seqLength', M],
    ['serve llama 3 8b with a 1M context', 'seqLength', 2 * 512 * 1024],
    ['how long to train llama 3 8b with seq 1m', 'seqLength', M],
    ['step time of llama 3 8b with 1M-token sequences on 8 nodes', 'seqLength', M],
  ] as const)('"%s": %s %d', (question, field, tokens) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated[field]).toBe(tokens);
  });

  it.each([
    ['20M', '20,971,520'],
    // 10 × 2^20 is past 10,000,000: said as the tokens it is.
    ['10M', '10,485,760'],
  ])('a length past the protocol\'s 10,000,000 (%s) is refused in words, not replaced by the default 2,048-token prompt', (length, asked) => {
    const a = ask(`serve llama 3 70b with ${length} token prompts`, { publicUrl: null });
    expect(a.ok).toBe(false);
    expect(a.headline).toBe(`I could not answer that: a prompt must be at most 10,000,000 tokens (${asked} asked).`);
  });

  it('a 1M-token prompt is planned as asked, its context said to pass the model\'s', () => {
    const a = ask('serve llama 3 8b with 1M-token prompts', { publicUrl: null });
    expect(a.notes.join(' ')).toMatch(/1,048,576 prompt \+ 512 output/);
  });

  it('a number is read whole or not at all: "prompts of 1.2b tokens" is no 1-token prompt, "outputs of 2 gigatokens" no 2-token output', () => {
    expect(parse('serve llama 3 8b with prompts of 1.2b tokens').stated.promptTokens).toBeUndefined();
    expect(parse('serve llama 3 8b with outputs of 2 gigatokens').stated.outputTokens).toBeUndefined();
  });
});

describe('a length the question gives but the parser cannot read is said, not silently replaced by the default', () => {
  it.each([
    ['serve llama 3 8b with 20 gigatoken prompts', 'promptTokens', 'a 2,048-token prompt ("20 gigatoken prompts" not read as a length; say e.g. "4k prompt, 1k output tokens" for others)'],
    ['serve llama 3 8b with prompts of 1.2b tokens', 'promptTokens', 'a 2,048-token prompt ("prompts of 1.2b tokens" not read as a length; say e.g. "4k prompt, 1k output tokens" for others)'],
    ['serve llama 3 8b with a 2 gigatoken context', 'promptTokens', 'a 2,048-token prompt ("2 gigatoken context" not read as a length; say e.g. "4k prompt, 1k output tokens" for others)'],
    ['serve llama 3 8b with outputs of 2 gigatokens', 'outputTokens', '512 generated tokens per request ("outputs of 2 gigatokens" not read as a length)'],
  ] as const)('"%s"', (question, field, text) => {
    const q = parse(question);
    expect(q.defaults.find((d) => d.field === field)?.text).toBe(text);
  });

  it.each([
    'serve llama 3 8b',
    'serve llama3-8b with tp 2 context parallel 2',
    'serve llama 3 70b on 8 h100 at 10 qps',
  ])('"%s" gives no length: "no length given", as before', (question) => {
    const q = parse(question);
    expect(q.defaults.find((d) => d.field === 'promptTokens')?.text).toMatch(/\(no length given;/);
  });
});
