import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_EXAMPLE } from '@trainplan/protocol';
import { decodeMsgpack, encodeMsgpack } from '@trainplan/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validScenario } from '@trainplan/fuzz';
import {
  DISCORD_PING, discordCommand, discordHeaders, discordKeys, slackHeaders, slashCommand,
} from '../../../apps/chatops/test/support/signing.ts';
import { startServer, type LiveServer } from '../src/live-server.ts';

// The same requests against the three live runtimes, each started the way its README says:
// Node (`npm start`'s entry), workerd (`wrangler dev`), Deno (`deno task start`).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const node = process.execPath;
// The wrangler infra/cloudflare depends on (wherever npm placed it), not the Workers pool's newer copy.
const wranglerBin = createRequire(`${root}infra/cloudflare/package.json`).resolve('wrangler/bin/wrangler.js');

// The chat bot's secrets, made up per run (an HMAC secret, a fresh Ed25519 key pair), reach each
// runtime through its own environment as an operator would set them: process.env on Node,
// Deno.env on Deno, and on workerd the chat Worker's .dev.vars, written to a private temp directory
// (so the secrets are neither committed nor on a command line).
const SLACK_SECRET = `runtimes-slack-secret-${process.pid}`;
const DISCORD_KEYS = discordKeys();
const CHAT_ENV = {
  SLACK_SIGNING_SECRET: SLACK_SECRET, DISCORD_PUBLIC_KEY: DISCORD_KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example',
};
const secretsDir = mkdtempSync(join(tmpdir(), 'trainplan-chat-'));
// On workerd the bot is the chat Worker (infra/cloudflare/chat/wrangler.toml), served in the same `wrangler dev` session
// as the API Worker, whose CHAT service binding reaches it. wrangler 4.86 gives a session's other Workers no --env-file:
// each reads the .dev.vars beside its config. So the chat Worker's config is run from the temp directory, beside a
// .dev.vars of the secrets: the committed file, its `main` made absolute, nothing else changed.
const chatConfig = join(secretsDir, 'wrangler.toml');
const committedChatConfig = readFileSync(`${root}infra/cloudflare/chat/wrangler.toml`, 'utf8');
const chatMain = /^main = "\.\.\/src\/chat-worker\.ts"$/m;
if (!chatMain.test(committedChatConfig)) throw new Error('infra/cloudflare/chat/wrangler.toml: its main is not ../src/chat-worker.ts');
writeFileSync(chatConfig, committedChatConfig.replace(chatMain, `main = ${JSON.stringify(`${root}infra/cloudflare/src/chat-worker.ts`)}`));
writeFileSync(join(secretsDir, '.dev.vars'), Object.entries(CHAT_ENV).map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600 });

let servers: LiveServer[] = [];
// Every server that did start, so one that fails to start does not leave the others running.
const started: LiveServer[] = [];

beforeAll(async () => {
  servers = await Promise.all([
    startServer({
      name: 'node', command: node, args: ['--import', 'tsx', 'infra/node/src/main.ts'], cwd: root,
      env: CHAT_ENV, ready: /listening on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 60_000,
    }),
    startServer({
      // The API Worker (the first config, the one served) and the chat Worker, one session: as deployed, two Workers.
      name: 'workerd', command: node,
      args: [
        wranglerBin, 'dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0', '--show-interactive-dev-session=false',
        '--config', 'wrangler.toml', '--config', chatConfig,
      ],
      cwd: `${root}infra/cloudflare`, env: { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      ready: /Ready on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 120_000,
    }),
    startServer({
      // Through the npm package's launcher: on a fresh `npm install` (install scripts skipped) it
      // puts the platform binary in place on first use.
      name: 'deno', command: node, args: [`${root}node_modules/deno/bin.cjs`, 'task', 'start'], cwd: `${root}infra/deno`,
      env: { DENO_NO_UPDATE_CHECK: '1', ...CHAT_ENV },
      ready: /listening on (http:\/\/[\d.]+:\d+)/, startTimeoutMs: 120_000,
    }),
  ].map((p) => p.then((s) => { started.push(s); return s; })));
}, 180_000);

afterAll(() => {
  for (const s of started) s.stop();
  rmSync(secretsDir, { recursive: true, force: true });
});

interface Exchange { status: number; contentType: string | null; etag: string | null; allow: string | null; body: string }

/**
 * One exchange, its body uncompressed: Node's server compresses what a client accepts (infra/node) and weakens
 * the ETag of a compressed answer, Deno codes it with Deno.serve's own compression and workerd leaves it to the platform; Node's
 * fetch asks for gzip by default, so the comparison asks for identity to compare the app, not the codings.
 */
async function send(server: LiveServer, path: string, init: RequestInit = {}): Promise<Exchange> {
  const headers = { 'accept-encoding': 'identity', ...(init.headers as Record<string, string> | undefined) };
  const res = await fetch(`${server.base}${path}`, { ...init, headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const isMsgpack = res.headers.get('content-type') === 'application/msgpack';
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    etag: res.headers.get('etag'),
    allow: res.headers.get('allow'),
    body: isMsgpack ? JSON.stringify(decodeMsgpack(bytes)) : new TextDecoder().decode(bytes),
  };
}

const jsonPost = (body: unknown, extra: Record<string, string> = {}): RequestInit =>
  ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...extra } });

