import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

describe('a number before "seq len" is the sequence length, the one before a GPU the GPU count', () => {
  it.each([
    ['llama3-8b 8192 seq len 1T tokens 64 H100 time', 8192],
    ['llama3-8b 8k seq len 1T tokens 64 H100 time', 8192],
    ['llama3-8b 4096 seq 64 h100', 4096],
    ['llama3-8b 8192 sequence length 64 h100', 8192],
    ['llama3-8b 2048 ctx 1T tokens 64 h100', 2048],
  ])('%s', (question, seqLength) => {
    const { stated } = parse(question);
    expect(stated.seqLength).toBe(seqLength);
    expect(stated.gpus).toBe(64);
  });
  it('still reads the length after its name ("seq len 4096")', () => {
    expect(parse('llama3-8b seq len 4096 on 64 h100').stated).toMatchObject({ seqLength: 4096, gpus: 64 });
  });
});
