import type { Context } from 'hono';
import { Hono } from 'hono/tiny';
import { ask as askQuestion, parse, runsSearch, type Answer, type AnswerOptions } from '@trainplan/ask';
import { readAtMost } from '@trainplan/http';
import { answerDeferred } from './answer-deferred.ts';
import { couldNotAnswer } from './could-not-answer.ts';
import { afterResponse, type Fetch } from './deliver.ts';
import { DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, deliverFailureToDiscord, deliverToDiscord, discordFollowUpOf } from './discord-follow-up.ts';
import { toDiscordMessage, PONG } from './discord-message.ts';
import { deliverFailureToSlack, deliverToSlack, SLACK_DEFERRED_ACK } from './slack-follow-up.ts';
import { toSlackMessage } from './slack-message.ts';
import { slackCommandText, slackResponseUrl } from './slack-text.ts';
import { isDiscordPublicKey, verifyDiscordRequest } from './verify-discord.ts';
import { verifySlackRequest, type Verification } from './verify-slack.ts';

/** The variables the bot reads. Secrets are read per request and never logged or echoed. */
export interface ChatEnv {
  SLACK_SIGNING_SECRET?: string;
  DISCORD_PUBLIC_KEY?: string;
  /**
   * The public address of a server that serves the widget at `/` (answers link to
   * `${TRAINPLAN_PUBLIC_URL}/#scenario=…`): set it wherever the address the requests arrive at is not
   * the one readers should open (behind a proxy or TLS terminator), and on runtimes without the widget.
   */
  TRAINPLAN_PUBLIC_URL?: string;
  /**
   * Where deferred Discord answers are sent (default https://discord.com/api/v10): a proxy's address, or a local test
   * double's, so that no test reaches Discord.
   */
  DISCORD_API_URL?: string;
}

export interface ChatAppOptions {
  /**
   * The runtime's environment: Node passes process.env, Deno Deno.env.toObject(). On Workers leave
   * it out: the bindings arrive per request as `c.env`, which is read first.
   */
  env?: ChatEnv | Record<string, string | undefined>;
  /** Overrides TRAINPLAN_PUBLIC_URL. */
  publicUrl?: string;
  /**
   * Whether the runtime serving this app also serves the widget at `/` of the same origin (Node's
   * `npm start` does; the Deno and Workers entries do not). Without TRAINPLAN_PUBLIC_URL, answers then
   * link to the origin the request came to (its host and port, as the runtime was configured);
   * otherwise they carry no link, since nothing there would open it. Default false.
   */
  widgetAtOrigin?: boolean;
  /** The clock, in milliseconds since the epoch (tests move it to replay requests). */
  now?: () => number;
  /** The question answerer (default @trainplan/ask's ask); tests wrap it to count calls. */
  ask?: (question: string, options: AnswerOptions) => Answer;
  /**
   * The answerer of deferred questions (those that run a search), after the response. Default: `ask` on this thread,
   * wrapped in a promise; the Deno and Workers entries keep it, so there a search still holds the thread, and the
   * requests that arrive meanwhile wait for it. Node passes one that answers on a worker thread
   * (infra/node/src/background-answerer.ts), so other questions are acknowledged while a search runs. A rejection (or
   * a throw) is told to the asker as "could not answer". Questions answered inline always use `ask`.
   */
  answerInBackground?: (question: string, options: AnswerOptions) => Promise<Answer>;
  /** Candidates a configuration search may evaluate per question (default DEFAULT_CHAT_CANDIDATE_BUDGET). */
  candidateBudget?: number;
  /**
   * Questions whose answer runs a search (@trainplan/ask's runsSearch): 'auto' (default) acknowledges them at once and
   * delivers the answer after the response (Slack's response_url, Discord's interaction webhook), since a search can
   * take seconds and both platforms wait 3; 'never' answers every question inline, as before.
   */
  defer?: 'auto' | 'never';
  /** The fetch that delivers deferred answers (default globalThis.fetch); tests pass a fake one. */
  fetch?: Fetch;
}