const REQUESTS: [string, string, RequestInit?][] = [
  ['health', '/healthz'],
  ['estimate: the contract example', '/v1/estimate', jsonPost(CONTRACT_EXAMPLE)],
  ['estimate: an array, one feasible and one not', '/v1/estimate', jsonPost([CONTRACT_EXAMPLE, { ...CONTRACT_EXAMPLE, parallelism: { tensor: 7 } }])],
  ['estimate: out of memory', '/v1/estimate', jsonPost({ ...CONTRACT_EXAMPLE, training: { globalBatchSize: 1024 }, parallelism: { tensor: 1, pipeline: 1 } })],
  ['estimate: Llama 3 70B on H100, interleaved, sequence parallel', '/v1/estimate', jsonPost({
    model: 'llama3-70b', cluster: { gpu: 'h100-sxm', nodes: 8 }, training: { globalBatchSize: 128, precision: 'bf16' },
    parallelism: { tensor: 4, pipeline: 4, virtualStages: 5, sequenceParallel: true, distributedOptimizer: true, recompute: 'selective' },
  })],
  ['estimate: MessagePack both ways', '/v1/estimate', {
    method: 'POST', body: encodeMsgpack(CONTRACT_EXAMPLE), headers: { 'content-type': 'application/msgpack', accept: 'application/msgpack' },
  }],
  ['estimate: 400 naming the field', '/v1/estimate', jsonPost({ ...CONTRACT_EXAMPLE, parallelism: { tensor: 0 } })],
  ['estimate: 415', '/v1/estimate', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }],
  ['estimate: 413', '/v1/estimate', { method: 'POST', body: 'x'.repeat(70_000), headers: { 'content-type': 'application/json' } }],
  ['memory', '/v1/memory', jsonPost(CONTRACT_EXAMPLE)],
  ['collective: closed form', '/v1/collective', jsonPost({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, sizes: [1048576, 1073741824] })],
  ['collective: emulated', '/v1/collective', jsonPost({ op: 'all-gather', gpu: 'a100-80gb', nodes: 2, size: 16777216, emulate: true })],
  ['collective: over the event budget (422)', '/v1/collective', jsonPost({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 16, size: 1073741824, emulate: true, eventBudget: 1 })],
  ['search', '/v1/search', jsonPost({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 }, top: 3 })],
  ['nodes', '/v1/nodes', jsonPost({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 })],
  ['scale', '/v1/scale', jsonPost({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: [32, 64, 128] })],
  ['inference', '/v1/inference', jsonPost({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512 })],
  ['presets: models', '/v1/presets/models'],
  ['presets: one GPU', '/v1/presets/gpus/h100-sxm'],
  ['presets: unknown model', '/v1/presets/models/nope'],
  ['openapi', '/openapi.json'],
  ['404', '/v2/nothing'],
  ['405 naming the allowed methods', '/v1/estimate', { method: 'GET' }],
];

describe('Node, workerd and Deno answer the same requests identically', () => {
  it.each(REQUESTS)('%s', async (_, path, init) => {
    const [reference, ...others] = await Promise.all(servers.map((s) => send(s, path, init)));
    expect(reference!.status).toBeLessThan(500);
    for (const other of others) expect(other).toEqual(reference);
  });
  // Issue 8's "results identical on every runtime for the same input", as a property: random valid
  // scenarios (test/fuzz's generator, a fixed seed so a failure reproduces), batched 20 per request.
  it('random valid scenarios get byte-identical estimates from every runtime', async () => {
    const scenarios = fc.sample(validScenario, { numRuns: 200, seed: 20261121 });
    for (let i = 0; i < scenarios.length; i += 20) {
      const [reference, ...others] = await Promise.all(servers.map((s) => send(s, '/v1/estimate', jsonPost(scenarios.slice(i, i + 20)))));
      expect(reference!.status).toBe(200);
      for (const other of others) expect(other.body).toBe(reference!.body);
    }
  });
  it('Node and Deno code an answer for a client that takes gzip (Deno since 2.9 only with DENO_SERVE_AUTOMATIC_COMPRESSION, set by its task)', async () => {
    for (const server of servers.filter((s) => s.name !== 'workerd')) {
      const res = await fetch(`${server.base}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      expect(res.headers.get('content-encoding'), server.name).toBe('gzip');
      expect(res.headers.get('vary') ?? '', server.name).toMatch(/accept-encoding/i);
    }
  });

  it('a conditional request with the ETag is a 304 on each runtime', async () => {
    for (const s of servers) {
      const first = await fetch(`${s.base}/v1/estimate`, jsonPost(CONTRACT_EXAMPLE));
      await first.arrayBuffer();
      const again = await fetch(`${s.base}/v1/estimate`, jsonPost(CONTRACT_EXAMPLE, { 'if-none-match': first.headers.get('etag')! }));
      expect(again.status, s.name).toBe(304);
    }
  });
  // RFC 9110 §9.3.2: a HEAD's Content-Length, where sent, is its GET's. Before, Deno said `content-length: 0`
  // (Hono answers a HEAD with a null body, which Deno.serve measures); infra/deno answers HEAD from GET.
  it.each(['/v1/presets/models', '/healthz', '/v2/nothing'])('a HEAD of %s states its GET\'s Content-Length, or none, on each runtime', async (path) => {
    for (const s of servers) {
      const init = { headers: { 'accept-encoding': 'identity' } };
      const get = await fetch(`${s.base}${path}`, init);
      const length = (await get.arrayBuffer()).byteLength;
      const head = await fetch(`${s.base}${path}`, { ...init, method: 'HEAD' });
      expect(head.status, s.name).toBe(get.status);
      expect([null, String(length)], `${s.name}: content-length ${head.headers.get('content-length')}, the GET's body ${length} bytes`).toContain(head.headers.get('content-length'));
    }
  });
  it('a CORS preflight is answered the same on each runtime', async () => {
    const init = { method: 'OPTIONS', headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } };
    for (const s of servers) {
      const res = await fetch(`${s.base}/v1/estimate`, init);
      expect(res.status, s.name).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), s.name).toBe('*');
      expect(res.headers.get('content-type'), s.name).toBeNull(); // a 204 has no content, so no type
    }
  });
});

