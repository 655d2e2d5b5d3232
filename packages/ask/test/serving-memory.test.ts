import type { InferencePointJson } from '@trainplan/protocol';
import { GiB, MiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { ASKS_MEMORY, memoryText } from '../src/answer/serving-memory.ts';

/** A replica's point with 4 requests, each holding 30 MiB of its own (and, with a prefix, the prefix's 160 MiB once). */
const point = {
  tensor: 8, pipeline: 1, batch: 4, gpus: 8, prefillSeconds: 0.1, decodeStepSeconds: 0.01, tokensPerSecondPerGpu: 50,
  weightsBytesPerGpu: GiB(16), kvCacheBytesPerGpu: MiB(4 * 30 + 160), totalBytesPerGpu: GiB(17), capacityBytes: GiB(80), maxBatch: 900, memoryBound: true,
} satisfies InferencePointJson;

describe('a serving point\'s memory per GPU in words', () => {
  it.each([
    ['no shared prefix: the KV cache over its requests', {}, 'KV cache 280 MiB (70.0 MiB per request on each GPU)'],
    ['a shared prefix: each request\'s own part, and the prefix\'s held once, as the protocol splits them', {
      sharedPrefixTokens: 4096, cachedPrefixTokens: 4096, sharedKvCacheBytesPerGpu: MiB(160),
    }, 'KV cache 280 MiB (30.0 MiB per request on each GPU, plus 160 MiB for the 4,096-token shared prefix, held once)'],
    ['a prefix cached in part (whole blocks): the tokens cached are said', {
      sharedPrefixTokens: 4100, cachedPrefixTokens: 4096, sharedKvCacheBytesPerGpu: MiB(160),
    }, 'KV cache 280 MiB (30.0 MiB per request on each GPU, plus 160 MiB for the 4,100-token shared prefix\'s 4,096 cached tokens, held once)'],
    ['a prefix shorter than a block: none of it cached, all per request', {
      sharedPrefixTokens: 10, cachedPrefixTokens: 0, sharedKvCacheBytesPerGpu: 0,
    }, 'KV cache 280 MiB (70.0 MiB per request on each GPU; the 10-token shared prefix is shorter than a 16-token KV block, so none of it is cached)'],
  ])('%s', (_title, prefix, text) => {
    expect(memoryText({ ...point, ...prefix })).toBe(`17.0 GiB of 80.0 GiB: weights 16.0 GiB, ${text}`);
  });
});

describe('under continuous batching the KV cache a request holds is its paged average, said so', () => {
  it.each([
    // A full context is reserved for each request of a static batch: nothing to average.
    ['static', 'KV cache 280 MiB (70.0 MiB per request on each GPU)'],
    // QA: 45.2 MiB "per request" beside a KV cache size answer's 50.0 MiB full context, neither labelled.
    ['continuous', 'KV cache 280 MiB (70.0 MiB on average per request on each GPU, paged)'],
  ] as const)('%s batching', (batching, text) => {
    expect(memoryText({ ...point, batching })).toBe(`17.0 GiB of 80.0 GiB: weights 16.0 GiB, ${text}`);
  });
});

describe('a memory question about serving leads with memory', () => {
  it('"how much GPU memory does llama3-70b need for inference": the fewest GPUs that hold it and how their memory splits, the fastest plan in the notes', () => {
    const a = ask('how much GPU memory does llama3-70b need for inference');
    expect(a.ok).toBe(true);
    // 70.6 B parameters in BF16 are 131 GiB: two 80 GB GPUs at the least, whatever the split.
    expect(a.headline).toMatch(/: the smallest replica that holds it is TP \d · PP \d \(2 GPUs\): weights 65\.\d GiB per GPU; the rest, [\d.]+ GiB, a KV cache for up to \d+ concurrent requests/);
    expect(a.notes[0]).toMatch(/^The configuration and figures are the fastest plan within the bounds, not the smallest replica of the headline: TP \d+ · PP \d+ serves/);
  });

  it('a question that asks no memory keeps the plan in its headline', () => {
    const a = ask('serve llama3-70b on 8 h100');
    expect(a.headline).toMatch(/: TP \d+ · PP \d+ serves [\d,]+ tokens\/s per GPU/);
    expect(a.notes.join(' ')).not.toContain('the fastest plan within the bounds, not the smallest replica');
  });

  it.each(['how much vram to serve llama3-8b', 'memory needed to serve llama 3 70b', 'how much memory does serving 405b in fp8 take'])('"%s" asks memory', (q) => {
    expect(ASKS_MEMORY.test(q)).toBe(true);
  });
  it.each(['serve llama3-70b on 8 h100', 'can llama 3 70b fit for serving on one h100'])('"%s" does not', (q) => {
    expect(ASKS_MEMORY.test(q)).toBe(false);
  });
});

describe('a serving memory answer never reads as one plan where it holds two', () => {
  /** "TP 2 · PP 2": the shape a headline's smallest replica, or a configuration, opens with. */
  const shapeIn = (text: string | undefined, after: RegExp): string => after.exec(text ?? '')?.[1] ?? '';

  it('"how much memory does llama3-8b need for inference at 32k context": the configuration, another replica than the headline\'s, is labelled so', () => {
    const a = ask('how much memory does llama3-8b need for inference at 32k context');
    const smallest = shapeIn(a.headline, /the smallest replica that holds it is (TP \d+ · PP \d+)/);
    const fastest = shapeIn(a.configuration, /(TP \d+ · PP \d+) · batch/);
    expect(smallest).not.toBe('');
    expect(fastest).not.toBe(smallest);
    expect(a.configuration).toMatch(/^fastest plan within the bounds, not the smallest replica above: TP \d+ · PP \d+ · batch/);
    // Notes follow the configuration in every render: none points "below".
    expect(a.notes.join(' ')).not.toContain('below');
  });

  it('one GPU holds one replica only: the headline\'s and the configuration\'s are one, and nothing is labelled', () => {
    const a = ask('how much memory does llama3-8b need for inference on 1 h100');
    const smallest = shapeIn(a.headline, /the smallest replica that holds it is (TP \d+ · PP \d+)/);
    expect(a.configuration?.startsWith(`${smallest} · batch`)).toBe(true);
    expect(a.notes[0]).toMatch(/^The fastest plan within the bounds is that replica: /);
  });
});

