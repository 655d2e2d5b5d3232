import type { Answer } from '@trainplan/ask';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliver, MAX_RETRY_AFTER_SECONDS } from '../src/deliver.ts';
import { DISCORD_API_URL, deliverToDiscord, discordFollowUpOf } from '../src/discord-follow-up.ts';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import { DISCORD_TOKEN, WEBHOOK } from './support/bot.ts';
import { fakeFetch, type FakeResponse } from './support/fake-fetch.ts';

/**
 * How a deferred Discord answer copes with the platform saying no: a 429 is retried only after the wait it states
 * (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit), and a refusal whose deferred message
 * cannot be deleted is edited into it rather than posted as a follow-up, which Discord would take as that same edit.
 */

afterEach(() => { vi.restoreAllMocks(); });

const TO = { applicationId: '1234567890', token: DISCORD_TOKEN, api: DISCORD_API_URL };
const ORIGINAL = `${WEBHOOK}/messages/@original`;
const refusal: Answer = {
  intent: 'nodes', kind: 'refusal', ok: false, question: 'how many nodes for 175B with 0 tokens', headline: 'tokens must be above 0',
  figures: [], assumptions: [], notes: [], examples: [],
};
const answer: Answer = { ...refusal, kind: 'answer', ok: true, headline: 'GPT-3 175B needs 128 nodes' };
const limited = (retryAfterSeconds: number, where: 'header' | 'body'): FakeResponse => (where === 'header'
  ? { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: 'slow down' }
  : { status: 429, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false }) });
/** ms between the requests sent, less a millisecond for the timer's rounding. */
const gaps = (sent: { at: number }[]) => sent.slice(1).map((r, i) => r.at - sent[i]!.at + 1);

describe('a delivery refused with 429', () => {
  it.each([
    ['the Retry-After header', 'header'],
    ["the JSON body's retry_after (fractional seconds)", 'body'],
  ] as const)('is tried again only after the wait %s states', async (_from, where) => {
    const { fetch, sent } = fakeFetch([limited(0.3, where), 204]);
    const delivered = await deliverToDiscord(fetch, TO, answer).then(() => sent);
    expect(delivered.map((r) => r.method)).toEqual(['PATCH', 'PATCH']);
    expect(gaps(sent)[0]).toBeGreaterThanOrEqual(300);
  });

  it(`is given up at once, and logged so, when the wait asked for is over ${MAX_RETRY_AFTER_SECONDS} s`, async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fetch, sent } = fakeFetch([limited(60, 'header')]);
    await deliverToDiscord(fetch, TO, answer);
    expect(sent).toHaveLength(1);
    expect(errors.mock.calls.flat().join(' ')).toMatch(/Discord PATCH @original was rate limited for 60 s .*; the answer was not delivered/);
  });

  it('twice gives up after the second try', async () => {
    const { fetch, sent } = fakeFetch([limited(0.05, 'body')]);
    expect(await deliver(fetch, { url: 'https://hooks.slack.com/x', init: { method: 'POST' } }))
      .toEqual({ ok: false, why: 'failed twice (HTTP 429)' });
    expect(sent).toHaveLength(2);
  });
});

describe('a deferred refusal', () => {
  it('deletes the deferred message, then posts the refusal as an ephemeral follow-up', async () => {
    const { fetch, sent } = fakeFetch([204, 200]);
    await deliverToDiscord(fetch, TO, refusal);
    expect(sent.map((r) => [r.method, r.url])).toEqual([['DELETE', ORIGINAL], ['POST', WEBHOOK]]);
    expect((JSON.parse(sent[1]!.body!) as DiscordMessageResponse['data']).flags).toBe(64);
  });

  it('whose DELETE fails edits the refusal into the deferred message (PATCH, no POST), and logs what it did', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fetch, sent } = fakeFetch([500, 500, 200]);
    await deliverToDiscord(fetch, TO, refusal);
    expect(sent.map((r) => [r.method, r.url])).toEqual([['DELETE', ORIGINAL], ['DELETE', ORIGINAL], ['PATCH', ORIGINAL]]);
    const data = JSON.parse(sent[2]!.body!) as DiscordMessageResponse['data'];
    expect(data.embeds[0]?.title).toBe('tokens must be above 0');
    // An edit cannot make a message ephemeral: no flags are sent with it.
    expect(data.flags).toBeUndefined();
    const logged = errors.mock.calls.flat().join(' ');
    expect(logged).toMatch(/Discord DELETE @original failed twice \(HTTP 500\); the refusal was edited into the deferred message instead/);
    expect(logged).not.toMatch(/not delivered/);
    expect(logged).not.toContain(DISCORD_TOKEN);
  });

  it('whose DELETE is rate limited waits as told, and deletes', async () => {
    const { fetch, sent } = fakeFetch([limited(0.2, 'header'), 204, 200]);
    await deliverToDiscord(fetch, TO, refusal);
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'POST']);
    expect(gaps(sent)[0]).toBeGreaterThanOrEqual(200);
  });

  it('whose DELETE and PATCH both fail says that nothing was delivered', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fetch, sent } = fakeFetch([404]);
    await deliverToDiscord(fetch, TO, refusal);
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'PATCH', 'PATCH']);
    expect(errors.mock.calls.flat().join(' ')).toMatch(/DELETE @original failed twice \(HTTP 404\), and PATCH @original failed twice \(HTTP 404\); the refusal was not delivered/);
  });
});

describe('DISCORD_API_URL: an http(s) address the webhook path can follow, or the answer is given inline', () => {
  const interaction = { application_id: '1234567890', token: 'tok1' };
  it.each([
    ['not a url'], ['ftp://127.0.0.1:18899/api'], ['http://127.0.0.1:18899/api/v10#f'], ['http://127.0.0.1:18899/api/v10?x=1'],
  ])('%s is refused (before: a fragment or query swallowed the path and the token, or every delivery failed)', (api) => {
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { logged.push(args[0]); });
    expect(discordFollowUpOf(interaction, api)).toBeUndefined();
    spy.mockRestore();
    expect(String(logged[0])).toMatch(/DISCORD_API_URL is not an http\(s\) address/);
  });
  it('an http(s) address is kept, its trailing slashes dropped', () => {
    expect(discordFollowUpOf(interaction, 'http://127.0.0.1:18899/api/v10/')?.api).toBe('http://127.0.0.1:18899/api/v10');
    expect(discordFollowUpOf(interaction)?.api).toBe(DISCORD_API_URL);
  });
});
