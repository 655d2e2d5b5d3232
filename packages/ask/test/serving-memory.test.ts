import type { InferencePointJson } from '@trainplan/protocol';
import { GiB, MiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { memoryText } from '../src/answer/serving-memory.ts';

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
