import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatApp } from '../src/app.ts';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import {
  bot, discord, DISCORD_TOKEN, interaction, NOW_SECONDS, QUICK, REFUSED_SEARCH, RESPONSE_URL, SEARCH, slack, WEBHOOK,
} from './support/bot.ts';
import { settle, until } from './support/fake-fetch.ts';
import { slashCommand } from './support/signing.ts';

/**
 * Questions that run a search are acknowledged at once and answered after the response (Slack's response_url,
 * Discord's interaction webhook), since a search takes seconds and both platforms give up after 3
 * (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
 */

afterEach(() => { vi.restoreAllMocks(); });

describe('Discord: a question that runs a search', () => {
  it('is acknowledged with type 5 (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) before it is answered', async () => {
    const { app, asked, sent } = bot();
    const res = await discord(app, interaction(SEARCH));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 5 });
    // The response came back before the search ran: nothing asked, nothing sent yet.
    expect(asked).toEqual([]);
    expect(sent).toEqual([]);
    await until(() => sent.length === 1);
    expect(asked).toEqual([SEARCH]);
  });

  it('then edits the deferred message into the answer: PATCH …/webhooks/{application_id}/{token}/messages/@original', async () => {
    const { app, sent } = bot();
    await discord(app, interaction(SEARCH));
    await until(() => sent.length === 1);
    await settle();
    expect(sent).toHaveLength(1);
    const [patch] = sent;
    expect(patch?.method).toBe('PATCH');
    expect(patch?.url).toBe(`${WEBHOOK}/messages/@original`);
    expect(patch?.headers['content-type']).toBe('application/json');
    const data = JSON.parse(patch!.body!) as DiscordMessageResponse['data'];
    expect(data.embeds[0]?.title).toMatch(/GPT-3 175B .* \d+ nodes/);
    expect(data.embeds[0]?.url).toMatch(/^https:\/\/plan\.example\/#scenario=/);
    expect(data.allowed_mentions).toEqual({ parse: [] });
    expect(data.flags).toBeUndefined();
  });

  it('whose answer is a refusal deletes the deferred message and posts the refusal as an ephemeral follow-up (flags 64)', async () => {
    const { app, sent } = bot({ responses: [204, 200] });
    const res = await discord(app, interaction(REFUSED_SEARCH));
    expect(await res.json()).toEqual({ type: 5 });
    await until(() => sent.length === 2);
    expect(sent.map((r) => [r.method, r.url])).toEqual([['DELETE', `${WEBHOOK}/messages/@original`], ['POST', WEBHOOK]]);
    const data = JSON.parse(sent[1]!.body!) as DiscordMessageResponse['data'];
    expect(data.flags).toBe(64);
    expect(data.embeds[0]?.title).toMatch(/tokens must be above 0/);
  });

  it('is registered with the Worker\'s waitUntil, which settles once the answer is delivered', async () => {
    const { app, sent } = bot();
    const waited: Promise<unknown>[] = [];
    await discord(app, interaction(SEARCH), { waitUntil: (p) => { waited.push(p); } });
    expect(waited).toHaveLength(1);
    await waited[0];
    expect(sent.map((r) => r.method)).toEqual(['PATCH']);
  });

  it('is answered inline when the interaction carries no application id or token to answer through later', async () => {
    const { app, asked, sent } = bot();
    const res = await discord(app, interaction(SEARCH, { application_id: '1234567890', token: '../../oauth2' }));
    expect(((await res.json()) as DiscordMessageResponse).type).toBe(4);
    expect(asked).toEqual([SEARCH]);
    await settle();
    expect(sent).toEqual([]);
  });
});

