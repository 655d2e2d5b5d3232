import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { scenarioOf } from '../src/scenario.ts';

/**
 * A length in tokens counts k as 1,024 and M as 1,024 k, as "seq 128k" and "128k context" read (lexicon/numbers.ts
 * tokenLength): 128k = 128 × 1,024 = 131,072; 32k = 32,768; 1M = 1,048,576.
 */
const K = 1024;
const M = K * K;

/** The question's length as the bot plans and sends it: parsed, with defaults, and in the scenario it builds. */
function lengths(question: string) {
  const q = parse(question);
  return { q, stated: q.stated.seqLength, planned: q.parameters.seqLength, sent: scenarioOf(q.parameters).training.seqLength };
}

describe('a sequence length written with no word of its own is read as the sequence length', () => {
  it('"seq 128k", the convention kept, is 131,072 tokens', () => {
    expect(parse('best configuration for llama3-70b seq 128k on 16 H100 nodes').stated.seqLength).toBe(128 * K);
  });

  it.each([
    ['best configuration for llama3-70b at 128k on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b 128k sequences on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b 128k seqs on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b with sequences of 128k on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b with sequences of 128k tokens on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b at 32k context on 16 H100 nodes', 32 * K],
    ['best configuration for llama3-70b at a 128k context window on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b 128k ctx on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b with 1M context on 16 H100 nodes', M],
    ['best configuration for llama3-70b at 131072 on 16 H100 nodes', 131_072],
    // "at" a count of tokens is the length the run is at; a budget is "on" or "for" its tokens (below).
    ['best configuration for llama3-70b at 128k tokens on 16 H100 nodes', 128 * K],
    ['best configuration for llama3-70b on 16 H100 nodes at 128k?', 128 * K],
  ])('"%s": %i tokens, the 16 nodes kept', (question, tokens) => {
    const { q, stated, planned, sent } = lengths(question);
    expect([stated, planned, sent]).toEqual([tokens, tokens, tokens]);
    expect(q.stated.nodes).toBe(16);
    expect(q.stated.tokens).toBeUndefined();
    expect(q.notRead ?? []).toEqual([]);
  });

  it('with context parallelism named, CP 16 and the 131,072-token length both (QA: CP 16 over an 8,192-token default, 512-token chunks)', () => {
    const { q, sent } = lengths('best configuration for llama3-70b with context parallelism 16 at 128k on 16 H100 nodes');
    expect(q.stated.context).toBe(16);
    expect(sent).toBe(128 * K);
  });

  it.each([
    // The context is the prompt and what it generates: 131,072 − 512 = 130,560; 32,768 − 512 = 32,256; 1,048,576 − 512 = 1,048,064.
    ['serve llama3-70b on one H100 node at 128k', 128 * K, 130_560],
    ['serve llama3-70b on 8 H100 at 32k context', 32 * K, 32_256],
    ['serve llama3-70b on 8 H100 at 1M', M, 1_048_064],
  ])('serving "%s": a %i-token context, a %i-token prompt before 512 generated', (question, context, prompt) => {
    const q = parse(question);
    expect(q.stated.seqLength).toBe(context);
    expect(q.parameters).toMatchObject({ promptTokens: prompt, outputTokens: 512 });
  });
});

describe('other quantities beside a length are not taken for one', () => {
  it.each([
    // A rate, a count of nodes, of GPUs, of steps, a batch in sequences or tokens: each what it counts.
    ['best configuration for llama3-70b at 128k tokens/s on 16 H100 nodes', {}],
    ['train llama3-70b at 128 nodes', { nodes: 128 }],
    ['how long to train llama3-70b on 15T tokens at 8k on 128k GPUs', { seqLength: 8 * K, tokens: 15e12, gpus: 128_000 }],
    ['best configuration for llama3-70b 128k steps on 16 H100 nodes', {}],
    ['best configuration for llama3-70b at 2k batch on 16 H100 nodes', { globalBatchSize: 2000 }],
    ['best configuration for llama3-70b with a global batch of 2k sequences on 16 H100 nodes', { globalBatchSize: 2000 }],
    ['best configuration for llama3-70b global batch at 2048 on 16 H100 nodes', {}],
    ['best configuration for llama3-70b with 2k sequences per batch on 16 H100 nodes', {}],
    ['best configuration for llama3-70b at 128k tokens per batch on 16 H100 nodes', { batchTokens: 128_000 }],
    // Data trained on, not a length: "on 64k sequences", and a count of them that is no length's power of two.
    ['train llama3-70b on 64k sequences on 16 H100 nodes', {}],
    ['best configuration for llama3-70b with 50k sequences on 16 H100 nodes', {}],
    // A budget "on" its tokens stays one, however small: the answer says it is less than one step, where "at 128k" is a length.
    ['how long to train llama3-70b on 128k tokens on 16 H100 nodes', { tokens: 128_000 }],
    // Money: "$128k" is a budget beside a length.
    ['llama3-8b at 32k for 1T tokens with a $128k budget at $2/GPU-hour', { seqLength: 32 * K, tokens: 1e12, costBudget: 128_000 }],
    ['serve llama3-70b on 8 H100 with 4k prompt, 1k output', { promptTokens: 4 * K, outputTokens: K }],
  ] as const)('"%s" → %j', (question, read) => {
    const q = parse(question);
    expect(q.stated.seqLength).toBe('seqLength' in read ? read.seqLength : undefined);
    expect(q.stated).toMatchObject(read);
  });

  it.each([
    ['best configuration for llama3-70b at 128k tokens/s on 16 H100 nodes', '128k tokens'],
    ['best configuration for llama3-70b 128k steps on 16 H100 nodes', '128k steps'],
    ['train llama3-70b on 64k sequences on 16 H100 nodes', '64k sequences'],
  ])('"%s": "%s" said not read, never dropped', (question, phrase) => {
    expect(parse(question).notRead?.map((n) => n.phrase)).toContain(`"${phrase}"`);
  });

  it('a second length is said not read, never put in the first one\'s place unsaid', () => {
    const q = parse('best configuration for llama3-70b at 128k with 32k context on 16 H100 nodes');
    expect(q.stated.seqLength).toBe(128 * K);
    expect(q.notRead?.map((n) => n.phrase)).toContain('"32k context"');
  });
});

