import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { renderText } from '../src/answer/render-text.ts';

/** Every line an answer prints: headline, configuration, figures, assumptions and notes. */
const textOf = (question: string): string => renderText(ask(question, { publicUrl: null }));

/** A count of one with a plural noun after it: "1 requests/s", "1 GPUs", "1 tokens a step", "1 sequences" (not "γ + 1 tokens", a formula). */
const ONE_PLURAL = /(?<![\d.,]|\+ )1 (?:requests|GPUs|nodes|tokens|steps|sequences|replicas|days)\b/;

describe('answers count one of a thing in the singular, and its verb agrees', () => {
  it.each([
    // A load of one request a second: the rate, the figure named for it and the cost that serves it.
    'how many H100 to serve llama3-8b at 1 request/s',
    'serve llama 3 70b with speculative decoding with 1 draft token at 1 rps on 8 h100 at $2/gpu-hour',
    // One GPU named: "the 1 GPU named is enough", never "the 1 GPUs named are enough".
    'serve llama3-8b on 1 h100 at 1 request/s',
    'serve llama3-70b on 1 h100 at 1000 requests/s',
    // A collective on a node of one GPU, a price per node-hour over one GPU, a token batch of one sequence.
    'all-reduce 1 GB on 1 node with 1 gpu per node',
    'serve llama3-8b on 2 h100 with nodes of 1 gpu at $3 per node-hour',
    'how long to train llama3-8b with a 8k token batch at seq 8192 on 8 h100',
  ])('"%s" says no "1 <plural>"', (question) => {
    expect(textOf(question)).not.toMatch(ONE_PLURAL);
  });

  it('one request a second takes one replica: "1 request/s takes", as "2 requests/s take"', () => {
    const one = ask('serve llama3-8b on 1 h100 at 1 request/s at $2/gpu-hour', { publicUrl: null });
    const cost = one.figures.find((f) => f.label === 'Cost')?.value ?? '';
    expect(cost).toContain('for the 1 GPU 1 request/s takes');
    expect(one.figures.some((f) => f.label === 'GPUs for 1 request/s')).toBe(true);
    expect(one.figures.find((f) => f.label === 'GPUs for 1 request/s')?.value).toMatch(/\(the 1 GPU named is enough\)$/);
    const two = ask('serve llama3-8b on 1 h100 at 2 requests/s at $2/gpu-hour', { publicUrl: null });
    expect(two.figures.find((f) => f.label === 'Cost')?.value).toContain('for the 1 GPU 2 requests/s take');
  });
});
