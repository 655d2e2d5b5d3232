import { describe, expect, it } from 'vitest';
import { COUNT_SCALE, decimalCommas, MONEY_SCALE, SCALED_COUNT, SIZE_SCALE, scaledCount, spelledNumbers, spelledScales, unreadNumberWords, writtenNumbers } from '../src/lexicon/numbers.ts';
import { parse } from '../src/parse.ts';

describe('numbers: the pieces counts, money and sizes are written with', () => {
  it('each reader takes the scales it means, letters before words: a count all four, money no trillions, a size no thousands', () => {
    expect(COUNT_SCALE).toBe('k|m|b|t|thousand|million|billion|trillion');
    expect(MONEY_SCALE).toBe('k|m|b|thousand|million|billion');
    expect(SIZE_SCALE).toBe('m|b|t|million|billion|trillion');
  });

  it.each([
    ['1.7m', 1_700_000],
    ['300 billion', 300_000_000_000],
    ['2t', 2_000_000_000_000],
    ['500k', 500_000],
    ['4096', 4096],
  ])('SCALED_COUNT reads "%s" (normalised text is lower case) as %d with scaledCount', (text, count) => {
    const m = new RegExp(`^${SCALED_COUNT}$`).exec(text);
    expect(m).not.toBeNull();
    expect(scaledCount(m?.[1], m?.[2])).toBe(count);
  });

  it.each([
    ['two trillion tokens', '2 trillion tokens'],
    ['half a trillion tokens', '0.5 trillion tokens'],
    ['a billion tokens', '1 billion tokens'],
    ['300bn tokens', '300b tokens'],
    ['15 tn tokens', '15t tokens'],
    ['two weeks on one node', 'two weeks on one node'],
  ])('spelledScales writes "%s" as "%s"', (text, digits) => {
    expect(spelledScales(text)).toBe(digits);
  });
});

describe('numbers: writtenNumbers reads grouped digits and powers of ten as plain digits', () => {
  it.each([
    ['1 000 000 000 000 tokens', '1000000000000 tokens'],
    ['1\u00a0024 gpus', '1024 gpus'],
    ['1_000_000 tokens', '1000000 tokens'],
    ["1'024 gpus", '1024 gpus'],
    ['1.000.000 tokens', '1000000 tokens'],
    ['3 × 10^11 tokens', '300000000000 tokens'],
    ['3*10**11 tokens', '300000000000 tokens'],
    ['1.5e+12 tokens', '1500000000000 tokens'],
  ])('"%s" is "%s"', (text, digits) => {
    expect(writtenNumbers(text)).toBe(digits);
  });

  it.each([
    // A decimal with one dot, a model's version before its size, a parallel size before a count, a list of sizes.
    '1.000 gpus', 'llama 3 405b', 'llama 3 405 on 16 nodes', 'tp 8 512 gpus', 'pp 16 128 nodes', 'h100 80gb', 'seq 8192 256 gpus',
  ])('"%s" keeps its numbers apart', (text) => {
    expect(writtenNumbers(text)).toBe(text);
  });
});

describe('numbers: one group of three digits after a space is one number where nothing makes it two', () => {
  it.each([
    // Space, thin space, narrow no-break space and no-break space alike, as SI style and French set them.
    ['global batch 1 024 and tp 8', 'global batch 1024 and tp 8'],
    ['global batch 1\u2009024 on 64 h100', 'global batch 1024 on 64 h100'],
    ['on 1\u202f024 h100', 'on 1024 h100'],
    ['gbs 1\u00a0536, tp 8', 'gbs 1536, tp 8'],
    ['gbs 1 536 sequences', 'gbs 1536 sequences'],
    ['dp 1 024 on 8 192 gpus', 'dp 1024 on 8192 gpus'],
    ['a 2 048 token prompt', 'a 2048 token prompt'],
    ['with 1 000 000, tp 8', 'with 1000000, tp 8'],
    ['global batch 1 024', 'global batch 1024'],
    // Not listed sizes: 24× and a group led by 0 are one number's digits.
    ['on 16 384 gpus', 'on 16384 gpus'],
    ['on 32 768 h100', 'on 32768 h100'],
  ])('"%s" is "%s"', (text, digits) => {
    expect(writtenNumbers(text)).toBe(digits);
  });

  it.each([
    // Two numbers: a group not of three digits, a parallel size before a cluster count, a version before a size, a
    // number joined to what follows ("128-gpu", "405b"), a decimal after the group.
    '8 16 gpus', 'tp 2 4096 tokens', 'tp 8 512 h100', 'dp 4 128 nodes', 'llama 3 405 on 16 nodes', 'llama-3 405 on 8 nodes',
    'gpt3 175 on 8 nodes', 'zero 3 512', 'on 2 128-gpu nodes', 'deepseek v 3 671b', '1 024.5 gpus', '1 0240 gpus',
    // Sizes listed before a cluster's count, each a power-of-two multiple of the one before (before: 64,128 nodes, unsaid).
    'on 64 128 nodes', 'on 64 128 256 h100', 'on 128 256 512 gpus',
  ])('"%s" keeps its numbers apart', (text) => {
    expect(writtenNumbers(text)).toBe(text);
  });

  it.each([
    ['how long to train gpt3-175b on 1 024 a100 with global batch 1 536 and tp 8', { gpus: 1024, globalBatchSize: 1536, tensor: 8 }],
    ['how long to train gpt3-175b with global batch 1 024 on 1 024 h100', { gpus: 1024, globalBatchSize: 1024 }],
    ['best config for gpt3-175b on 1\u202f024 GPUs, gbs 1\u2009536, tp 8', { gpus: 1024, globalBatchSize: 1536, tensor: 8 }],
    ['best config for gpt3-175b with tp 8 512 h100', { gpus: 512, tensor: 8 }],
  ])('parse reads "%s" as %o', (question, stated) => {
    expect(parse(question).stated).toMatchObject(stated);
  });
});

