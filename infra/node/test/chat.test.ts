import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCORD_PING, discordCommand, discordHeaders, discordKeys, slackHeaders, slashCommand,
} from '../../../apps/chatops/test/support/signing.ts';

// The chat bot as served: `npm start`'s entry on Node, 127.0.0.1 and a free port, with the secrets
// in its environment as an operator would set them (a fresh Ed25519 key pair per run).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = `slack-secret-${process.pid}`;
const KEYS = discordKeys();
let server: ChildProcess;
let base = '';
let output = '';

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'infra/node/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 20 s')), 20_000);
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}, 30_000);

afterAll(() => { server?.kill(); });

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
    expect(output).not.toContain(SECRET);
  });
});
