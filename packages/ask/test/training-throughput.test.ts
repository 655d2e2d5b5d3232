import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/** The serving question a training answer offers, in the quotes after `ask`. */
const servingOffered = (a: ReturnType<typeof ask>): string | undefined =>
  a.assumptions.map((x) => /for serving, [^"]*ask "([^"]+)"$/.exec(x)?.[1]).find((x) => x !== undefined);

describe('a throughput question that says neither train nor serve is read as training, and says how to ask for serving', () => {
  it.each([
    'throughput of llama3-8b on 1 h100',
    'how fast is llama3-8b on 8 h100',
    'tokens per second of llama3-70b on 64 h100',
    'how many tokens per second per gpu for llama2-70b on 512 a100s',
  ])('"%s": its first assumption says training, and the serving question it offers is one, of the same model and GPUs', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.assumptions[0]).toMatch(/^throughput for training \(tokens trained a second, forward and backward passes\); for serving, tokens generated a second within latency bounds, ask "/);
    const q = parse(question);
    const offered = parse(servingOffered(a) ?? '');
    expect(offered.intent).toBe('serving');
    expect(offered.problems).toEqual([]);
    expect(offered.stated).toMatchObject({ model: q.stated.model, gpu: q.stated.gpu, gpus: q.stated.gpus });
  });

  it.each([
    'step time of llama3-8b on 8 h100',
    'training throughput of llama3-8b on 8 h100',
    'how many tokens per second can 1024 h100 train for llama 3 70b',
    'what MFU does gpt3-175b get on 1024 A100s',
  ])('"%s" says training, or asks what only training has: no serving reading offered', (question) => {
    expect(servingOffered(ask(question, { publicUrl: null }))).toBeUndefined();
  });
});
