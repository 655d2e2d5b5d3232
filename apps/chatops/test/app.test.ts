import { ask, type Answer, type AnswerOptions } from '@trainplan/ask';
import { describe, expect, it } from 'vitest';
import { createChatApp, type ChatAppOptions } from '../src/app.ts';
import type { DiscordMessageResponse } from '../src/discord-message.ts';
import type { SlackMessage } from '../src/slack-message.ts';
import {
  DISCORD_PING, discordCommand, discordHeaders, discordKeys, slackHeaders, slashCommand,
} from './support/signing.ts';

const SECRET = 'test-signing-secret-0123456789abcdef';
const KEYS = discordKeys();
const NOW_SECONDS = 1_760_000_000;
const ENV = { SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example' };

/** The app with a fixed clock and the real answerer wrapped to count the questions it answers. */
function counted(options: ChatAppOptions = {}) {
  const calls: string[] = [];
  const app = createChatApp({
    now: () => NOW_SECONDS * 1000,
    ask: (question: string, o: AnswerOptions): Answer => {
      calls.push(question);
      return ask(question, o);
    },
    ...options,
  });
  return { app, calls };
}

const post = (app: ReturnType<typeof createChatApp>, path: string, body: string, headers: Record<string, string>, env: object = ENV) =>
  app.request(path, { method: 'POST', body, headers }, env);

describe('POST /slack', () => {
  it('takes the form\'s media type in any case (RFC 9110 §8.3.1)', async () => {
    const { app, calls } = counted();
    const body = slashCommand('how many nodes for 175B');
    const headers = { ...slackHeaders(SECRET, String(NOW_SECONDS), body), 'content-type': 'Application/X-WWW-Form-Urlencoded; charset=utf-8' };
    expect((await post(app, '/slack', body, headers)).status).toBe(200);
    expect(calls).toEqual(['how many nodes for 175B']);
  });

  it('answers a signed slash command with Block Kit: headline, figures, assumptions, widget link', async () => {
    const { app, calls } = counted();
    const body = slashCommand('how many nodes for 175B');
    const res = await post(app, '/slack', body, slackHeaders(SECRET, String(NOW_SECONDS), body));
    expect(res.status).toBe(200);
    const message = (await res.json()) as SlackMessage;
    expect(calls).toEqual(['how many nodes for 175B']);
    expect(message.response_type).toBe('in_channel');
    expect(message.text).toMatch(/GPT-3 175B .* \d+ nodes/);
    const text = JSON.stringify(message.blocks);
    for (const label of ['Step time', 'MFU', 'Memory per GPU']) expect(text).toContain(label);
    expect(text).toContain('300B training tokens');
    expect(text).toContain('30-day deadline');
    expect(text).toContain('<https://plan.example/#scenario=');
  });

  it('accepts a timestamp 4 minutes old (inside Slack\'s 5-minute window)', async () => {
    const { app } = counted();
    const body = slashCommand('help');
    const ts = String(NOW_SECONDS - 4 * 60);
    expect((await post(app, '/slack', body, slackHeaders(SECRET, ts, body))).status).toBe(200);
  });

  it.each([
    ['a replayed request (timestamp 6 minutes old)', (body: string) => slackHeaders(SECRET, String(NOW_SECONDS - 6 * 60), body), /minutes/],
    ['a request from the future (6 minutes ahead)', (body: string) => slackHeaders(SECRET, String(NOW_SECONDS + 6 * 60), body), /minutes/],
    ['a request signed with another secret', (body: string) => slackHeaders('not-the-secret', String(NOW_SECONDS), body), /does not match/],
    ['a tampered body (signed for another question)', () => slackHeaders(SECRET, String(NOW_SECONDS), slashCommand('help')), /does not match/],
    ['an unsigned request', () => ({ 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(NOW_SECONDS) }), /X-Slack-Signature/],
    ['a request without a timestamp', (body: string) => {
      const { 'x-slack-request-timestamp': _ts, ...rest } = slackHeaders(SECRET, String(NOW_SECONDS), body);
      return rest;
    }, /timestamp/],
  ] as const)('refuses %s with 401 and answers nothing', async (_name, headers, reason) => {
    const { app, calls } = counted();
    const body = slashCommand('how many nodes for 175B');
    const res = await post(app, '/slack', body, headers(body));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(reason);
    expect(calls).toEqual([]);
  });

  it('a timestamp moved after signing is refused (the timestamp is signed too)', async () => {
    const { app, calls } = counted();
    const body = slashCommand('how many nodes for 175B');
    const headers = { ...slackHeaders(SECRET, String(NOW_SECONDS - 10), body), 'x-slack-request-timestamp': String(NOW_SECONDS) };
    expect((await post(app, '/slack', body, headers)).status).toBe(401);
    expect(calls).toEqual([]);
  });

  it('without SLACK_SIGNING_SECRET it is 503, says which variable, and does no work', async () => {
    const { app, calls } = counted();
    const body = slashCommand('how many nodes for 175B');
    const res = await post(app, '/slack', body, slackHeaders(SECRET, String(NOW_SECONDS), body), { DISCORD_PUBLIC_KEY: KEYS.publicKeyHex });
    expect(res.status).toBe(503);
    const detail = ((await res.json()) as { detail: string }).detail;
    expect(detail).toContain('SLACK_SIGNING_SECRET');
    expect(detail).not.toContain(SECRET);
    expect(calls).toEqual([]);
  });

  it('never echoes the secret, even in a refusal', async () => {
    const { app } = counted();
    const body = slashCommand(SECRET);
    const res = await post(app, '/slack', body, slackHeaders('wrong', String(NOW_SECONDS), body));
    expect(await res.text()).not.toContain(SECRET);
  });

  it('answers Slack\'s ssl_check with an empty 200', async () => {
    const { app, calls } = counted();
    const body = 'ssl_check=1&token=x';
    const res = await post(app, '/slack', body, slackHeaders(SECRET, String(NOW_SECONDS), body));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(calls).toEqual([]);
  });

  it('refuses bodies over the limit before verifying them', async () => {
    const { app, calls } = counted();
    const body = slashCommand('x'.repeat(20_000));
    const res = await post(app, '/slack', body, slackHeaders(SECRET, String(NOW_SECONDS), body));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    // about:blank: titled with the status's phrase (RFC 9457 §4.2.1), 413's as RFC 9110 §15.5.14 names it.
    expect(await res.json()).toMatchObject({ type: 'about:blank', title: 'Content Too Large', status: 413 });
    expect(calls).toEqual([]);
  });

  it('an unknown question gets the help, privately (ephemeral)', async () => {
    const { app } = counted();
    const body = slashCommand('what is the weather');
    const message = (await (await post(app, '/slack', body, slackHeaders(SECRET, String(NOW_SECONDS), body))).json()) as SlackMessage;
    expect(message.response_type).toBe('ephemeral');
    expect(message.text).toBe('I didn\'t understand "what is the weather".');
    expect(JSON.stringify(message.blocks)).toContain('how many nodes for 175B');
  });
});

describe('POST /discord', () => {
  it('answers PING with PONG (type 1)', async () => {
    const { app, calls } = counted();
    const res = await post(app, '/discord', DISCORD_PING, discordHeaders(KEYS, String(NOW_SECONDS), DISCORD_PING));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
    expect(calls).toEqual([]);
  });

  it('answers an application command with an embed: headline, figures, assumptions, widget url', async () => {
    const { app, calls } = counted();
    const body = discordCommand('memory for 70B with tp 8 pp 4 on A100 80GB');
    const res = await post(app, '/discord', body, discordHeaders(KEYS, String(NOW_SECONDS), body));
    expect(res.status).toBe(200);
    const message = (await res.json()) as DiscordMessageResponse;
    expect(calls).toEqual(['memory for 70B with tp 8 pp 4 on A100 80GB']);
    expect(message.type).toBe(4);
    const [embed] = message.data.embeds;
    expect(embed?.title).toMatch(/Llama 3 70B on A100 .*GiB per GPU/);
    expect(embed?.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['Step time', 'MFU', 'Memory per GPU']));
    expect(embed?.footer?.text).toMatch(/^Assumed:\n• /);
    expect(embed?.url).toMatch(/^https:\/\/plan\.example\/#scenario=/);
    const scenario = JSON.parse(decodeURIComponent(embed!.url!.split('#scenario=')[1]!)) as { model: string; parallelism: { tensor: number; pipeline: number } };
    expect(scenario.model).toBe('llama3-70b');
    expect(scenario.parallelism).toMatchObject({ tensor: 8, pipeline: 4 });
  });

  it.each([
    ['a replayed request (timestamp 6 minutes old)', (body: string) => discordHeaders(KEYS, String(NOW_SECONDS - 6 * 60), body)],
    ['a request signed by another key', (body: string) => discordHeaders(discordKeys(), String(NOW_SECONDS), body)],
    ['a tampered body (signed for another question)', () => discordHeaders(KEYS, String(NOW_SECONDS), discordCommand('help'))],
    ['an unsigned request', () => ({ 'content-type': 'application/json', 'x-signature-timestamp': String(NOW_SECONDS) })],
    ['a malformed signature', () => ({ 'content-type': 'application/json', 'x-signature-timestamp': String(NOW_SECONDS), 'x-signature-ed25519': 'zz' })],
  ] as const)('refuses %s with 401 and answers nothing', async (_name, headers) => {
    const { app, calls } = counted();
    const body = discordCommand('how many nodes for 175B');
    const res = await post(app, '/discord', body, headers(body));
    expect(res.status).toBe(401);
    expect(calls).toEqual([]);
  });

  it('a tampered PING is refused too (Discord probes endpoints with bad signatures)', async () => {
    const { app } = counted();
    const headers = discordHeaders(KEYS, String(NOW_SECONDS), DISCORD_PING);
    expect((await post(app, '/discord', `${DISCORD_PING} `, headers)).status).toBe(401);
  });

  it.each(['null', '42', '[1, 2]', '"ping"'])('a signed body that is no interaction object (%s) is a 400, not a 500, and asks nothing', async (body) => {
    const { app, calls } = counted();
    const res = await post(app, '/discord', body, discordHeaders(KEYS, String(NOW_SECONDS), body));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe('the body is not an interaction object');
    expect(calls).toEqual([]);
  });

  it('reads the question of a subcommand (/trainplan ask question: …), nested as Discord sends it', async () => {
    const { app, calls } = counted();
    const body = JSON.stringify({
      type: 2, data: { name: 'trainplan', options: [{ name: 'ask', type: 1, options: [{ name: 'question', type: 3, value: 'how many nodes for 175B' }] }] },
    });
    const res = await post(app, '/discord', body, discordHeaders(KEYS, String(NOW_SECONDS), body));
    expect(res.status).toBe(200);
    expect(calls).toEqual(['how many nodes for 175B']);
  });

  it('without DISCORD_PUBLIC_KEY it is 503 and does no work; a malformed key is 503 too', async () => {
    const { app, calls } = counted();
    const body = discordCommand('how many nodes for 175B');
    const headers = discordHeaders(KEYS, String(NOW_SECONDS), body);
    expect((await post(app, '/discord', body, headers, { SLACK_SIGNING_SECRET: SECRET })).status).toBe(503);
    expect((await post(app, '/discord', body, headers, { DISCORD_PUBLIC_KEY: 'abc' })).status).toBe(503);
    expect(calls).toEqual([]);
  });
});

describe('secrets', () => {
  it('come from the runtime (c.env) first, then from options.env', async () => {
    const { app } = counted({ env: { SLACK_SIGNING_SECRET: SECRET } });
    const body = slashCommand('help');
    const headers = slackHeaders(SECRET, String(NOW_SECONDS), body);
    // No bindings passed: options.env provides the secret, as infra hands process.env over.
    expect((await app.request('/slack', { method: 'POST', body, headers })).status).toBe(200);
    // A binding wins over options.env: signed with options.env's secret, the request is refused.
    expect((await post(app, '/slack', body, headers, { SLACK_SIGNING_SECRET: 'the-bound-secret' })).status).toBe(401);
  });
});

describe('refusals', () => {
  // Found by test/fuzz: refusals were RFC 9457 bodies served as application/json.
  it.each([
    ['401 unsigned', '/slack', { 'content-type': 'application/x-www-form-urlencoded' }, ENV, 401],
    ['415 another media type', '/discord', { 'content-type': 'text/plain' }, ENV, 415],
    ['503 no secret', '/slack', { 'content-type': 'application/x-www-form-urlencoded' }, {}, 503],
  ] as const)('%s: an RFC 9457 problem document as application/problem+json', async (_name, path, headers, env, status) => {
    const { app } = counted();
    const res = await post(app, path, 'text=help', headers, env);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ type: 'about:blank', status });
  });
});

