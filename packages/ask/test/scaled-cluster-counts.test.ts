import { describe, expect, it } from 'vitest';
import { ask, parse } from '../src/index.ts';

const on = (size: string): string => `how long to train gpt3-175b on ${size} on 300B tokens`;

describe('a cluster size written with a scale reads as its digits do (k and thousand a thousand, M and million a million)', () => {
  // QA: "1M H100s" and "2M H100s" were dropped unsaid and 128 nodes planned as "no cluster size given"; "1 million H100s"
  // and "1M GPUs" were said not read; "1,000,000 H100s" read 125,000 nodes.
  it.each([
    ['1M H100s', '1,000,000 H100s', { gpus: 1_000_000 }],
    ['2M H100s', '2,000,000 H100s', { gpus: 2_000_000 }],
    ['1 million H100s', '1,000,000 H100s', { gpus: 1_000_000 }],
    ['a million H100s', '1,000,000 H100s', { gpus: 1_000_000 }],
    ['1M GPUs', '1,000,000 GPUs', { gpus: 1_000_000 }],
    ['1.5m H100', '1,500,000 H100', { gpus: 1_500_000 }],
    ['100 thousand H100s', '100,000 H100s', { gpus: 100_000 }],
    ['100k H100s', '100,000 H100s', { gpus: 100_000 }],
    ['2 thousand nodes', '2,000 nodes', { nodes: 2000 }],
    ['10k nodes', '10,000 nodes', { nodes: 10_000 }],
    ['1M nodes', '1,000,000 nodes', { nodes: 1_000_000 }],
    ['1m h100 nodes', '1,000,000 h100 nodes', { nodes: 1_000_000 }],
    // QA: "on 1b H100s" was a budget of 1B tokens, planned on 128 nodes; b, billion, T and trillion count as k and M do.
    ['1b H100s', '1,000,000,000 H100s', { gpus: 1e9 }],
    ['1B H100', '1,000,000,000 H100', { gpus: 1e9 }],
    ['1 billion H100s', '1,000,000,000 H100s', { gpus: 1e9 }],
    ['1b GPUs', '1,000,000,000 GPUs', { gpus: 1e9 }],
    ['1b nodes', '1,000,000,000 nodes', { nodes: 1e9 }],
    ['2T H100s', '2,000,000,000,000 H100s', { gpus: 2e12 }],
  ])('"%s" is planned as "%s"', (scaled, digits, counts) => {
    const q = parse(on(scaled));
    expect(q.stated).toMatchObject(counts);
    expect(q.parameters).toEqual(parse(on(digits)).parameters);
    expect(q.notRead ?? []).toEqual([]);
    expect(q.defaults.map((d) => d.text).join(' ')).not.toMatch(/no cluster size given|not read/);
  });

  it.each([
    ['h100 x 1m', 1_000_000], ['h100 x 2 million', 2_000_000], ['h100 x 1.5k', 1500], ['h100 x 512', 512],
  ])('the count after the name, as a bill of materials writes it, scales alike: "%s"', (written, gpus) => {
    // Review: "H100 x 1M" kept the k-only pattern: no size read, 128 nodes planned; "h100 x 2 million" read 2 GPUs.
    expect(parse(`how long to train llama 3 70b on ${written}`).stated).toMatchObject({ gpu: 'h100-sxm', gpus });
  });

  it('two sizes compared with scales are each read as their digits ("1M vs 2M H100s")', () => {
    const q = parse(on('1M vs 2M H100s'));
    expect([q.stated.gpus, q.stated.comparedSizes?.map((c) => c.gpus ?? c.nodes)]).toEqual([1_000_000, [2_000_000]]);
  });
});

describe('a cluster past the protocol\'s caps (1,000,000 nodes; GPUs to 1,000,000 nodes of the machine\'s) is refused with the cap', () => {
  it.each([
    ['2M nodes', 'the node count must be at most 1,000,000 nodes (2,000,000 asked)'],
    ['2,000,000 nodes', 'the node count must be at most 1,000,000 nodes (2,000,000 asked)'],
    ['10M H100s', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (10,000,000 asked)'],
    ['9 million GPUs', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (9,000,000 asked)'],
    ['1e20 H100s', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (100,000,000,000,000,000,000 asked)'],
    ['1e308 H100s', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (1e+308 asked)'],
    ['1b H100s', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (1,000,000,000 asked)'],
    ['1B H100', 'the GPU count must be at most 8,000,000 GPUs, 1,000,000 nodes of 8 (1,000,000,000 asked)'],
    ['1b nodes', 'the node count must be at most 1,000,000 nodes (1,000,000,000 asked)'],
  ])('"%s": %s', (size, refusal) => {
    const a = ask(on(size), { publicUrl: null });
    expect([a.ok, a.headline]).toEqual([false, `I could not answer that: ${refusal}.`]);
  });

  it('1,000,000 nodes, the cap itself, is planned', () => {
    expect(parse(on('1M nodes')).stated.nodes).toBe(1_000_000);
    expect(ask(on('1M nodes'), { publicUrl: null }).headline).not.toMatch(/must be at most/);
  });
});

describe('a count of tokens in billions stays tokens: only a count directly before GPUs or nodes counts them', () => {
  it.each([
    ['train llama3-8b on 1B tokens', { tokens: 1e9 }],
    ['train llama3-8b on 1b tokens with 8 H100s', { tokens: 1e9, gpus: 8 }],
    ['train on 1b tokens with 8 H100s', { tokens: 1e9, gpus: 8 }],
    // "300b" after the model and "on": the tokens it trains on (bare-tokens.ts), beside the GPUs or a precision after it.
    ['train llama3-8b on 300b on 64 H100', { tokens: 300e9, gpus: 64 }],
    ['train llama3-8b on 300b bf16 on 64 H100', { tokens: 300e9, gpus: 64, precision: 'bf16' }],
  ])('"%s"', (question, stated) => {
    const q = parse(question);
    expect(q.stated).toMatchObject(stated);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"serve 1b tokens a day": no cluster read from it', () => {
    const q = parse('serve llama3-8b at 1b tokens a day');
    expect([q.stated.gpus, q.stated.nodes]).toEqual([undefined, undefined]);
    expect(ask('serve llama3-8b at 1b tokens a day', { publicUrl: null }).headline).not.toMatch(/must be at most/);
    expect(parse('serve 1b tokens a day').stated.gpus).toBeUndefined();
  });
});