describe('Slack: a question that runs a search', () => {
  it('is acknowledged with {"response_type":"in_channel"} (no text), then its message (with its response_type) is POSTed to the response_url', async () => {
    const { app, asked, sent } = bot();
    const res = await slack(app, slashCommand(SEARCH, RESPONSE_URL));
    expect(res.status).toBe(200);
    // in_channel, so Slack shows the user's command in the channel (an empty 200 hides it); no text, so nothing else.
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ response_type: 'in_channel' });
    expect(asked).toEqual([]);
    await until(() => sent.length === 1);
    const [post] = sent;
    expect(post?.method).toBe('POST');
    expect(post?.url).toBe(RESPONSE_URL);
    expect(post?.headers['content-type']).toBe('application/json');
    const message = JSON.parse(post!.body!) as SlackMessage;
    expect(message.response_type).toBe('in_channel');
    expect(message.text).toMatch(/GPT-3 175B .* \d+ nodes/);
    expect(JSON.stringify(message.blocks)).toContain('<https://plan.example/#scenario=');
  });

  it('a refusal goes to the response_url in the channel, where the in_channel acknowledgement showed its question', async () => {
    const { app, sent } = bot();
    const res = await slack(app, slashCommand(REFUSED_SEARCH, RESPONSE_URL));
    expect(await res.json()).toEqual({ response_type: 'in_channel' });
    await until(() => sent.length === 1);
    const message = JSON.parse(sent[0]!.body!) as SlackMessage;
    // Before, ephemeral: the channel saw the question and never an answer to it.
    expect(message.response_type).toBe('in_channel');
    expect(message.text).toMatch(/tokens must be above 0/);
  });

  it('the same refusal asked inline (defer: never) stays ephemeral: the channel never saw its question', async () => {
    const { app } = bot({ defer: 'never' });
    const message = (await (await slack(app, slashCommand(REFUSED_SEARCH, RESPONSE_URL))).json()) as SlackMessage;
    expect(message.response_type).toBe('ephemeral');
    expect(message.text).toMatch(/tokens must be above 0/);
  });

  it.each([
    ['not https', 'http://hooks.slack.com/commands/T0001/1234/x'],
    ['another host', 'https://hooks.slack.com.example/commands/T0001/1234/x'],
    ['no URL at all', 'not a url'],
  ])('is answered inline when the response_url is %s (the bot posts only to https://hooks.slack.com)', async (_why, url) => {
    const { app, asked, sent } = bot();
    const res = await slack(app, slashCommand(SEARCH, url));
    expect(((await res.json()) as SlackMessage).text).toMatch(/GPT-3 175B/);
    expect(asked).toEqual([SEARCH]);
    await settle();
    expect(sent).toEqual([]);
  });
});

describe('questions that run no search stay inline', () => {
  it.each(['help', 'what is the weather', QUICK, 'all-reduce 1 GB on 64 H100'])('"%s" is answered in the response on both platforms', async (question) => {
    const { app, asked, sent } = bot();
    const onSlack = await slack(app, slashCommand(question, RESPONSE_URL));
    expect(((await onSlack.json()) as SlackMessage).text.length).toBeGreaterThan(0);
    const onDiscord = await discord(app, interaction(question));
    expect(((await onDiscord.json()) as DiscordMessageResponse).type).toBe(4);
    expect(asked).toEqual([question, question]);
    await settle();
    expect(sent).toEqual([]);
  });
});

describe("defer: 'never'", () => {
  it('answers a search question inline on both platforms, as before deferral', async () => {
    const { app, asked, sent } = bot({ defer: 'never' });
    const onDiscord = (await (await discord(app, interaction(SEARCH))).json()) as DiscordMessageResponse;
    expect(onDiscord.type).toBe(4);
    expect(onDiscord.data.embeds[0]?.title).toMatch(/GPT-3 175B .* \d+ nodes/);
    const onSlack = (await (await slack(app, slashCommand(SEARCH, RESPONSE_URL))).json()) as SlackMessage;
    expect(onSlack.response_type).toBe('in_channel');
    expect(asked).toEqual([SEARCH, SEARCH]);
    await settle();
    expect(sent).toEqual([]);
  });
});

describe('a follow-up that fails', () => {
  it('is tried again once, and then given up with one log line that names neither the token nor the URL', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app, sent } = bot({ responses: [500] });
    await discord(app, interaction(SEARCH));
    await until(() => errors.mock.calls.length === 1);
    expect(sent.map((r) => r.method)).toEqual(['PATCH', 'PATCH']);
    const logged = errors.mock.calls.flat().join(' ');
    expect(logged).toMatch(/Discord PATCH @original failed twice \(HTTP 500\)/);
    expect(logged).not.toContain(DISCORD_TOKEN);
    expect(logged).not.toContain('discord.com');
  });

  it('that fails once (a network error) and then arrives logs nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const sent: string[] = [];
    const app = createChatApp({
      now: () => NOW_SECONDS * 1000,
      fetch: async (url) => {
        calls += 1;
        if (calls === 1) throw new TypeError('fetch failed');
        sent.push(url);
        return new Response(null, { status: 200 });
      },
    });
    await slack(app, slashCommand(SEARCH, RESPONSE_URL));
    await until(() => sent.length === 1);
    expect(sent).toEqual([RESPONSE_URL]);
    expect(calls).toBe(2);
    await settle();
    expect(errors).not.toHaveBeenCalled();
  });

  it('on Slack, never logs the response_url (its path is a credential)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app } = bot({ responses: [404] });
    await slack(app, slashCommand(SEARCH, RESPONSE_URL));
    await until(() => errors.mock.calls.length === 1);
    const logged = errors.mock.calls.flat().join(' ');
    expect(logged).toMatch(/Slack POST response_url failed twice \(HTTP 404\)/);
    expect(logged).not.toContain('s3cr3t-response-token');
  });
});
