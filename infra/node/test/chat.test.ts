import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCORD_PING, discordCommand, discordHeaders, discordKeys, slackHeaders, slashCommand,
} from '../../../apps/chatops/test/support/signing.ts';
import { startServer, type StartedServer } from './support/start-server.ts';

// The chat bot as served: `npm start`'s entry on Node, 127.0.0.1 and a free port, with the secrets
// in its environment as an operator would set them (a fresh Ed25519 key pair per run).
const SECRET = `slack-secret-${process.pid}`;
const KEYS = discordKeys();
let started: StartedServer | undefined;
let base = '';

beforeAll(async () => {
  started = await startServer({ SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example' });
  base = started.base;
}, 30_000);

afterAll(() => { started?.server.kill(); });

const now = () => String(Math.floor(Date.now() / 1000));
const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${base}${path}`, { method: 'POST', body, headers });

describe('the chat bot on Node (POST /v1/chat/*)', () => {
  it('answers a signed Slack slash command', async () => {
    const body = slashCommand('how long to train gpt3-175b on 128 nodes');
    const res = await post('/v1/chat/slack', body, slackHeaders(SECRET, now(), body));
    expect(res.status).toBe(200);
    const message = (await res.json()) as { text: string; blocks: unknown[] };
    expect(message.text).toMatch(/GPT-3 175B .* days to train 300B tokens on 128 nodes/);
    expect(JSON.stringify(message.blocks)).toContain('https://plan.example/#scenario=');
  });

  it('refuses a replayed Slack request (signed 10 minutes ago) and a tampered one with 401', async () => {
    const body = slashCommand('how many nodes for 175B');
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await post('/v1/chat/slack', body, slackHeaders(SECRET, old, body))).status).toBe(401);
    expect((await post('/v1/chat/slack', body.replace('175B', '530B'), slackHeaders(SECRET, now(), body))).status).toBe(401);
  });

  it('answers a Discord PING and a signed command', async () => {
    const ping = await post('/v1/chat/discord', DISCORD_PING, discordHeaders(KEYS, now(), DISCORD_PING));
    expect(await ping.json()).toEqual({ type: 1 });
    const body = discordCommand('all-reduce 1 GB on 64 H100');
    const res = await post('/v1/chat/discord', body, discordHeaders(KEYS, now(), body));
    const message = (await res.json()) as { type: number; data: { embeds: { title: string }[] } };
    expect(message.type).toBe(4);
    expect(message.data.embeds[0]?.title).toMatch(/^all-reduce of 1\.00 GB on 64 × H100/);
  });

  it('refuses a Discord request signed by another key, or replayed, with 401', async () => {
    const body = discordCommand('how many nodes for 175B');
    expect((await post('/v1/chat/discord', body, discordHeaders(discordKeys(), now(), body))).status).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await post('/v1/chat/discord', body, discordHeaders(KEYS, old, body))).status).toBe(401);
  });

  it('never writes the secrets to its output', () => {
    expect(started?.output()).not.toContain(SECRET);
  });
});

describe('the chat bot on Node without TRAINPLAN_PUBLIC_URL', () => {
  // Another port than 8787 (PORT=0: a free one): the links must follow where this server listens.
  let own: StartedServer | undefined;
  beforeAll(async () => { own = await startServer({ SLACK_SIGNING_SECRET: SECRET, TRAINPLAN_PUBLIC_URL: '' }); }, 30_000);
  afterAll(() => { own?.server.kill(); });

  it('links to the widget where this server serves it: its own origin and port, not 127.0.0.1:8787', async () => {
    const body = slashCommand('how many nodes for 175B');
    const res = await fetch(`${own!.base}/v1/chat/slack`, { method: 'POST', body, headers: slackHeaders(SECRET, now(), body) });
    expect(res.status).toBe(200);
    const blocks = JSON.stringify(((await res.json()) as { blocks: unknown[] }).blocks);
    expect(own!.base).not.toBe('http://127.0.0.1:8787');
    expect(blocks).toContain(`<${own!.base}/#scenario=`);
    // …and that address serves the widget's page, which reads the #scenario= hash.
    const page = await (await fetch(`${own!.base}/`)).text();
    expect(page).toContain('trainplan-estimator');
  });
});
