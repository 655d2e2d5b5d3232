import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';
import { plainWords } from '../src/answer/plain-words.ts';

/** A camelCase identifier: what a wire field looks like (maxPrefillSeconds, kvCachePrecision, globalBatchSize). */
const CAMEL_CASE = /\b[a-z]+[A-Z][a-zA-Z]*\b/g;

/** Words in camelCase that are names people use, each with why it may appear. */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ['vLLM', 'the serving engine, spelled as its authors spell it (named where continuous batching and prefix caching are explained)'],
]);

/**
 * Everything of an answer a person reads: not the question (the asker's own words), the widget link (an address) or
 * `data` (the protocol's JSON, for programs).
 */
const textOf = (a: Answer): string[] =>
  [a.headline, a.configuration ?? '', ...a.figures.flatMap((f) => [f.label, f.value]), ...a.assumptions, ...a.notes, ...a.examples];

const wireNames = (texts: readonly string[]): string[] =>
  texts.flatMap((t) => [...t.matchAll(CAMEL_CASE)].map((m) => m[0])).filter((w) => !ALLOWED.has(w));

/** One question per kind of answer, and questions refused for figures the protocol rejects, each for another field. */
const QUESTIONS = [
  // Answers.
  'how many nodes for 175B',
  'memory for 70B with tp 8 pp 4 on A100 80GB',
  'will gpt3-175b fit on 1024 a100?',
  'memory for gpt3-175b on 8 a100 with tp 8',
  'step time of llama3-8b on 8 H100 with tp 8',
  'cheapest way to train llama3-70b on 2T tokens at $2/GPU-hour',
  'all-reduce 1 GB on 64 H100',
  'serve llama3-70b on one H100 node at 50 ms per token',
  'serve llama3-70b on 8 h100 with fp8 kv cache and a 1024 token shared prefix at 10 qps',
  // A late first token under a per-token bound only: the protocol's warning names its request field.
  'serve llama3-70b on 8 h100 with static batching at 50 ms per token with 8k prompts',
  // Throughput alone ("offline") with a static batch: the protocol's no-bound warning is not repeated to who asked for it.
  'offline static batching serving llama3-70b on 8 h100 with 2048 prompt and 256 output',
  // Only the assumed first-token bound missed: the note says how to lift it.
  'serve llama3-70b on 8 h100 at 50 ms per token with 100k prompts',
  // Refused for invalid figures.
  'serve llama3-70b on 8 h100 with -5 token prompts',
  'serve llama3-70b on 8 h100 with a ttft of 0 ms',
  'serve llama3-70b on 8 h100 with 0 ms per token',
  'serve llama3-70b on 8 h100 with batch 0',
  'serve llama3-70b on 8 h100 with static batching at 10 qps',
  'serve llama3-8b on 8 v100 with bf16 kv cache',
  'serve llama3-70b on 8 a100 with fp8',
  'step time of llama3-8b on 8 H100 with tp 8 and global batch 0',
  'step time of llama3-8b on 8 H100 with micro-batch 0',
  'step time of llama3-8b on 8 H100 with vp 0',
  'step time of llama3-8b on 8 H100 with cp 0',
  'step time of llama3-8b on 8 H100 with tp 3',
  'step time of llama3-8b on 8 V100 with bf16',
  'how many nodes for 175B with tp 0',
  'how long to train gpt3-175b on 128 nodes with micro batch 0',
  'best config for llama3-8b on 12 h100',
  'all-reduce 1 GB on 64 A100 with nvls',
  'all-reduce 0 GB on 64 H100',
  // Refused by ask itself: a 0 the plan would not send, a fraction of a count, a KV cache format not modelled.
  'best config for gpt3-175b on 1024 a100 with dp 0',
  'what does it cost per day to run 0 H100 nodes at $2/GPU-hour',
  'how long to train gpt3-175b on 1024 a100 with global batch 1.5',
  'serve llama3-70b on 8 h100 with 1.5 concurrent requests',
  'serve llama3-70b on h100 with 0 bit kv cache',
];

