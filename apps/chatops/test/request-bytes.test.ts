import { describe, expect, it } from 'vitest';
import { createChatApp, MAX_CHAT_BODY_BYTES } from '../src/app.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import { flood } from '../../../packages/http/test/support/retention.ts';
import { DISCORD_PING, discordHeaders, discordKeys, slackHeaders, slashCommand } from './support/signing.ts';

/** What the bot does with a request's bytes: how many it keeps, and that the signature covers exactly those it got. */

const SECRET = 'test-signing-secret-0123456789abcdef';
const KEYS = discordKeys();
const NOW_SECONDS = 1_760_000_000;
const ENV = { SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex };
const MiB = 1024 * 1024;

const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('a body over the limit', () => {
  it.each([
    ['/slack', 'application/x-www-form-urlencoded'],
    ['/discord', 'application/json'],
  ])('%s: 64 MiB sent chunked (no Content-Length) is refused 413 without being kept', async (path, type) => {
    let asked = 0;
    const app = createChatApp({ now: () => NOW_SECONDS * 1000, ask: () => { asked += 1; throw new Error('not asked'); } });
    const { body, retained } = flood({ chunkBytes: MiB, chunks: 64, measureAfter: 48 });
    const init = { method: 'POST', body, duplex: 'half', headers: { 'content-type': type } };
    const res = await app.request(path, init as RequestInit, ENV);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toContain(String(MAX_CHAT_BODY_BYTES));
    // 48 chunks of 1 MiB read when counted: the old body(), Request.arrayBuffer(), held all 48 (48 MiB); past the 16 KiB
    // limit only the chunk in hand may be alive.
    expect(retained()).toBeLessThan(4 * MiB);
    expect(asked).toBe(0);
  });
});

describe('signatures cover the bytes as sent', () => {
  it('Discord: a body with a UTF-8 byte-order mark, signed over its exact bytes, is verified and answered', async () => {
    const app = createChatApp({ now: () => NOW_SECONDS * 1000 });
    const body = bytes([0xef, 0xbb, 0xbf], DISCORD_PING);
    const res = await app.request('/discord', { method: 'POST', body, headers: discordHeaders(KEYS, String(NOW_SECONDS), body) }, ENV);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
  });

  it('Slack: a form holding a raw 0xFF byte (not UTF-8), signed over its exact bytes, is verified and answered', async () => {
    const app = createChatApp({ now: () => NOW_SECONDS * 1000 });
    const body = bytes(`${slashCommand('help')}&user_name=`, [0xff]);
    const res = await app.request('/slack', { method: 'POST', body, headers: slackHeaders(SECRET, String(NOW_SECONDS), body) }, ENV);
    expect(res.status).toBe(200);
    expect(((await res.json()) as SlackMessage).response_type).toBe('ephemeral');
  });

  it('the same bodies with one byte changed after signing are refused (401)', async () => {
    const app = createChatApp({ now: () => NOW_SECONDS * 1000 });
    const signed = bytes(`${slashCommand('help')}&user_name=`, [0xff]);
    const sent = bytes(`${slashCommand('help')}&user_name=`, [0xfe]);
    const res = await app.request('/slack', { method: 'POST', body: sent, headers: slackHeaders(SECRET, String(NOW_SECONDS), signed) }, ENV);
    expect(res.status).toBe(401);
  });
});

describe('Slack\'s escaping of the text', () => {
  it('&amp;, &lt; and &gt; are read as &, < and >, so the answer escapes them once (R&amp;D, not R&amp;amp;D)', async () => {
    const app = createChatApp({ now: () => NOW_SECONDS * 1000 });
    // As Slack sends "what is R&D <x>" (https://api.slack.com/reference/surfaces/formatting#escaping).
    const body = slashCommand('what is R&amp;D &lt;x&gt;');
    const res = await app.request('/slack', { method: 'POST', body, headers: slackHeaders(SECRET, String(NOW_SECONDS), body) }, ENV);
    const message = (await res.json()) as SlackMessage;
    expect(message.text).toBe('I didn\'t understand "what is R&amp;D &lt;x&gt;".');
  });
});
