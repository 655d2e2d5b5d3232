import { describe, expect, it } from 'vitest';
import { createChatApp } from '../src/app.ts';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import { discordCommand, discordHeaders, discordKeys, slackHeaders, slashCommand } from './support/signing.ts';

/**
 * Who sees a reply: an answer goes to the channel, a refusal of the question only to the one who asked it
 * (Slack's response_type "ephemeral", Discord's EPHEMERAL message flag, 1 << 6), so a typo is not broadcast.
 */

const SECRET = 'test-signing-secret-0123456789abcdef';
const KEYS = discordKeys();
const NOW_SECONDS = 1_760_000_000;
const ENV = { SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example' };
/** Discord's EPHEMERAL message flag (discord.com/developers/docs/resources/message#message-object-message-flags). */
const DISCORD_EPHEMERAL = 64;

const app = createChatApp({ now: () => NOW_SECONDS * 1000 });
const timestamp = String(NOW_SECONDS);

async function slack(question: string): Promise<SlackMessage> {
  const body = slashCommand(question);
  const res = await app.request('/slack', { method: 'POST', body, headers: slackHeaders(SECRET, timestamp, body) }, ENV);
  expect(res.status).toBe(200);
  return (await res.json()) as SlackMessage;
}

async function discord(question: string): Promise<DiscordMessageResponse> {
  const body = discordCommand(question);
  const res = await app.request('/discord', { method: 'POST', body, headers: discordHeaders(KEYS, timestamp, body) }, ENV);
  expect(res.status).toBe(200);
  return (await res.json()) as DiscordMessageResponse;
}

/** Questions the bot refuses, each for another reason, and what its headline then says. */
const REFUSED = [
  ['a question not understood', 'what is the weather on mars', /^I didn't understand/],
  ['a model it does not know', 'how long to train foo-13q on 8 h100', /name a model/],
  ['a first-token bound of 0 ms', 'serve llama3-70b on 8 h100 with a ttft of 0 ms', /time to first token must be above 0/],
  ['a negative prompt length', 'serve llama3-70b on 8 h100 with -5 token prompts', /negative/],
  // Understood as a step-time question and refused by the protocol: the intent is no help, the reply is still a refusal.
  ['a global batch of 0', 'step time of llama3-8b on 8 h100 with tp 8 and global batch 0', /global batch must be at least 1/],
  ['an algorithm the GPUs cannot run', 'all-reduce 1 GB on 64 a100 with nvls', /cannot run/],
] as const;

/** Questions the bot answers: a plan, and (not ok, but an answer all the same) that the model does not fit as asked. */
const ANSWERED = [
  ['a step time', 'step time of llama3-8b on 8 h100 with tp 8', /per step/],
  ['a memory question whose answer is that it does not fit', 'memory for gpt3-175b on 8 a100 with tp 8', /does not fit/],
] as const;

describe('Slack: who sees the reply', () => {
  it.each(REFUSED)('a refusal of %s ("%s") is ephemeral: only the asker sees it', async (_why, question, says) => {
    const message = await slack(question);
    expect(message.response_type).toBe('ephemeral');
    expect(message.text).toMatch(says);
  });

  it.each(ANSWERED)('an answer (%s: "%s") is posted in the channel', async (_why, question, says) => {
    const message = await slack(question);
    expect(message.response_type).toBe('in_channel');
    expect(message.text).toMatch(says);
  });

  it('the help asked for is ephemeral too', async () => {
    expect((await slack('help')).response_type).toBe('ephemeral');
  });
});

describe('Discord: who sees the reply', () => {
  it.each(REFUSED)('a refusal of %s ("%s") carries the EPHEMERAL flag (64): only the asker sees it', async (_why, question, says) => {
    const message = await discord(question);
    expect(message.type).toBe(4);
    expect(message.data.flags).toBe(DISCORD_EPHEMERAL);
    expect(message.data.embeds[0]?.title).toMatch(says);
  });

  it.each(ANSWERED)('an answer (%s: "%s") carries no flags: the channel sees it', async (_why, question, says) => {
    const message = await discord(question);
    expect(message.type).toBe(4);
    expect(message.data.flags).toBeUndefined();
    expect(message.data.embeds[0]?.title).toMatch(says);
  });
});