describe('an answer speaks in words, never in the protocol\'s field names', () => {
  // As the chat bot asks: with its search budget.
  it.each(QUESTIONS)('"%s" has no camelCase identifier in any text a person reads', (question) => {
    const a = ask(question, { publicUrl: null, candidateBudget: 20_000 });
    expect(wireNames(textOf(a))).toEqual([]);
  });

  it('the questions refused for their figures are refusals (the set is what it says it is)', () => {
    const refused = QUESTIONS.slice(QUESTIONS.indexOf('serve llama3-70b on 8 h100 with -5 token prompts'));
    for (const question of refused) expect(ask(question, { publicUrl: null, candidateBudget: 20_000 }).kind).toBe('refusal');
  });

  it.each([
    ['step time of llama3-8b on 8 H100 with micro-batch 0', 'a micro-batch must be at least 1 sequence'],
    ['step time of llama3-8b on 8 H100 with vp 0', 'virtual pipeline stages must be at least 1'],
    ['how many nodes for 175B with tp 0', 'TP (tensor parallelism) must be at least 1'],
    ['serve llama3-8b on 8 v100 with bf16 kv cache', 'the KV cache precision: '],
    ['step time of llama3-8b on 8 H100 with tp 3', 'the parallel layout: '],
  ])('"%s" names the field as a person would: "%s"', (question, words) => {
    expect(ask(question, { publicUrl: null, candidateBudget: 20_000 }).headline).toContain(words);
  });

  it('the suggestion in a refusal is a phrase the bot reads back: the plan it suggests is then answered', () => {
    const refused = ask('serve llama3-70b on 8 a100 with fp8', { publicUrl: null });
    const quoted = /\("([^"]+)"\)/.exec(refused.headline)?.[1];
    expect(quoted).toBeDefined();
    expect(ask(`serve llama3-70b on 8 a100 ${quoted}`, { publicUrl: null }).kind).toBe('answer');
  });
});

describe('plainWords: the protocol\'s wire phrases in words', () => {
  // Sentences as the protocol writes them for API callers (inference.ts, inference-messages.ts, run-search.ts, check-plan.ts).
  it.each([
    'the best plan\'s time to first token is 45.7 s: …; MLPerf Inference\'s Llama 2 70B server scenario bounds it at 2 s, so give maxPrefillSeconds for an interactive service',
    'with no latency bound the best plan is the highest throughput, as for offline batch work: its time to first token is 40.9 s; for an interactive service give maxDecodeSecondsPerToken and maxPrefillSeconds (MLPerf Inference\'s Llama 2 70B server scenario: 200 ms and 2 s)',
    'its batch of 67 prompts is prefilled together (a static batch: use batching "continuous" to admit prompts as sequences finish)',
    'NVIDIA V100 SXM2 32GB has no BF16 tensor cores: use kvCachePrecision "fp16", or kvCachePrecision "fp8"',
    'has no FP8 tensor cores: serve BF16 weights with an FP8 KV cache, which runs on it (precision "bf16", kvCachePrecision "fp8"), or FP8 weights',
    'NVIDIA V100 SXM2 32GB has no BF16 tensor cores: use precision "fp16"',
    '12 GPUs do not fill whole nodes of 8 GPUs: ask for 8 (1 node) or 16 (2 nodes), or give cluster.nodes',
    'the shared prefix (8,192 tokens) is part of the prompt: at most promptTokens (4,096)',
    'no tensor × pipeline shape tried divides the 7 GPUs given (gpus): give tensor and pipeline degrees whose product divides it',
  ])('"%s" names no wire field or value', (sentence) => {
    const words = plainWords(sentence);
    expect(wireNames([words])).toEqual([]);
    // No field = "value" pairs and no dotted paths either.
    expect(words).not.toMatch(/\b[a-z]+ "[a-z0-9]+"|\b[a-z]+\.[a-z]+[A-Z]?\w*\b|\(gpus\)/);
    // What the sentence said of the plan is kept: its figures are all still there.
    for (const figure of sentence.match(/\d[\d,.]*/g) ?? []) expect(words).toContain(figure);
  });

  it('a field no phrase knows is said in words all the same, a bracketed field that only restates the words dropped', () => {
    expect(plainWords('use attentionKernel "flash" or context 1')).toBe('use the attention kernel "flash" or context 1');
    expect(plainWords('needs overlapped pipeline sends (overlapPipelineComm)')).toBe('needs overlapped pipeline sends');
    expect(plainWords('give requestsPerSecond with continuous batching')).toBe('give the request rate with continuous batching');
    // A longer word that starts with a field's name is not that field.
    expect(plainWords('a kvCachePrecisionX word')).toBe('a kvCachePrecisionX word');
  });
  it('a sentence with no wire phrase is left as it is', () => {
    const sentence = 'needs 90 GiB per GPU, the GPU has 79.6 GiB';
    expect(plainWords(sentence)).toBe(sentence);
  });
});