/** The UTC calendar day ('2026-11-28') of a time in milliseconds since the epoch. */
const utcDay = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);

/** Requests larger than this are refused before verification (a slash command is a few hundred bytes). */
export const MAX_CHAT_BODY_BYTES = 16 * 1024;
/**
 * Search budget per chat question: bounds the work one question costs. It does not keep an answer inside the platforms'
 * 3-second deadline (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction): a nodes or
 * configuration search took 1.3–2.3 s in QA, and concurrent questions queue behind one another once every answer worker
 * is busy. Questions that search are deferred instead (ChatAppOptions.defer).
 */
export const DEFAULT_CHAT_CANDIDATE_BUDGET = 20_000;

type Secret = 'SLACK_SIGNING_SECRET' | 'DISCORD_PUBLIC_KEY';

// An about:blank problem is titled with its status's reason phrase (RFC 9457 §4.2.1): 413's is "Content Too Large" since
// RFC 9110 §15.5.14 (RFC 7231's "Payload Too Large" before), as the API's 413 says (apps/api/src/http/problems.ts).
const TITLES = { 400: 'Bad Request', 401: 'Unauthorized', 413: 'Content Too Large', 415: 'Unsupported Media Type', 503: 'Service Unavailable' };
/** RFC 9457 problem details, like the API's errors, under their own media type (RFC 9457 §3). */
const problem = (c: Context, status: keyof typeof TITLES, detail: string) =>
  c.body(JSON.stringify({ type: 'about:blank', title: TITLES[status], status, detail }), status, { 'content-type': 'application/problem+json' });

/**
 * The chat-ops bot as a runtime-free Hono app: `POST /slack` (a slash command) and `POST /discord`
 * (interactions). Every request is verified before anything is parsed or answered: a missing
 * secret is 503, a missing, stale or wrong signature 401, and neither does any work. A question that runs a search
 * is acknowledged at once and answered after the response (ChatAppOptions.defer); every other one in the response.
 * The served API mounts it at /v1/chat.
 */
