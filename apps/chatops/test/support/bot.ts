import { ask, type Answer, type AnswerOptions } from '@trainplan/ask';
import { createChatApp, type ChatAppOptions } from '../../src/app.ts';
import { fakeFetch, type FakeResponse } from './fake-fetch.ts';
import { discordHeaders, discordKeys, slackHeaders } from './signing.ts';

/** The deferral tests' fixtures: a signed request on either platform to an app whose deliveries a fake fetch records. */

export const SECRET = 'test-signing-secret-0123456789abcdef';
export const KEYS = discordKeys();
export const NOW_SECONDS = 1_760_000_000;
export const ENV = { SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example' };
export const RESPONSE_URL = 'https://hooks.slack.com/commands/T0001/1234/s3cr3t-response-token';
/** A search question (a nodes search) and a quick one (a stated layout), by @trainplan/ask's runsSearch. */
export const SEARCH = 'how many nodes for 175B';
export const QUICK = 'memory for 70B with tp 8 pp 4 on A100 80GB';
/** A nodes question (a search, so deferred) that the protocol refuses: no tokens to train. */
export const REFUSED_SEARCH = 'how many nodes for 175B with 0 tokens';
export const DISCORD_TOKEN = 'aW50ZXJhY3Rpb24tdG9rZW4.secret_part-1';
export const WEBHOOK = `https://discord.com/api/v10/webhooks/1234567890/${DISCORD_TOKEN}`;

/** The app with a fixed clock, a fake fetch, and the real answerer wrapped to count the questions it answers. */
export function bot(options: ChatAppOptions & { responses?: FakeResponse[] } = {}) {
  const asked: string[] = [];
  const { fetch, sent } = fakeFetch(options.responses);
  const app = createChatApp({
    now: () => NOW_SECONDS * 1000,
    fetch,
    ask: (question: string, o: AnswerOptions): Answer => {
      asked.push(question);
      return ask(question, o);
    },
    ...options,
  });
  return { app, asked, sent };
}

/** An application command as Discord sends it: with the application's id and the interaction's token. */
export const interaction = (question: string, extra: object = { application_id: '1234567890', token: DISCORD_TOKEN }) =>
  JSON.stringify({ type: 2, id: '1', ...extra, data: { id: '3', name: 'trainplan', type: 1, options: [{ name: 'question', type: 3, value: question }] } });

/** A Worker's ExecutionContext, as far as the bot uses it. */
export type WaitUntil = { waitUntil(p: Promise<unknown>): void };

export const discord = (app: ReturnType<typeof createChatApp>, body: string, ctx?: WaitUntil) =>
  app.request('/discord', { method: 'POST', body, headers: discordHeaders(KEYS, String(NOW_SECONDS), body) }, ENV, ctx as never);
export const slack = (app: ReturnType<typeof createChatApp>, body: string, ctx?: WaitUntil) =>
  app.request('/slack', { method: 'POST', body, headers: slackHeaders(SECRET, String(NOW_SECONDS), body) }, ENV, ctx as never);