describe('the Configuration line states the length planned', () => {
  it('training: "seq 131,072" beside the global batch, as the CLI\'s search header says it, and sent in the scenario', () => {
    const a = ask('best configuration for llama3-70b at 128k on 16 H100 nodes', { publicUrl: 'https://plan.example' });
    expect(a.ok).toBe(true);
    expect(a.configuration).toMatch(/ · global batch [\d,]+ · seq 131,072 · /);
    const scenario = JSON.parse(decodeURIComponent(/#scenario=([^&]+)/.exec(a.widgetUrl ?? '')?.[1] ?? '{}')) as { training?: { seqLength?: number } };
    expect(scenario.training?.seqLength).toBe(128 * K);
  });

  it('training with no length asked: the model\'s own, Llama 3 70B\'s 8,192 tokens', () => {
    const a = ask('step time of llama3-70b with tp 8 pp 2 on 16 h100 nodes', { publicUrl: null });
    expect(a.configuration).toMatch(/ · global batch [\d,]+ · seq 8,192 · /);
  });

  it('serving: the prompt and output tokens of the 131,072-token context, on the closest plan\'s line too', () => {
    const a = ask('serve llama3-70b on one H100 node at 128k', { publicUrl: null });
    expect(a.configuration).toMatch(/ · BF16 · 130,560 prompt tokens \+ 512 output tokens$/);
  });
});

describe('a long sequence with no token budget: the preset\'s whole pretraining budget, said as such', () => {
  const tokensText = (question: string): string | undefined => parse(question).defaults.find((d) => d.field === 'tokens')?.text;

  it.each([
    ['best configuration for llama3-70b at 128k on 16 H100 nodes', '131,072'],
    // 32k is where a length is long (32 × 1,024 = 32,768).
    ['how long to train llama3-70b at 32k on 16 H100 nodes', '32,768'],
  ])('"%s": says how to give a long-context stage\'s budget', (question, tokens) => {
    expect(tokensText(question)).toBe(`15.0T training tokens (Llama 3 70B's published budget: a whole pretraining, here at ${tokens}-token sequences; say e.g. "800B tokens" for a long-context stage)`);
  });

  it.each([
    // 16k = 16,384, under 32k; the preset's own length; no length at all.
    'how long to train llama3-70b at 16k on 16 H100 nodes',
    'how long to train llama3-70b at 8k on 16 H100 nodes',
    'how long to train llama3-70b on 16 H100 nodes',
  ])('"%s": the published budget, said as before', (question) => {
    expect(tokensText(question)).toBe('15.0T training tokens (Llama 3 70B\'s published budget)');
  });

  it('a size no preset has is shaped at the length asked, its own: 20 tokens per parameter, no long-context stage to speak of', () => {
    expect(tokensText('how long to train a 30B model at 128k on 64 H100')).toBe('600B training tokens (20 per parameter, Hoffmann et al. 2022; × the 30.0B parameters asked)');
  });

  it('a budget given is planned, and no default said', () => {
    const q = parse('best configuration for llama3-70b at 128k on 16 H100 nodes for 800B tokens');
    expect(q.stated).toMatchObject({ seqLength: 128 * K, tokens: 800e9 });
    expect(q.defaults.find((d) => d.field === 'tokens')).toBeUndefined();
  });
});
