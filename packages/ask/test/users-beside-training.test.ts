import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const options = { publicUrl: null } as const;

/** The reading a question read as serving says, whatever its cue. */
const READ_AS_SERVING = /^read as serving \(inference\), from /;

/**
 * Users, requests, hosting or a chat beside a training question's own figures or words are context, not a serving load: a
 * token budget, "how long", GPU-hours, or a configuration asked keep the question training. QA: each of these was answered
 * as serving, its tokens and cluster dropped unsaid.
 */
describe('a training question that names users, requests, hosting or a chat stays training', () => {
  it.each([
    ['how many H100 hours for a llama3-70b chat model on 2T tokens', 'cheapest', { model: 'llama3-70b', tokens: 2e12 }],
    ['how many GPU-hours does llama3-8b need on 15T tokens for a chat assistant', 'cheapest', { model: 'llama3-8b', tokens: 15e12 }],
    ['how long will llama3-70b take on 15T tokens with 128 H100 nodes, we have 1M users waiting', 'time', { model: 'llama3-70b', tokens: 15e12, nodes: 128 }],
    ['llama3-70b on 15T tokens with 1024 H100: how many days? (request from management)', 'time', { model: 'llama3-70b', tokens: 15e12, gpus: 1024 }],
    ['how long would llama3-70b on 2T tokens take on 64 H100 we host ourselves', 'time', { model: 'llama3-70b', tokens: 2e12, gpus: 64 }],
    ["what's the best parallel config for llama3-70b on 64 H100 that our users asked for", 'config', { model: 'llama3-70b', gpus: 64 }],
  ])('"%s": %s', (question, intent, stated) => {
    const q = parse(question);
    expect(q.intent).toBe(intent);
    expect(q.stated).toMatchObject(stated);
    expect(q.defaults.some((d) => READ_AS_SERVING.test(d.text))).toBe(false);
  });

  it('"… 1M users waiting": the training time on the nodes named, the 1M said a user base, not planned', () => {
    const a = ask('how long will llama3-70b take on 15T tokens with 128 H100 nodes, we have 1M users waiting', options);
    expect(a.headline).toMatch(/^Llama 3 70B on H100 SXM5 80GB: [\d,.]+ days to train 15\.0T tokens on 128 nodes \(1,024 GPUs\)$/);
    expect(a.notes.some((n) => n.startsWith('Not read: "1M users" (a user base is not a load'))).toBe(true);
  });
});

/** With no training word or figure, users and hosting still read as serving: who a served model answers. */
describe('neighbours: users with no training word or figure are served', () => {
  it.each([
    ['keep llama3-70b active for 1M users', '"users"'],
    ['serve llama3-70b to users', undefined],
    ['what is the best setup to host llama3-70b on 8 h100', '"to host"'],
  ])('"%s" is serving', (question, cue) => {
    const q = parse(question);
    expect(q.intent).toBe('serving');
    if (cue !== undefined) expect(q.defaults.some((d) => d.text.startsWith(`read as serving (inference), from ${cue} with no training word`))).toBe(true);
  });
});
