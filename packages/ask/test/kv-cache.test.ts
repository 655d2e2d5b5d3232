import { runInference } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { served } from './support/serving.ts';

describe('the KV cache\'s own format in a serving question (the protocol\'s kvCachePrecision)', () => {
  it.each([
    ['serve llama3-70b on 8 h100 with fp8 kv cache', 'fp8'],
    ['serve llama3-70b on 8 h100 with the kv cache in fp8', 'fp8'],
    ['serve llama3-70b on 8 h100 with an 8-bit kv cache', 'fp8'],
    ['serve llama3-70b on 8 h100 with a quantized kv cache (fp8)', 'fp8'],
    ['serve llama3-70b on 8 h100, kv_cache_dtype=fp8', 'fp8'],
    ['serve llama3-70b on 8 h100 with an fp8-e4m3 kv-cache', 'fp8'],
    ['serve llama3-70b on 8 h100 with kv cache quantized to fp8', 'fp8'],
    ['llama3-70b on 8 h100 with a bf16 kv cache', 'bf16'],
  ])('"%s": the cache in %s, the weights\' precision not stated', (question, kvCachePrecision) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.problems).toEqual([]);
    expect(q.stated.kvCachePrecision).toBe(kvCachePrecision);
    expect(q.stated.precision).toBeUndefined();
  });

  it.each([
    ['serve llama3-70b on 8 h100 in fp8', 'fp8', undefined],
    ['serve llama3-70b on 8 h100 in fp8 with a bf16 kv cache', 'fp8', 'bf16'],
    ['serve llama3-70b on 8 h100 in bf16 with fp8 kv cache', 'bf16', 'fp8'],
    ['serve llama3-70b in fp8, how big is the kv cache', 'fp8', undefined],
  ])('"%s": weights %s, KV cache %s', (question, precision, kvCachePrecision) => {
    const q = parse(question);
    expect(q.stated.precision).toBe(precision);
    expect(q.stated.kvCachePrecision).toBe(kvCachePrecision);
  });

  it('an FP8 cache is sent as kvCachePrecision and said in the configuration and assumptions, the weights BF16', () => {
    const { a } = served('serve llama3-70b on 8 h100 with fp8 kv cache');
    expect(a.data).toEqual(runInference({
      model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, precision: 'bf16', kvCachePrecision: 'fp8', promptTokens: 2048, outputTokens: 512,
      maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, gpus: 8, batching: 'continuous',
    }));
    expect(a.configuration).toMatch(/ · BF16 weights · FP8 KV cache · 2,048 prompt tokens/);
    expect(a.assumptions).toContain('BF16 weights (no precision given; the KV cache FP8, as asked)');
    expect(a.assumptions.join(' ')).toMatch(/an FP8 KV cache beside BF16 weights \(vLLM's kv_cache_dtype "fp8"\): each cached token takes half the bytes/);
  });

  it('an FP8 cache holds half the bytes a request: each shape fits about twice the requests', () => {
    const offline = (kv: string) => served(`serve llama3-70b on 8 h100 with tp 8${kv}, offline`).data.best!;
    const [bf16, fp8] = [offline(''), offline(', fp8 kv cache')];
    expect(fp8.kvCachePrecision).toBe('fp8');
    expect(fp8.maxBatch / bf16.maxBatch).toBeCloseTo(2, 1);
  });

  it('plain fp8 is the weights\' precision, as before; the cache follows it, and that is said', () => {
    const { a } = served('serve llama3-70b on 8 h100 in fp8');
    expect((a.data as { best: object }).best).not.toHaveProperty('kvCachePrecision');
    expect(a.configuration).toMatch(/ · FP8 · 2,048 prompt tokens/);
    expect(a.assumptions.join(' ')).toMatch(/the KV cache in FP8 too, as the weights/);
  });

  it.each([
    ['serve llama3-70b on 8 h100 with an 8-bit kv cache', 'an 8-bit KV cache taken as FP8, one byte a value (vLLM\'s kv_cache_dtype "fp8")'],
    ['serve llama3-70b on 8 h100 with a quantized kv cache', 'a quantized KV cache taken as FP8, one byte a value (vLLM\'s kv_cache_dtype "fp8")'],
  ])('"%s" says how it was read', (question, reading) => {
    expect(ask(question).assumptions).toContain(reading);
  });

  it.each([
    ['serve llama3-70b on h100 with 0 bit kv cache', 'a 0-bit'],
    ['serve llama3-70b on h100 with 3 bit kv cache', 'a 3-bit'],
    ['serve llama3-70b on h100 with a 4-bit kv cache', 'a 4-bit'],
    ['serve llama3-70b on h100 with the kv cache in 2 bits', 'a 2-bit'],
    ['serve llama3-70b on h100 with an 11-bit kv cache', 'an 11-bit'],
    ['serve llama3-70b on h100 with fp4 kv cache', 'an FP4'],
    ['serve llama3-70b on b200 with an nvfp4 kv cache', 'an NVFP4'],
    ['serve llama3-70b on h100, kv_cache_dtype=fp32', 'an FP32'],
  ])('"%s": a format not modelled is refused (%s), naming those planned, never left for the default', (question, format) => {
    const q = parse(question);
    expect(q.problems).toEqual([`${format} KV cache is not modelled: the KV cache is planned in FP16, BF16 or FP8, an INT8 or 8-bit cache read as FP8 (say "fp8 kv cache")`]);
    expect(q.stated.kvCachePrecision).toBeUndefined();
    expect(ask(question, { publicUrl: null })).toMatchObject({ kind: 'refusal', ok: false });
  });

  it.each([
    ['serve llama3-70b on 8 h100 with a 16-bit kv cache', 'bf16', 'a 16-bit KV cache taken as BF16, two bytes a value (the 16-bit format the GPU computes in; say "fp16 kv cache" for the other)'],
    ['serve llama3-8b on 8 v100 with a 16-bit kv cache', 'fp16', 'a 16-bit KV cache taken as FP16, two bytes a value (the GPU has no BF16)'],
  ])('"%s": a 16-bit cache is the GPU\'s 16-bit format, %s, and said so', (question, kvCachePrecision, reading) => {
    const q = parse(question);
    expect(q.problems).toEqual([]);
    expect(q.stated.kvCachePrecision).toBe(kvCachePrecision);
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('answer');
    expect(a.assumptions).toContain(reading);
  });

  it('a 4-bit cache is declined, naming the formats planned', () => {
    const q = parse('serve llama3-70b on 8 h100 with int4 kv cache');
    expect(q.problems).toEqual(['an INT4 KV cache is not modelled: the KV cache is planned in FP16, BF16 or FP8, an INT8 or 8-bit cache read as FP8 (say "fp8 kv cache")']);
  });
});

