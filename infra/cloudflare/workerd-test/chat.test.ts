// Runs inside workerd (vitest.config.mts): the chat bot in the chat Worker (src/chat-worker.ts), verified with workerd's
// own WebCrypto (HMAC-SHA256, Ed25519), and reached from the API Worker (src/worker.ts) through its CHAT service binding:
// SELF is the API Worker, its binding the chat Worker's deploy bundle (an auxiliary Worker, with only a Slack secret).
// Signatures here are built with the platforms' recipes written out in the test, not with the app's code.
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import chatWorker from '../src/chat-worker.ts';
import worker from '../src/worker.ts';
import { CHAT_WORKER_SLACK_SECRET } from './chat-worker-env.ts';

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

describe('the chat bot through the API Worker and its CHAT binding', () => {
  it('answers a signed Slack command from the chat Worker, with the API\'s CORS header', async () => {
    const res = await SELF.fetch(await slackSigned(form('how many nodes for 175B'), now(), CHAT_WORKER_SLACK_SECRET));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await res.json()) as { text: string }).text).toMatch(/GPT-3 175B .* \d+ nodes/);
  });

  it('reads the secrets of the chat Worker: without its DISCORD_PUBLIC_KEY, a 503 naming it', async () => {
    const res = await SELF.fetch(await discordSigned(await pair(), '{"type":1}', now()));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toContain('DISCORD_PUBLIC_KEY');
  });

  it('refuses a body over the bot\'s limit with 413, the chat Worker reading it to its end first', async () => {
    const res = await SELF.fetch(await slackSigned(form('x'.repeat(70_000)), now(), CHAT_WORKER_SLACK_SECRET));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toContain('16384 bytes');
  });

  it('refuses a Slack request signed with another secret with 401', async () => {
    expect((await SELF.fetch(await slackSigned(form('help'), now(), 'another-secret'))).status).toBe(401);
  });

  it('documents the chat paths in /openapi.json', async () => {
    const doc = (await (await SELF.fetch('http://worker/openapi.json')).json()) as { paths: Record<string, { post?: unknown }> };
    expect(doc.paths['/v1/chat/slack']?.post).toBeDefined();
    expect(doc.paths['/v1/chat/discord']?.post).toBeDefined();
  });
});

describe('the API Worker\'s chat routes', () => {
  it('pass the request unchanged to the CHAT binding and return its response', async () => {
    const seen: { method: string; url: string; signature: string | null; body: string }[] = [];
    const CHAT = {
      async fetch(request: Request) {
        const body = new TextDecoder().decode(await request.arrayBuffer());
        seen.push({ method: request.method, url: request.url, signature: request.headers.get('x-slack-signature'), body });
        return new Response('{"text":"from the chat Worker"}', { status: 202, headers: { 'content-type': 'application/json', 'x-chat': 'yes' } });
      },
    };
    const body = form('how many nodes for 175B');
    const request = await slackSigned(body, now());
    const signature = request.headers.get('x-slack-signature');
    const res = await worker.fetch(request, { CHAT });
    expect(seen).toEqual([{ method: 'POST', url: 'http://worker/v1/chat/slack', signature, body }]);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-chat')).toBe('yes');
    expect(await res.text()).toBe('{"text":"from the chat Worker"}');
  });

  it('without the binding (a misconfigured deploy) answer 503 naming it, not a crash', async () => {
    for (const path of ['/v1/chat/slack', '/v1/chat/discord']) {
      const res = await worker.fetch(new Request(`http://worker${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }), {});
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^CHAT is not bound/);
    }
  });

  it('forward only the documented routes: another method is the API\'s 405, another path its 404', async () => {
    const CHAT = { fetch: async () => new Response('forwarded') };
    const get = await worker.fetch(new Request('http://worker/v1/chat/slack'), { CHAT });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await worker.fetch(new Request('http://worker/v1/chat/teams', { method: 'POST' }), { CHAT })).status).toBe(404);
  });
});

describe('the chat Worker', () => {
  it('without its secrets bound answers 503 naming the variable', async () => {
    const res = await chatWorker.fetch(new Request('http://chat/v1/chat/slack', { method: 'POST', body: form('help'), headers: { 'content-type': 'application/x-www-form-urlencoded' } }), {}, undefined);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toContain('SLACK_SIGNING_SECRET');
  });

  it('serves only /v1/chat/*: another path is a 404 problem', async () => {
    const res = await chatWorker.fetch(new Request('http://chat/healthz'), {}, undefined);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers a signed Slack command with bindings as secrets', async () => {
    const body = form('how many nodes for 175B');
    const res = await chatWorker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET }, undefined);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { text: string }).text).toMatch(/GPT-3 175B .* \d+ nodes/);
  });

  it('links answers to the widget only at TRAINPLAN_PUBLIC_URL: the Worker serves no widget, so without it there is no link', async () => {
    const body = form('how many nodes for 175B');
    const bare = JSON.stringify(await (await chatWorker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET }, undefined)).json());
    expect(bare).toMatch(/GPT-3 175B/);
    expect(bare).not.toContain('#scenario=');
    const linked = await chatWorker.fetch(await slackSigned(body, now()), { SLACK_SIGNING_SECRET: SECRET, TRAINPLAN_PUBLIC_URL: 'https://plan.example' }, undefined);
    expect(JSON.stringify(await linked.json())).toContain('<https://plan.example/#scenario=');
  });

  it('refuses replayed and tampered Slack requests with 401', async () => {
    const body = form('how many nodes for 175B');
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await chatWorker.fetch(await slackSigned(body, old), { SLACK_SIGNING_SECRET: SECRET }, undefined)).status).toBe(401);
    expect((await chatWorker.fetch(await slackSigned(body, now(), 'another-secret'), { SLACK_SIGNING_SECRET: SECRET }, undefined)).status).toBe(401);
  });

  it('verifies Discord with Ed25519: PING, a command, and a forged request', async () => {
    const keys = await pair();
    const env = { DISCORD_PUBLIC_KEY: await publicHex(keys) };
    const ping = await chatWorker.fetch(await discordSigned(keys, '{"type":1}', now()), env, undefined);
    expect(await ping.json()).toEqual({ type: 1 });
    const res = await chatWorker.fetch(await discordSigned(keys, command('memory for 70B with tp 8 pp 4 on A100 80GB'), now()), env, undefined);
    const message = (await res.json()) as { type: number; data: { embeds: { title: string }[] } };
    expect(message.type).toBe(4);
    expect(message.data.embeds[0]?.title).toMatch(/Llama 3 70B/);
    const forged = await chatWorker.fetch(await discordSigned(await pair(), command('help'), now()), env, undefined);
    expect(forged.status).toBe(401);
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await chatWorker.fetch(await discordSigned(keys, command('help'), old), env, undefined)).status).toBe(401);
  });
});
