import { describe, expect, it } from 'vitest';
import { ask, type Answer, type AnswerOptions } from '@trainplan/ask';
import { createChatApp } from '../src/app.ts';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import { discord, ENV, interaction, KEYS, NOW_SECONDS, RESPONSE_URL, SECRET, slack } from './support/bot.ts';
import { fakeFetch, until } from './support/fake-fetch.ts';
import { discordHeaders, slackHeaders, slashCommand } from './support/signing.ts';

/**
 * The bot reads a deadline given as a date against the day each request arrives (UTC): @trainplan/ask keeps no clock.
 * NOW_SECONDS is 2025-10-09T08:53:20Z; 9 October → 31 October is 22 days, + November's 30 + December's 31 = 83.
 */
const DATED = 'how many nodes for 175B by 31 december';
const DAYS_TO_31_DECEMBER = 83;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The bot on a clock the test moves, recording the options each question is answered with. */
function botOnClock() {
  let nowMs = NOW_SECONDS * 1000;
  const options: AnswerOptions[] = [];
  const { fetch, sent } = fakeFetch();
  const app = createChatApp({
    now: () => nowMs,
    fetch,
    ask: (question: string, o: AnswerOptions): Answer => {
      options.push(o);
      return ask(question, o);
    },
  });
  return { app, options, sent, advance: (ms: number) => { nowMs += ms; } };
}

describe('a deadline given as a date in chat', () => {
  it('answered inline, is planned to the date, read against the request\'s day', async () => {
    const { app, options } = botOnClock();
    // An answer in the response: a response_url the bot does not post to (not hooks.slack.com).
    const res = await slack(app, slashCommand(DATED));
    const message = (await res.json()) as SlackMessage;
    expect(options.map((o) => o.today)).toEqual(['2025-10-09']);
    expect(message.text).toContain(`deadline ${DAYS_TO_31_DECEMBER} days`);
    expect(JSON.stringify(message.blocks)).toContain(`read as 31 December 2025, ${DAYS_TO_31_DECEMBER} days from today (9 October 2025`);
  });

  it('deferred, is answered with the day the question was received, not the day the answer runs', async () => {
    const { app, options, sent, advance } = botOnClock();
    const res = await slack(app, slashCommand(DATED, RESPONSE_URL));
    expect(await res.json()).toEqual({ response_type: 'in_channel' });
    // The clock moves on two days before the deferred answer runs.
    advance(2 * DAY_MS);
    await until(() => sent.length === 1);
    expect(options.map((o) => o.today)).toEqual(['2025-10-09']);
    const message = JSON.parse(sent[0]!.body!) as SlackMessage;
    expect(message.text).toContain(`deadline ${DAYS_TO_31_DECEMBER} days`);
  });

  it('on Discord too, deferred', async () => {
    const { app, sent } = botOnClock();
    const res = await discord(app, interaction(DATED));
    expect(await res.json()).toEqual({ type: 5 });
    await until(() => sent.length === 1);
    const data = JSON.parse(sent[0]!.body!) as DiscordMessageResponse['data'];
    expect(data.embeds[0]?.title).toContain(`deadline ${DAYS_TO_31_DECEMBER} days`);
  });

  it('a past date is refused at once (no search, so not deferred), saying today', async () => {
    const { app, sent } = botOnClock();
    const res = await slack(app, slashCommand('how many nodes for 175B by 1 january 2020', RESPONSE_URL));
    const message = (await res.json()) as SlackMessage;
    expect(message.response_type).toBe('ephemeral');
    expect(JSON.stringify(message)).toContain('is past: today is 9 October 2025');
    expect(sent).toEqual([]);
  });

  it('the request\'s day is its clock\'s: a day later, the same question is a day shorter', async () => {
    const later = createChatApp({ now: () => NOW_SECONDS * 1000 + DAY_MS, defer: 'never' });
    const body = slashCommand(DATED);
    const timestamp = String(NOW_SECONDS + DAY_MS / 1000);
    const res = await later.request('/slack', { method: 'POST', body, headers: slackHeaders(SECRET, timestamp, body) }, ENV);
    expect(((await res.json()) as SlackMessage).text).toContain(`deadline ${DAYS_TO_31_DECEMBER - 1} days`);
    // Discord's signature is checked against the same clock.
    const onDiscord = interaction(DATED);
    const answered = await later.request('/discord', { method: 'POST', body: onDiscord, headers: discordHeaders(KEYS, timestamp, onDiscord) }, ENV);
    expect(((await answered.json()) as DiscordMessageResponse).data.embeds[0]?.title).toContain(`deadline ${DAYS_TO_31_DECEMBER - 1} days`);
  });
});
