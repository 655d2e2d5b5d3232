import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('serving questions as people type them', () => {
  it.each([
    // Typos: "srve" and "promts" were a training question on a default 128 nodes.
    ['srve llama3 8b on h100 w/ 4k promts', { promptTokens: 4096 }],
    ['serve llama 3 8b with 2k promt', { promptTokens: 2048 }],
    // "in … out": both lengths, which were dropped for the defaults unsaid.
    ['serve llama 3 8b on h100 with 2048 tokens in and 256 out', { promptTokens: 2048, outputTokens: 256 }],
    ['serve llama 3 8b on h100 with 1k in / 128 out', { promptTokens: 1024, outputTokens: 128 }],
    // A per-token bound before its name, as "500 ms TTFT" is read: "40ms tpot" was dropped, and a 166 ms plan answered.
    ['serve llama 3 70b on 2 nodes of h100 with 0.5s ttft and 40ms tpot', { maxTokenSeconds: 0.04, maxFirstTokenSeconds: 0.5 }],
  ])('"%s"', (question, facts) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(facts);
  });

  it('one GPU serves, not "serve": "1 GPU serves 0.5 requests/s"', () => {
    expect(ask('serve llama 3 8b on h100 with a 1.5k prompt at 0.5 qps', { publicUrl: null }).headline).toMatch(/^Llama 3 8B on H100 SXM5 80GB: 1 GPU serves /);
  });
});

describe('a weight format the protocol has no name for is said, never planned silently in BF16', () => {
  it.each([
    ['deploy llama 3 70b with int4 on 2 a100', 'INT4 weights are not modelled: the weights are planned in FP16, BF16 or FP8 (say "fp8" for one byte a weight).'],
    ['serve llama 3 70b awq on 1 h100', 'AWQ weights are not modelled: the weights are planned in FP16, BF16 or FP8 (say "fp8" for one byte a weight).'],
    ['serve llama 3 70b in 4-bit on 1 h100', '4-bit weights are not modelled: the weights are planned in FP16, BF16 or FP8 (say "fp8" for one byte a weight).'],
  ])('4-bit: "%s" is refused in words', (question, words) => {
    expect(ask(question, { publicUrl: null }).headline).toBe(`I could not answer that: ${words}`);
  });

  it('8-bit weights are planned as FP8 and said so; an INT8 KV cache is the cache\'s alone', () => {
    const q = parse('serve llama 3 70b w8a8 on 4 h100');
    expect(q.parameters.precision).toBe('fp8');
    expect(q.defaults[0]?.text).toBe('W8A8 weights planned as FP8: one byte a weight either way');
    const kv = parse('serve llama 3 70b with int8 kv cache on 4 h100');
    expect([kv.parameters.precision, kv.parameters.kvCachePrecision]).toEqual(['bf16', 'fp8']);
  });
});
