import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;
const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * A second size after the model, with no "tokens" word, in a training question: the tokens trained on. QA found "train a 7b
 * on 300b" planned on the default 2T tokens with "Not read: the model '300b'", and "8B … to get through 15T" answered on
 * 15T (the preset's own budget) beside "Not read: the model '15T'".
 */
describe('"train a 7b on 300b": the second size is the token count', () => {
  it('"how long to train a 7b on 300b on 64 h100" plans 300B tokens, said, with no model not read', () => {
    const q = parse('how long to train a 7b on 300b on 64 h100', OPTIONS);
    expect(q.stated).toMatchObject({ model: 'llama2-7b', tokens: 300e9, gpus: 64 });
    expect(q.notRead).toEqual([]);
    expect(q.defaults.map((d) => d.text)).toContain('"300b" read as 300B training tokens (a second size after the model\'s, with no word of what it counts)');
    const a = ask('how long to train a 7b on 300b on 64 h100', OPTIONS);
    expect(a.headline).toMatch(/ to train 300B tokens on 8 nodes \(64 GPUs\)$/);
    // By hand: the same cluster trains 2T tokens in 2,000 / 300 times as long, the step and the batch alike.
    const twoT = (ask('how long to train a 7b on 2T tokens on 64 h100', OPTIONS).data as NodesOk).days;
    expect((a.data as NodesOk).days).toBeCloseTo(twoT * 300 / 2000, 1);
  });

  it('"how long would 8B take on 256 H100s to get through 15T": 15T tokens, and no "Not read" of the 15T', () => {
    const q = parse('how long would 8B take on 256 H100s to get through 15T', OPTIONS);
    expect(q.stated).toMatchObject({ model: 'llama3-8b', tokens: 15e12, gpus: 256 });
    expect(q.notRead).toEqual([]);
    expect(ask('how long would 8B take on 256 H100s to get through 15T', OPTIONS).notes.join(' ')).not.toContain('15T');
  });

  it.each([
    // A comparing word before it: a second model, said not compared as before.
    ['how long to train 7b on 64 h100 vs 13b', '13b'],
    // A budget written with its "tokens" word: the other size is no second budget.
    ['how long to train 7b on 2T tokens on 64 h100 or 13b', '13b'],
  ])('"%s" keeps "%s" a model, not tokens', (question, written) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.tokens === undefined || q.stated.tokens === 2e12).toBe(true);
    expect(q.notRead?.map((n) => n.phrase)).toEqual([`the model "${written}"`]);
  });

  it('a serving question never takes a size as training tokens', () => {
    expect(parse('serve llama3-8b on 8 h100 with 70b', OPTIONS).stated.tokens).toBeUndefined();
  });
});
