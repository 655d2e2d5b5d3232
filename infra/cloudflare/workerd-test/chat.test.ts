// Runs inside workerd (vitest.config.mts): the chat bot mounted in the Worker, verified with
// workerd's own WebCrypto (HMAC-SHA256, Ed25519). Signatures here are built with the platforms'
// recipes written out in the test, not with the app's code.
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../src/worker.ts';

const SECRET = 'workerd-slack-secret';
const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer): string => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const now = () => String(Math.floor(Date.now() / 1000));

async function slackSigned(body: string, timestamp: string, secret = SECRET): Promise<Request> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`v0:${timestamp}:${body}`));
  return new Request('http://worker/v1/chat/slack', {
    method: 'POST', body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': `v0=${hex(mac)}` },
  });
}

const pair = async () => (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
async function discordSigned(keys: CryptoKeyPair, body: string, timestamp: string): Promise<Request> {
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, keys.privateKey, encoder.encode(`${timestamp}${body}`));
  return new Request('http://worker/v1/chat/discord', {
    method: 'POST', body,
    headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': hex(signature) },
  });
}
const publicHex = async (keys: CryptoKeyPair) => hex((await crypto.subtle.exportKey('raw', keys.publicKey)) as ArrayBuffer);
const command = (question: string) => JSON.stringify({ type: 2, data: { name: 'trainplan', options: [{ name: 'question', type: 3, value: question }] } });
const form = (text: string) => new URLSearchParams({ command: '/trainplan', text }).toString();

describe('the chat bot in the Worker', () => {
  it('is mounted, and without its secrets bound answers 503 naming the variable', async () => {
    const res = await SELF.fetch('http://worker/v1/chat/slack', { method: 'POST', body: form('help'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toContain('SLACK_SIGNING_SECRET');
  });

  it('answers a signed Slack command with bindings as secrets', async () => {
    const body = form('how many nodes for 175B');
    const res = await worker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { text: string }).text).toMatch(/GPT-3 175B .* \d+ nodes/);
  });

  it('links answers to the widget only at TRAINPLAN_PUBLIC_URL: the Worker serves no widget, so without it there is no link', async () => {
    const body = form('how many nodes for 175B');
    const bare = JSON.stringify(await (await worker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET })).json());
    expect(bare).toMatch(/GPT-3 175B/);
    expect(bare).not.toContain('#scenario=');
    const linked = await worker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET, TRAINPLAN_PUBLIC_URL: 'https://plan.example' });
    expect(JSON.stringify(await linked.json())).toContain('<https://plan.example/#scenario=');
  });

  it('refuses replayed and tampered Slack requests with 401', async () => {
    const body = form('how many nodes for 175B');
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await worker.fetch(await slackSigned(body, old), { SLACK_SIGNING_SECRET: SECRET })).status).toBe(401);
    expect((await worker.fetch(await slackSigned(body, now(), 'another-secret'), { SLACK_SIGNING_SECRET: SECRET })).status).toBe(401);
  });

  it('verifies Discord with Ed25519: PING, a command, and a forged request', async () => {
    const keys = await pair();
    const env = { DISCORD_PUBLIC_KEY: await publicHex(keys) };
    const ping = await worker.fetch(await discordSigned(keys, '{"type":1}', now()), env);
    expect(await ping.json()).toEqual({ type: 1 });
    const res = await worker.fetch(await discordSigned(keys, command('memory for 70B with tp 8 pp 4 on A100 80GB'), now()), env);
    const message = (await res.json()) as { type: number; data: { embeds: { title: string }[] } };
    expect(message.type).toBe(4);
    expect(message.data.embeds[0]?.title).toMatch(/Llama 3 70B/);
    const forged = await worker.fetch(await discordSigned(await pair(), command('help'), now()), env);
    expect(forged.status).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await worker.fetch(await discordSigned(keys, command('help'), old), env)).status).toBe(401);
  });
});