// Signed like Slack and Discord sign (apps/chatops/test/support/signing.ts, node:crypto rather than
// the app's WebCrypto code), built when the test runs so the timestamps are current.
const nowSeconds = () => Math.floor(Date.now() / 1000);
const TEN_MINUTES_AGO = () => String(nowSeconds() - 600);
const chatPost = (body: string, headers: Record<string, string>): RequestInit => ({ method: 'POST', body, headers });

const slack = (question: string, sign = question, at = String(nowSeconds())) =>
  chatPost(slashCommand(question), slackHeaders(SLACK_SECRET, at, slashCommand(sign)));
const discord = (body: string, { signedBody = body, at = String(nowSeconds()), keys = DISCORD_KEYS } = {}) =>
  chatPost(body, discordHeaders(keys, at, signedBody));

const CHAT: [string, '/v1/chat/slack' | '/v1/chat/discord', () => RequestInit, number][] = [
  ['Slack: a signed slash command', '/v1/chat/slack', () => slack('how long to train gpt3-175b on 128 nodes'), 200],
  ['Slack: a signed memory question', '/v1/chat/slack', () => slack('memory for 70B with tp 8 pp 4 on A100 80GB'), 200],
  ['Slack: tampered (the text changed after signing)', '/v1/chat/slack', () => slack('how many nodes for 530B', 'how many nodes for 175B'), 401],
  ['Slack: replayed (signed ten minutes ago)', '/v1/chat/slack', () => slack('how many nodes for 175B', 'how many nodes for 175B', TEN_MINUTES_AGO()), 401],
  ['Slack: unsigned', '/v1/chat/slack', () => chatPost(slashCommand('how many nodes for 175B'), { 'content-type': 'application/x-www-form-urlencoded' }), 401],
  ['Discord: a signed PING', '/v1/chat/discord', () => discord(DISCORD_PING), 200],
  ['Discord: a signed command', '/v1/chat/discord', () => discord(discordCommand('all-reduce 1 GB on 64 H100')), 200],
  ['Discord: tampered (the question changed after signing)', '/v1/chat/discord', () => discord(discordCommand('how many nodes for 530B'), { signedBody: discordCommand('how many nodes for 175B') }), 401],
  ['Discord: replayed (signed ten minutes ago)', '/v1/chat/discord', () => discord(discordCommand('how many nodes for 175B'), { at: TEN_MINUTES_AGO() }), 401],
  ['Discord: signed by another key', '/v1/chat/discord', () => discord(discordCommand('how many nodes for 175B'), { keys: discordKeys() }), 401],
];

describe('the chat bot on Node, workerd and Deno: secrets from each environment, identical answers', () => {
  it.each(CHAT)('%s', async (_, path, request, status) => {
    const init = request();
    const [reference, ...others] = await Promise.all(servers.map((s) => send(s, path, init)));
    expect(reference!.status).toBe(status);
    for (const other of others) expect(other).toEqual(reference);
  });

  it('a signed answer links to the widget at TRAINPLAN_PUBLIC_URL on every runtime', async () => {
    const init = slack('how many nodes for 175B');
    for (const s of servers) {
      const res = await send(s, '/v1/chat/slack', init);
      expect(res.status, s.name).toBe(200);
      expect(res.body, s.name).toContain('https://plan.example/#scenario=');
    }
  });

  it('the refusals name no secret', async () => {
    const answers = await Promise.all(servers.map((s) => send(s, '/v1/chat/slack', slack('x', 'y'))));
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.body).not.toContain(SLACK_SECRET);
    }
  });
});