describe('numbers: a decimal comma before a unit is a decimal point', () => {
  const DAY = 24 * 60 * 60;
  it.each([
    ['in 2,5 days', 'in 2.5 days'],
    ['1,5 weeks', '1.5 weeks'],
    ['on 1,5t tokens', 'on 1.5t tokens'],
    ['1,25 months', '1.25 months'],
    ['2,5 ms per token', '2.5 ms per token'],
    ['at $2,50/gpu-hour', 'at $2.50/gpu-hour'],
    ['at 2,50 $ per gpu-hour', 'at 2.50 $ per gpu-hour'],
    ['0,5 trillion tokens', '0.5 trillion tokens'],
  ])('"%s" is "%s"', (text, decimal) => {
    expect(decimalCommas(text)).toBe(decimal);
  });

  it.each([
    // Thousands grouping (three digits after the comma), lists of sizes, a model's version beside its size, a comma between clauses.
    '1,536 gpus', '1,000,000 tokens', 'tp 2,4,8', 'nodes 2,4 or 8', 'llama 3,70b', '70b on 2t tokens, 64 h100', 'pp 2,4 days',
  ])('"%s" keeps its commas', (text) => {
    expect(decimalCommas(text)).toBe(text);
  });

  it.each([
    ['in 2,5 days how many h100 nodes to train llama3 8b on 1T tokens', { deadlineSeconds: 2.5 * DAY, tokens: 1e12 }],
    ['how long to train llama3 8b on 1,5T tokens on 64 h100', { tokens: 1.5e12, gpus: 64 }],
    ['how long to train llama3 8b on 1,000,000,000,000 tokens on 1,024 h100', { tokens: 1e12, gpus: 1024 }],
  ])('parse reads "%s" with the comma as a point, thousands still grouped', (question, stated) => {
    expect(parse(question).stated).toMatchObject(stated);
  });

  it('a price written with a decimal comma is that price, not the cents alone', () => {
    expect(parse('cheapest way to train llama3-70b on 2T tokens at $2,50/GPU-hour').stated.pricePerGpuHour).toBe(2.5);
  });
});

/**
 * English cardinals spelt out, by hand: tens + unit ("sixty-four" = 60 + 4), hundreds (× 100), thousands (× 1,000), "and"
 * after a scale allowed. QA: "sixty-four h100" planned 4 GPUs (its last word read alone), "two thousand h100" was not read.
 */
describe('numbers: spelledNumbers writes compound numbers in digits, whole or not at all', () => {
  it.each([
    ['on sixty-four h100', 'on 64 h100'],
    ['on sixty four h100', 'on 64 h100'],
    ['thirty-two h100 nodes', '32 h100 nodes'],
    ['twenty-four 8x h100 nodes', '24 8x h100 nodes'],
    ['sixteen nodes', '16 nodes'],
    ['two thousand h100', '2000 h100'],
    ['one hundred twenty-eight gpus', '128 gpus'],
    ['one hundred and twenty eight gpus', '128 gpus'],
    ['two thousand forty-eight h100', '2048 h100'],
    ['two thousand and forty-eight h100', '2048 h100'],
    ['twenty-five hundred gpus', '2500 gpus'],
    ['two hundred thousand tokens', '200000 tokens'],
    ['a thousand h100', '1000 h100'],
    ['twenty million tokens', '20 million tokens'],
    ['sixteen and thirty-two nodes', '16 and 32 nodes'],
    ['sixteen-bit kv cache', '16-bit kv cache'],
  ])('"%s" → "%s"', (text, digits) => {
    expect(spelledNumbers(text)).toBe(digits);
  });

  it.each([
    // One to twelve alone stay words: the count and duration patterns read them ("two weeks", "one node").
    'two weeks on one node',
    // No one number: left whole, never read in part ("four" of "one eighty four" is no 4).
    'on one eighty four h100',
    'on two four nodes',
    'hundred gpus',
    'thousands of gpus',
  ])('"%s" is left as written', (text) => {
    expect(spelledNumbers(text)).toBe(text);
  });

  it('a run that is no one number is found to be said not read; lone one to twelve is not', () => {
    expect(unreadNumberWords('on one eighty four h100')).toEqual(['one eighty four']);
    expect(unreadNumberWords('two weeks on one node')).toEqual([]);
  });

  it('spelledScales reads "half a thousand" as half, not "a thousand"', () => {
    expect(spelledScales('half a thousand gpus')).toBe('0.5 thousand gpus');
  });
});
