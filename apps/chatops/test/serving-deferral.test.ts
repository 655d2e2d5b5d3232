import { describe, expect, it } from 'vitest';
import type { Answer } from '@trainplan/ask';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import { bot, discord, interaction, RESPONSE_URL, slack, WEBHOOK } from './support/bot.ts';
import { settle, until } from './support/fake-fetch.ts';
import { slashCommand } from './support/signing.ts';

/**
 * Security QA (CWE-400): a signed slash command asking this, with a response_url, was answered inline after 6,186 ms
 * (Discord 6,190 ms), so the platform's 3 s passed and the command failed for the asker, and on Node the event loop was held
 * (/healthz waited 6.14 s): serving was taken to run no search, yet the answer plans each GPU compared, and at the rate
 * searches GPU counts. Deferred now, it is acknowledged at once and answered after the response.
 */
const QA = 'serve llama3.1-405b at 1000 requests/s on 8x H200 vs H100 vs B200 vs V100 at 8k per token';
/** One serving plan, no rate: answered in the response (milliseconds). */
const SINGLE = 'serve llama3.1-405b on 8x H200 at 8k per token';

/** The bot, its deferred questions answered by a stand-in that records them (the real answer takes seconds). */
function deferringBot() {
  const background: string[] = [];
  const answered = (question: string): Answer => ({
    intent: 'serving', kind: 'answer', ok: true, question, headline: 'from the background', figures: [], assumptions: [], notes: [], examples: [],
  });
  const made = bot({ answerInBackground: async (question) => { background.push(question); return answered(question); } });
  return { ...made, background };
}

describe('the QA serving comparison at a rate is deferred', () => {
  it('on Slack: acknowledged with no answer, then the answer POSTed to the response_url', async () => {
    const { app, asked, background, sent } = deferringBot();
    const res = await slack(app, slashCommand(QA, RESPONSE_URL));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_type: 'in_channel' });
    // Nothing answered in the response: the question went to the background answerer, not the inline one.
    expect(asked).toEqual([]);
    await until(() => sent.length === 1);
    expect(background).toEqual([QA]);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${RESPONSE_URL}`]);
    expect((JSON.parse(sent[0]!.body!) as SlackMessage).text).toMatch(/from the background/);
  });

  it('on Discord: acknowledged with type 5 (deferred), then the deferred message edited into the answer', async () => {
    const { app, asked, background, sent } = deferringBot();
    const res = await discord(app, interaction(QA));
    expect(await res.json()).toEqual({ type: 5 });
    expect(asked).toEqual([]);
    await until(() => sent.length === 1);
    expect(background).toEqual([QA]);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`PATCH ${WEBHOOK}/messages/@original`]);
    expect((JSON.parse(sent[0]!.body!) as DiscordMessageResponse['data']).embeds[0]?.title).toBe('from the background');
  });
});

describe('one serving plan without a rate', () => {
  it('is answered in the response on both platforms, nothing deferred', async () => {
    const { app, asked, background, sent } = deferringBot();
    const onSlack = (await (await slack(app, slashCommand(SINGLE, RESPONSE_URL))).json()) as SlackMessage;
    expect(onSlack.text).toMatch(/Llama 3\.1 405B on 8 × H200/);
    const onDiscord = (await (await discord(app, interaction(SINGLE))).json()) as DiscordMessageResponse;
    expect(onDiscord.type).toBe(4);
    expect(asked).toEqual([SINGLE, SINGLE]);
    await settle();
    expect(background).toEqual([]);
    expect(sent).toEqual([]);
  });
});
