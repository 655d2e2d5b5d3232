import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const MIXED = 'how long to train llama3 70b on 15t tokens on 2048 h100s and how many h100s to serve it at 100 requests per second';

describe('a question of training and serving at once', () => {
  it('answers the serving part with no training figure: 15T training tokens are never tokens to generate', () => {
    const q = parse(MIXED);
    expect(q.intent).toBe('serving');
    expect(q.parameters.tokens).toBeUndefined();
    const a = ask(MIXED, { publicUrl: null });
    expect(a.figures.some((f) => f.label === 'Time to generate')).toBe(false);
  });
  it('says the training part was not answered, and the question to ask for it', () => {
    const note = ask(MIXED, { publicUrl: null }).notes[0] ?? '';
    expect(note).toMatch(/^Not answered: the training part of the question/);
    expect(note).toContain('"how long to train llama3-70b on 15.0T tokens on 2048 h100-sxm"');
    expect(parse('how long to train llama3-70b on 15.0T tokens on 2048 h100-sxm')).toMatchObject({ intent: 'time', stated: { gpus: 2048, tokens: 15e12 } });
  });
  it('serves on the cluster the serving clause names, never the training one', () => {
    const q = parse('train llama3-8b on 1T tokens on 64 H100 and then serve it on one H100 at 50 ms per token');
    expect(q.stated.gpus).toBe(1);
    expect(q.notRead?.[0]?.why).toContain('"how long to train llama3-8b on 1.00T tokens on 64 h100-sxm"');
  });
  it('suggests the training part on the training clause\'s cluster', () => {
    const q = parse('serve llama3-70b on 8 H100 at 50 ms per token; also how long to train it on 1T tokens on 256 H100');
    expect(q.stated.gpus).toBe(8);
    expect(q.notRead?.[0]?.why).toContain('on 256 h100-sxm"');
  });
  it('a serving question alone says nothing of training', () => {
    expect(ask('how many h100s to serve llama3-70b at 100 requests per second', { publicUrl: null }).notes.some((n) => n.startsWith('Not answered'))).toBe(false);
  });
  it('serving beside fine-tuning: the serving part answered, the fine-tuning part said not answered', () => {
    const question = 'can I serve llama3-70b on one h100 node and how long would fine-tuning it on 10B tokens take';
    const a = ask(question, { publicUrl: null });
    expect(a.ok).toBe(true);
    expect(a.intent).toBe('serving');
    expect(a.notes).toContain('Not answered: the fine-tuning part (fine-tuning is not modelled).');
    expect(parse(question)).toMatchObject({ text: question, stated: { model: 'llama3-70b', nodes: 1 } });
  });
});