describe("Slack's Events API, which the bot does not support", () => {
  it('a signed url_verification (JSON, as Slack sends when its Request URL is saved) is a 415 that says so and names the slash command', async () => {
    const { app, calls } = counted();
    const body = JSON.stringify({ token: 'x', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' });
    const headers = { ...slackHeaders(SECRET, String(NOW_SECONDS), body), 'content-type': 'application/json' };
    const res = await post(app, '/slack', body, headers);
    expect(res.status).toBe(415);
    const { detail } = (await res.json()) as { detail: string };
    // Before: "send application/x-www-form-urlencoded", which told an operator nothing to act on.
    expect(detail).toMatch(/^Slack's Events API \(url_verification, app_mention\) is not supported/);
    expect(detail).toContain('slash command');
    expect(detail).not.toContain('3eZbrw1a');
    expect(calls).toEqual([]);
  });

  it('another media type than JSON is still told the form to send', async () => {
    const { app } = counted();
    const res = await post(app, '/slack', 'text=help', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { detail: string }).detail).toBe('send application/x-www-form-urlencoded');
  });
});

describe('the widget link of an answer', () => {
  const { SLACK_SIGNING_SECRET } = ENV;
  const slackAt = async (options: ChatAppOptions, url: string, env: object) => {
    const { app } = counted(options);
    const body = slashCommand('how many nodes for 175B');
    const res = await app.request(url, { method: 'POST', body, headers: slackHeaders(SECRET, String(NOW_SECONDS), body) }, env);
    expect(res.status).toBe(200);
    return JSON.stringify(((await res.json()) as SlackMessage).blocks);
  };

  it('points at TRAINPLAN_PUBLIC_URL when it is set, whatever the runtime serves', async () => {
    const text = await slackAt({ widgetAtOrigin: true }, 'http://10.0.0.5:9000/slack', ENV);
    expect(text).toContain('<https://plan.example/#scenario=');
    expect(text).not.toContain('10.0.0.5');
  });

  it('without it, points at the origin the request came to where that runtime serves the widget (its own host and port)', async () => {
    const text = await slackAt({ widgetAtOrigin: true }, 'http://10.0.0.5:9000/slack', { SLACK_SIGNING_SECRET });
    expect(text).toContain('<http://10.0.0.5:9000/#scenario=');
    expect(text).not.toContain('127.0.0.1:8787');
  });

  it('without it, on a runtime that serves no widget (Deno, Workers), the answer carries no link rather than a dead one', async () => {
    for (const options of [{}, { widgetAtOrigin: false }]) {
      const text = await slackAt(options, 'http://10.0.0.5:9000/slack', { SLACK_SIGNING_SECRET });
      expect(text).toMatch(/GPT-3 175B/);
      expect(text).not.toContain('#scenario=');
      expect(text).not.toContain('Open this scenario');
    }
  });
});
