import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * A stand-in for Discord's API on 127.0.0.1 (the server's DISCORD_API_URL), so that deferred answers are delivered
 * here and no test reaches discord.com: each request's method, path and body, in the order they came.
 */
const delivered: { method: string; path: string; body: string }[] = [];
let discordDouble: Server | undefined;
let discordApi = '';

beforeAll(async () => {
  discordDouble = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      delivered.push({ method: req.method ?? '', path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => discordDouble!.listen(0, '127.0.0.1', resolve));
  discordApi = `http://127.0.0.1:${(discordDouble.address() as AddressInfo).port}/api/v10`;
  started = await startServer({
    SLACK_SIGNING_SECRET: SECRET, DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: 'https://plan.example', DISCORD_API_URL: discordApi,
  });
  base = started.base;
}, 30_000);

afterAll(() => {
  started?.server.kill();
  discordDouble?.close();
});

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

describe('the chat bot on Node: deferred answers are worked out off the thread that serves requests', () => {
  // A search question (deferred on both platforms: Discord's interaction carries its webhook) and a quick one (inline).
  const SEARCH = 'is $1.2M enough to train llama3-70b on 2T tokens at $2/GPU-hour';
  const QUICK = 'memory for 70B with tp 8 pp 4 on A100 80GB';
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** How long a request takes to come back, in ms, with what it said. */
  const timed = async (send: () => Promise<Response>) => {
    const start = performance.now();
    const body = await (await send()).text();
    return { ms: performance.now() - start, body };
  };
  const discord = (question: string) => () => {
    const body = discordCommand(question);
    return post('/v1/chat/discord', body, discordHeaders(KEYS, now(), body));
  };
  const slack = (question: string) => () => {
    const body = slashCommand(question);
    return post('/v1/chat/slack', body, slackHeaders(SECRET, now(), body));
  };
  /**
   * How long that search takes on this server's own thread: the same question on Slack with no hooks.slack.com
   * response_url to answer later through is answered inline, in the response. Durations are compared as ratios to it,
   * never as absolute times, which depend on the machine.
   */
  const searchOnTheRequestThread = async () => {
    const inline = await timed(slack(SEARCH));
    expect(inline.body).toContain('"response_type":"in_channel"');
    return inline.ms;
  };

  it('acknowledges a search question sent 30 ms after another well before that search is done', async () => {
    const search = await searchOnTheRequestThread();
    const first = timed(discord(SEARCH));
    await sleep(30);
    const second = await timed(discord(SEARCH));
    expect(JSON.parse(second.body)).toEqual({ type: 5 });
    expect(JSON.parse((await first).body)).toEqual({ type: 5 });
    // On one thread the second waited for the first search (a ratio near 1); on the worker it is answered at once.
    expect(second.ms / search).toBeLessThan(0.25);
  });

  it('then delivers each deferred answer by editing the interaction\'s original response (PATCH …/messages/@original)', async () => {
    const before = delivered.length;
    expect(JSON.parse((await timed(discord(SEARCH))).body)).toEqual({ type: 5 });
    // The worker answers in its own time: wait for the edit (the test's timeout bounds the wait).
    while (delivered.length === before) await sleep(50);
    const edit = delivered[before]!;
    expect(edit.method).toBe('PATCH');
    expect(edit.path).toMatch(/^\/api\/v10\/webhooks\/\d+\/[^/]+\/messages\/@original$/);
    const message = JSON.parse(edit.body) as { embeds: { title: string }[]; allowed_mentions: unknown };
    expect(message.embeds[0]!.title).toMatch(/^Yes: Llama 3 70B/);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  }, 60_000);

  it('answers a quick question sent 100 ms after a search question at once, in its response', async () => {
    const search = await searchOnTheRequestThread();
    const first = timed(discord(SEARCH));
    await sleep(100);
    const quick = await timed(slack(QUICK));
    expect(quick.body).toContain('Llama 3 70B');
    await first;
    expect(quick.ms / search).toBeLessThan(0.25);
  });
});

describe('the chat bot on Node, stopped by a signal', () => {
  it('tells every question it acknowledged and had not answered, then exits (before: SIGTERM dropped them unsaid)', async () => {
    // Its own API path on the Discord double: a deferred answer of an earlier test's server, still running when this one
    // starts (a slow question on a loaded machine), lands under the shared path and is not counted here (CI: 4 edits).
    const api = `${discordApi}/signal-test`;
    const own = await startServer({ DISCORD_PUBLIC_KEY: KEYS.publicKeyHex, TRAINPLAN_PUBLIC_URL: '', DISCORD_API_URL: api });
    const question = 'is $1.2M enough to train llama3-70b on 2T tokens at $2/GPU-hour';
    const acks = await Promise.all([0, 1, 2].map(async () => {
      const body = discordCommand(question);
      const res = await fetch(`${own.base}/v1/chat/discord`, { method: 'POST', body, headers: discordHeaders(KEYS, now(), body) });
      return res.json();
    }));
    expect(acks).toEqual([{ type: 5 }, { type: 5 }, { type: 5 }]);
    const exited = new Promise<number | null>((resolve) => own.server.on('exit', (code) => resolve(code)));
    own.server.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Each of the three was answered: its message edited with the answer where the worker had finished it, else deleted
    // and the failure notice sent as an ephemeral follow-up (apps/chatops discord-follow-up.ts), never left unsaid.
    const ours = delivered.filter((d) => d.path.startsWith(new URL(api).pathname));
    const originals = ours.filter((d) => d.path.endsWith('/messages/@original'));
    const edits = originals.filter((d) => d.method === 'PATCH');
    const deleted = originals.filter((d) => d.method === 'DELETE');
    expect(edits.length + deleted.length).toBe(3);
    expect(ours.filter((d) => d.method === 'POST')).toHaveLength(deleted.length);
  }, 60_000);
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
