import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

/** The example a refusal's headline gives, in its quotes after "e.g.". */
const exampleOf = (headline: string): string => /e\.g\. "([^"]+)"\.$/.exec(headline)?.[1] ?? '';

describe('a follow-up is told no conversation is kept, with the question whole', () => {
  it.each([
    ['what about on a100s?', { gpu: 'a100-80gb' }],
    ['and with 2x the batch?', {}],
    ['same but on 256 nodes', { nodes: 256 }],
    ['how about 64 h100 with tp 4', { gpu: 'h100-sxm', gpus: 64, tensor: 4 }],
    ['and with 2 nodes?', { nodes: 2 }],
    // QA: these were "not understood", while "and on h200?" got this reply: an opener before the follow-up ("ok"), and a
    // change to what the message does not name ("double the nodes").
    ['ok and with tp 2?', { tensor: 2 }],
    ['now double the nodes', {}],
    ['okay, what about 64 h100', { gpus: 64 }],
    ['halve the batch', {}],
  ])('"%s": a refusal saying so, its example a whole question carrying what it said (%j)', (question, said) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.intent).toBe('help');
    expect(a.headline).toMatch(new RegExp(`^I keep no conversation, so "${question.replace(/[?]/g, '\\?')}" has nothing to follow: ask the whole question in one message, e\\.g\\. "`));
    const example = parse(exampleOf(a.headline));
    expect(example.problems).toEqual([]);
    expect(example.intent).toBe('time');
    expect(example.stated).toMatchObject(said);
    expect(a.examples[0]).toBe(exampleOf(a.headline));
  });

  it.each([
    'what about llama3-8b on 64 h100 with tp 2',
    'what if we use llama3-8b instead',
  ])('"%s", a follow-up that parses as a plan, is answered as it stands, saying first that no earlier question was read into it', (question) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('answer');
    expect(a.notes[0]).toMatch(/^I keep no conversation: this was answered on its own/);
    expect(ask(question.replace(/^(?:what about|what if we use) /, 'best config for '), { publicUrl: null }).notes[0]).not.toMatch(/conversation/);
  });
});

describe('a definition asked is told the bot plans, with a question showing the term at work', () => {
  it.each([
    ['what is tensor parallelism', 'step time of llama3-8b on 8 H100 with tp 8'],
    ["what's a kv cache", 'serve llama3-70b on one H100 node at 50 ms per token'],
    ['explain activation recompute', 'memory for 70B with tp 8 pp 4 on A100 80GB'],
    ['what is mfu', 'what MFU does gpt3-175b get on 1024 A100s'],
    ['define all-reduce', 'all-reduce 1 GB on 64 H100'],
  ])('"%s" points to "%s", which is answered', (question, example) => {
    const a = ask(question, { publicUrl: null });
    expect(a.kind).toBe('refusal');
    expect(a.headline).toBe(`I answer planning questions, not definitions: "${question}" asks what a term means. Ask what it does to a plan, e.g. "${example}".`);
    expect(ask(example, { publicUrl: null }).kind).toBe('answer');
  });

  it('"ok" alone, or an opener before a whole question, is no follow-up', () => {
    expect(ask('ok').headline).toBe('I didn\'t understand "ok".');
    expect(ask('so how long to train llama3 8b on 64 h100', { publicUrl: null }).notes.join(' ')).not.toMatch(/conversation/);
  });

  it('"what is the weather" names no planning term: not understood, as before', () => {
    expect(ask('what is the weather').headline).toBe('I didn\'t understand "what is the weather".');
  });
});
