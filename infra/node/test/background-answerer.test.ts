import { ask, type AnswerOptions } from '@trainplan/ask';
import { createChatApp } from '@trainplan/chatops';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, until } from '../../../apps/chatops/test/support/fake-fetch.ts';
import { discordHeaders, discordKeys } from '../../../apps/chatops/test/support/signing.ts';
import { createBackgroundAnswerer, type BackgroundAnswerer } from '../src/background-answerer.ts';

// The chat bot's deferred answers on a worker thread, as `npm start` runs them (../src/main.ts), here under vitest:
// the worker loads its TypeScript through tsx either way.

const OPTIONS: AnswerOptions = { publicUrl: 'https://plan.example', candidateBudget: 20_000 };
const SEARCH = 'how many nodes for 175B';
const FAULTY = new URL('./support/faulty-ask-worker.ts', import.meta.url);

let answerers: BackgroundAnswerer[] = [];
const answerer = (options: Parameters<typeof createBackgroundAnswerer>[0] = {}) => {
  const made = createBackgroundAnswerer(options);
  answerers.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(answerers.map((a) => a.close()));
  answerers = [];
  vi.restoreAllMocks();
});

describe('createBackgroundAnswerer', () => {
  it('answers as ask does: the answer crosses from the worker equal, prototypes and all (it is plain data)', async () => {
    const answered = await answerer().answer(SEARCH, OPTIONS);
    expect(answered).toStrictEqual(ask(SEARCH, OPTIONS));
    expect(answered.headline).toMatch(/GPT-3 175B .* \d+ nodes/);
  });

  it('answers questions asked together one after another, each its own answer', async () => {
    const background = answerer();
    const questions = [SEARCH, 'help', 'memory for 70B with tp 8 pp 4 on A100 80GB'];
    const answers = await Promise.all(questions.map((q) => background.answer(q, OPTIONS)));
    expect(answers.map((a) => a.question)).toEqual(questions);
  });

  it('fails the one question whose ask throws, by the error\'s name, and answers the next', async () => {
    const background = answerer({ workerUrl: FAULTY });
    const failed = background.answer(`${SEARCH} [throw]`, OPTIONS);
    const next = background.answer(SEARCH, OPTIONS);
    await expect(failed).rejects.toMatchObject({ name: 'RangeError' });
    expect((await next).kind).toBe('answer');
  });

  it('fails the one question during which the worker exits, and answers the next on a fresh worker', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const background = answerer({ workerUrl: FAULTY });
    const failed = background.answer(`${SEARCH} [exit]`, OPTIONS);
    const next = background.answer(SEARCH, OPTIONS);
    await expect(failed).rejects.toThrow(/exited with code 3/);
    expect((await next).kind).toBe('answer');
    expect(errors.mock.calls.flat().join(' ')).toMatch(/the answer worker exited \(code 3\) during a question; it is restarted/);
  });

  it('fails a question that runs past its time, ending that worker, and answers the next', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const background = answerer({ workerUrl: FAULTY, timeoutSeconds: 3 });
    const stuck = background.answer(`${SEARCH} [hang]`, OPTIONS);
    const next = background.answer('help', OPTIONS);
    await expect(stuck).rejects.toThrow(/ran past its time/);
    expect((await next).kind).toBe('help');
  });

  it('once closed, fails what is asked', async () => {
    const background = answerer();
    await background.close();
    await expect(background.answer(SEARCH, OPTIONS)).rejects.toThrow(/closed/);
  });
});

describe('the chat bot with its deferred answers on a worker', () => {
  it('tells the asker it failed when the worker dies during their question (Discord: the deferred message deleted, an ephemeral follow-up)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const keys = discordKeys();
    const { fetch, sent } = fakeFetch([204, 200]);
    const app = createChatApp({ fetch, answerInBackground: answerer({ workerUrl: FAULTY }).answer });
    const body = JSON.stringify({ type: 2, id: '1', application_id: '1234567890', token: 'tok', data: { name: 'trainplan', options: [{ name: 'question', type: 3, value: `${SEARCH} [exit]` }] } });
    const now = String(Math.floor(Date.now() / 1000));
    const res = await app.request('/discord', { method: 'POST', body, headers: discordHeaders(keys, now, body) }, { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
    expect(await res.json()).toEqual({ type: 5 });
    await until(() => sent.length === 2);
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'POST']);
    const notice = JSON.parse(sent[1]!.body!);
    expect(notice.flags).toBe(64);
    expect(notice.embeds[0].title).toMatch(/^trainplan failed on its side/);
  });
});