export function createChatApp(options: ChatAppOptions = {}): Hono {
  const app = new Hono();
  const now = options.now ?? (() => Date.now());
  const ask = options.ask ?? askQuestion;
  const answerInBackground = options.answerInBackground ?? ((question: string, asked: AnswerOptions) => new Promise<Answer>((resolve) => { resolve(ask(question, asked)); }));
  const fetchFn: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  /**
   * A question answered in the response. A throw (a bug in an answerer) is logged by the error's name only and answered
   * with couldNotAnswer's notice, as a deferred question's is: a 500 shows on Slack and Discord as a bare failure of the
   * command, which tells the asker nothing.
   */
  const answerNow = (question: string, asked: AnswerOptions): Answer => {
    try {
      return ask(question, asked);
    } catch (error) {
      console.error(`chatops: a question could not be answered (${error instanceof Error ? error.name : 'unknown error'}); the asker is told so`);
      let intent: Answer['intent'] = 'help';
      try { intent = parse(question, { today: asked.today }).intent; } catch { /* the notice needs no intent to read */ }
      return couldNotAnswer(question, intent);
    }
  };
  /**
   * Whether to acknowledge now and answer after the response: a question that runs a search, unless defer is 'never'. Read
   * against the request's day, as its answer is ("by 1 january" past or not).
   */
  const deferred = (question: string, asked: AnswerOptions): boolean => options.defer !== 'never' && runsSearch(parse(question, { today: asked.today }));
  /** Runs the delivery after the response, registered with the Worker's waitUntil where there is one. */
  const later = (c: Context, work: () => Promise<void>) => afterResponse(() => c.executionCtx, work);

  const read = (c: Context, name: keyof ChatEnv): string | undefined => {
    const bindings = c.env as Record<string, unknown> | undefined;
    const bound = bindings !== undefined && typeof bindings[name] === 'string' ? (bindings[name] as string) : undefined;
    const value = bound ?? (options.env as Record<string, string | undefined> | undefined)?.[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  // The widget links' base: the configured public URL, else this origin when it serves the widget, else none.
  const publicUrl = (c: Context): string | null =>
    options.publicUrl ?? read(c, 'TRAINPLAN_PUBLIC_URL') ?? (options.widgetAtOrigin === true ? new URL(c.req.url).origin : null);
  const answerOptions = (c: Context): AnswerOptions => ({
    publicUrl: publicUrl(c),
    candidateBudget: options.candidateBudget ?? DEFAULT_CHAT_CANDIDATE_BUDGET,
    // The UTC day the request arrived, for deadlines given as a date ("by 31 december"): a deferred answer, given after the
    // response (on a worker thread on Node), reads the question against the same day, never the day it happens to run.
    today: utcDay(now()),
  });

  /**
   * The body's bytes as received (the signature covers them, not text decoded from them), or the response that
   * refuses it. A chunked body (no Content-Length) is read with readAtMost, which keeps at most MAX_CHAT_BODY_BYTES of
   * it, however much is sent: buffered whole, a 200 MB unsigned upload grew the server by 600 MB before the check.
   * `otherType` may say more than "send <type>" of a body of another type.
   */
  async function body(c: Context, type: string, otherType?: (contentType: string) => string | undefined): Promise<Uint8Array<ArrayBuffer> | Response> {
    // A media type is case-insensitive (RFC 9110 §8.3.1): Application/X-WWW-Form-Urlencoded is the form too.
    const contentType = (c.req.header('content-type') ?? '').toLowerCase();
    if (!contentType.startsWith(type)) return problem(c, 415, otherType?.(contentType) ?? `send ${type}`);
    const tooLarge = () => problem(c, 413, `bodies are limited to ${MAX_CHAT_BODY_BYTES} bytes`);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_CHAT_BODY_BYTES) return tooLarge();
    return (await readAtMost(c.req.raw, MAX_CHAT_BODY_BYTES)) ?? tooLarge();
  }
  /** Verified bytes as text (UTF-8; workerd warns when .text() reads a form body). */
  const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

  const unconfigured = (c: Context, name: Secret) =>
    problem(c, 503, `${name} is not set: this endpoint is disabled until the runtime provides it`);
  const refused = (c: Context, v: Exclude<Verification, { ok: true }>) => problem(c, 401, `request not verified: ${v.reason}`);

  app.post('/slack', async (c) => {
    const secret = read(c, 'SLACK_SIGNING_SECRET');
    if (secret === undefined) return unconfigured(c, 'SLACK_SIGNING_SECRET');
    const raw = await body(c, 'application/x-www-form-urlencoded', slackEventsApi);
    if (!(raw instanceof Uint8Array)) return raw;
    const verified = await verifySlackRequest({
      secret,
      timestamp: c.req.header('x-slack-request-timestamp'),
      signature: c.req.header('x-slack-signature'),
      body: raw,
      nowSeconds: Math.floor(now() / 1000),
    });
    if (!verified.ok) return refused(c, verified);
    const form = new URLSearchParams(text(raw));
    // Slack checks the certificate of a new endpoint with ssl_check=1 and expects a plain 200.
    if (form.get('ssl_check') === '1') return c.body(null, 200);
    const question = slackCommandText(form.get('text') ?? '');
    const asked = answerOptions(c);
    const responseUrl = slackResponseUrl(form.get('response_url'));
    if (responseUrl !== undefined && deferred(question, asked)) {
      later(c, () => answerDeferred({
        question, options: asked, answer: answerInBackground,
        deliver: (answer) => deliverToSlack(fetchFn, responseUrl, answer),
        deliverFailure: (failure) => deliverFailureToSlack(fetchFn, responseUrl, failure),
      }));
      // The acknowledgement (https://api.slack.com/interactivity/slash-commands#responding_to_commands): in_channel, so
      // Slack shows the command in the channel above the answer to come.
      return c.json(SLACK_DEFERRED_ACK);
    }
    return c.json(toSlackMessage(answerNow(question, asked)));
  });

  app.post('/discord', async (c) => {
    const key = read(c, 'DISCORD_PUBLIC_KEY');
    if (key === undefined) return unconfigured(c, 'DISCORD_PUBLIC_KEY');
    if (!isDiscordPublicKey(key)) return problem(c, 503, 'DISCORD_PUBLIC_KEY is not a 64-character hex Ed25519 public key');
    const raw = await body(c, 'application/json');
    if (!(raw instanceof Uint8Array)) return raw;
    const verified = await verifyDiscordRequest({
      publicKeyHex: key,
      timestamp: c.req.header('x-signature-timestamp'),
      signature: c.req.header('x-signature-ed25519'),
      body: raw,
      nowSeconds: Math.floor(now() / 1000),
    });
    if (!verified.ok) return refused(c, verified);
    let parsed: unknown;
    try {
      // TextDecoder drops a leading byte-order mark, which JSON.parse would refuse.
      parsed = JSON.parse(text(raw));
    } catch {
      return problem(c, 400, 'the body is not valid JSON');
    }
    // Signed is not well-formed: `null`, a number or an array is no interaction (it was a 500 reading .type of null).
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return problem(c, 400, 'the body is not an interaction object');
    const interaction = parsed as DiscordInteraction;
    if (interaction.type === PING) return c.json({ type: PONG });
    if (interaction.type !== APPLICATION_COMMAND) return problem(c, 400, `interaction type ${String(interaction.type)} is not handled`);
    const question = questionOf(interaction);
    const asked = answerOptions(c);
    const followUp = discordFollowUpOf(interaction, read(c, 'DISCORD_API_URL'));
    if (followUp !== undefined && deferred(question, asked)) {
      later(c, () => answerDeferred({
        question, options: asked, answer: answerInBackground,
        deliver: (answer) => deliverToDiscord(fetchFn, followUp, answer),
        deliverFailure: (failure) => deliverFailureToDiscord(fetchFn, followUp, failure),
      }));
      return c.json({ type: DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE });
    }
    return c.json(toDiscordMessage(answerNow(question, asked)));
  });

  return app;
}

/**
 * The 415's detail for a JSON body at /slack: Slack's Events API posts JSON (url_verification when its Request URL is
 * saved, then events such as app_mention: https://api.slack.com/apis/events-api#handshake), and the bot answers slash
 * commands only, which post a form. "send application/x-www-form-urlencoded" told an operator who set this URL for the
 * Events API nothing they could act on.
 */
const SLACK_EVENTS_API_UNSUPPORTED = "Slack's Events API (url_verification, app_mention) is not supported: this endpoint "
  + "answers a slash command only. Set it as the Request URL of a slash command (your Slack app's Slash Commands page), "
  + 'which Slack posts as application/x-www-form-urlencoded.';
const slackEventsApi = (contentType: string): string | undefined => (contentType.startsWith('application/json') ? SLACK_EVENTS_API_UNSUPPORTED : undefined);

/** Interaction types (discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-type). */
const PING = 1;
const APPLICATION_COMMAND = 2;

interface DiscordOption { name?: unknown; type?: unknown; value?: unknown; options?: unknown }
interface DiscordInteraction {
  type?: unknown;
  application_id?: unknown;
  token?: unknown;
  data?: { name?: unknown; options?: unknown };
}

/** An option list as Discord nests it: a subcommand (type 1) or a group (type 2) carries its own options. */
function flatOptions(options: unknown, depth = 0): DiscordOption[] {
  if (!Array.isArray(options) || depth > 2) return [];
  return options.flatMap((o: unknown): DiscordOption[] => {
    if (o === null || typeof o !== 'object') return [];
    const option = o as DiscordOption;
    return [option, ...flatOptions(option.options, depth + 1)];
  });
}

/**
 * The question of `/trainplan question: …` (or of a subcommand, `/trainplan ask question: …`): the string option named
 * question, else the first string option (type 3), at any depth Discord nests them (two levels at most).
 */
function questionOf(interaction: DiscordInteraction): string {
  const options = flatOptions(interaction.data?.options);
  const option = options.find((o) => o.name === 'question' && typeof o.value === 'string') ?? options.find((o) => typeof o.value === 'string');
  return typeof option?.value === 'string' ? option.value : '';
}
