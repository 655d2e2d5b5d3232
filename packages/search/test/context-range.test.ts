import { describe, expect, it } from 'vitest';
import { CONTEXT_CHUNK_TOKENS, defaultMaxContext, defaultSearchSpace } from '../src/index.ts';
import { llama3_70bBase } from './fixtures.ts';

describe('the default search\'s context-parallel sizes', () => {
  it('are 1–8 up to 64k tokens, as before', () => {
    for (const seqLength of [2048, 8192, 32_768, 65_536]) expect(defaultSearchSpace({ ...llama3_70bBase, seqLength }).context).toEqual([1, 2, 4, 8]);
  });
  it('reach chunks of 8,192 tokens on longer sequences: CP 16 at 128k (Llama 3 405B\'s 128k stage), 32 at 256k', () => {
    expect(CONTEXT_CHUNK_TOKENS).toBe(8192);
    expect(defaultSearchSpace({ ...llama3_70bBase, seqLength: 131_072 }).context).toEqual([1, 2, 4, 8, 16]);
    expect(defaultMaxContext(262_144)).toBe(32);
    // A size named by the request still wins.
    expect(defaultSearchSpace({ ...llama3_70bBase, seqLength: 131_072 }, { maxContext: 4 }).context).toEqual([1, 2, 4]);
  });
});