describe('what a KV cache is held for: the sequences at once and the tokens each holds', () => {
  it.each([
    // "8k" is 8,192 in a length, as "8k context" reads (k = 1,024).
    ['how much memory does the kv cache of llama 3.1 405b take for 32 requests of 8k tokens on 8 H200', { concurrency: 32, seqLength: 8192 }],
    ['kv cache size of llama3-70b for 16 sequences at 4k tokens each', { concurrency: 16, seqLength: 4096 }],
    ['kv cache size of llama3-8b for 8 32k-token requests', { concurrency: 8, seqLength: 32768 }],
    ['how big is the kv cache of llama3-8b for 64 users', { concurrency: 64 }],
    ['kv cache of gpt-3 175b at 2048 tokens in fp8', { seqLength: 2048 }],
  ])('"%s"', (question, held) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(held);
    // Never a count of tokens to generate or train on.
    expect(q.stated.tokens).toBeUndefined();
  });

  it('a rate stays a rate, and with no KV cache named a bare "32 users" is no count held at once', () => {
    const rate = parse('serve llama3-70b at 32 requests per second, how big is the kv cache');
    expect(rate.stated.requestsPerSecond).toBe(32);
    expect(rate.stated.concurrency).toBeUndefined();
    expect(parse('serve llama3-70b at 32 requests per second of 8k tokens').stated.concurrency).toBeUndefined();
    expect(parse('serve llama3-8b to 32 users on one h100').stated.concurrency).toBeUndefined();
    // Said not read, with the serving phrasings that would be read, not training's "2T tokens".
    const note = ask('serve llama3-8b to 32 users on one h100').notes.find((n) => n.startsWith('Not read'));
    expect(note).toMatch(/"32 users".*"32 concurrent users"/);
    expect(note).not.toMatch(/2T tokens/);
  });

  // A serving question that gives its load as a KV cache question does, with no cache named: the count written with the
  // tokens each holds is the sequences at once and their context (QA: both were left unread, a default request planned).
  it.each([
    ['serve llama3-70b on 8 h100 for 32 requests of 8k tokens', { concurrency: 32, seqLength: 8192 }],
    ['how many H100 to serve llama 3 70b to 32 requests of 8k tokens', { concurrency: 32, seqLength: 8192 }],
    ['serve llama 3 8b with 16 4k-token requests on one H100', { concurrency: 16, seqLength: 4096 }],
  ])('serving with no cache named: "%s"', (question, held) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    expect(q.stated).toMatchObject(held);
    expect(q.stated.tokens).toBeUndefined();
  });

  it('the load read is the one planned: a batch of 32 with an 8,192-token context (prompt + output)', () => {
    const { a, data } = served('how many H100 to serve llama 3 70b to 32 requests of 8k tokens');
    expect(data.best?.batch).toBe(32);
    // The context holds the default 512 output tokens, so the prompt is 8,192 − 512 = 7,680, as "8k context" plans it.
    expect(a.configuration).toMatch(/batch 32 · BF16 · 7,680 prompt tokens \+ 512 output tokens/);
    expect([...a.assumptions, ...a.notes].join(' ')).not.toMatch(/not read/i);
  });
});
