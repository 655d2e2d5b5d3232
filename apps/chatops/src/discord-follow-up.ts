import type { Answer } from '@trainplan/ask';
import { deliver, type Delivered, type Fetch } from './deliver.ts';
import { toDiscordMessage, type DiscordMessageResponse } from './discord-message.ts';

/**
 * A deferred Discord answer (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
 * the interaction is acknowledged within Discord's 3 seconds with type 5, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (the
 * asker sees "thinking…"), and the answer replaces that message later through the interaction's webhook, whose token
 * is valid for 15 minutes.
 */

/** Interaction callback type 5 (…#interaction-response-object-interaction-callback-type): ACK now, edit the response later. */
export const DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5;

/** Discord's HTTP API (…/reference#api-versioning); DISCORD_API_URL may name another, a proxy or a test double. */
export const DISCORD_API_URL = 'https://discord.com/api/v10';
/**
 * Discord asks HTTP clients for `DiscordBot ($url, $versionNumber)` (https://discord.com/developers/docs/reference#user-agent);
 * the bot has no home page of its own, so its package stands in for the URL.
 */
const USER_AGENT = 'DiscordBot (@trainplan/chatops, 0.1.0)';
const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': USER_AGENT };

/** Where a deferred answer goes: the interaction's application and its token, on the API at `api`. */
export interface DiscordFollowUp {
  applicationId: string;
  token: string;
  api: string;
}

/**
 * The interaction's webhook, or undefined when it carries none fit for a URL path: an application id is a snowflake
 * (decimal digits, …/reference#snowflakes) and a token is URL-safe text. Then the answer is given inline.
 */
export function discordFollowUpOf(
  interaction: { application_id?: unknown; token?: unknown }, api: string = DISCORD_API_URL,
): DiscordFollowUp | undefined {
  const { application_id: applicationId, token } = interaction;
  if (typeof applicationId !== 'string' || !/^\d{1,20}$/.test(applicationId)) return undefined;
  if (typeof token !== 'string' || !/^[\w.-]{1,1024}$/.test(token)) return undefined;
  const base = apiBase(api);
  return base === undefined ? undefined : { applicationId, token, api: base };
}

/**
 * The API's address as webhook paths are appended to it: http(s), with neither a query nor a fragment, which would
 * swallow the path and the token (…/v10#f sent every answer to /v10); undefined for any other, and then the answer
 * is given inline and the misconfiguration logged.
 */
function apiBase(api: string): string | undefined {
  const url = parsedUrl(api);
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || api.includes('?') || api.includes('#')) {
    console.error('chatops: DISCORD_API_URL is not an http(s) address without a query or fragment; Discord questions are answered inline');
    return undefined;
  }
  return api.replace(/\/+$/, '');
}

const webhookOf = (to: DiscordFollowUp) => `${to.api}/webhooks/${to.applicationId}/${encodeURIComponent(to.token)}`;

/**
 * Edits the deferred message (PATCH …/messages/@original, …#edit-original-interaction-response), without flags: an edit
 * may set only SUPPRESS_EMBEDS, so the message stays as public as the deferral made it.
 */
function editOriginal(fetchFn: Fetch, to: DiscordFollowUp, data: DiscordMessageResponse['data']): Promise<Delivered> {
  const { flags: _ephemeral, ...edit } = data;
  const init = { method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify(edit) };
  return deliver(fetchFn, { url: `${webhookOf(to)}/messages/@original`, init });
}

/** Edits the deferred message, and logs a failure by what was not delivered (`what`: "the answer"). */
async function edit(fetchFn: Fetch, to: DiscordFollowUp, data: DiscordMessageResponse['data'], what: string): Promise<void> {
  const sent = await editOriginal(fetchFn, to, data);
  if (!sent.ok) console.error(`chatops: Discord PATCH @original ${sent.why}; ${what} was not delivered`);
}

/**
 * Delivers a deferred answer. An answer edits the deferred message. A refusal or the help was ephemeral inline, and is
 * delivered privately (deliverPrivately), so a slip still does not fill the channel.
 */
export async function deliverToDiscord(fetchFn: Fetch, to: DiscordFollowUp, answer: Answer): Promise<void> {
  const { data } = toDiscordMessage(answer);
  if (answer.kind === 'answer') {
    await edit(fetchFn, to, data, 'the answer');
    return;
  }
  await deliverPrivately(fetchFn, to, data, `the ${answer.kind}`);
}

/**
 * Tells the asker that no answer could be made (couldNotAnswer), privately as a refusal is: the channel is not shown
 * the bot's own failure in place of "thinking…", and the asker alone learns to ask another way or report it.
 */
export async function deliverFailureToDiscord(fetchFn: Fetch, to: DiscordFollowUp, failure: Answer): Promise<void> {
  await deliverPrivately(fetchFn, to, toDiscordMessage(failure).data, 'the failure notice');
}

/**
 * A message for the asker alone, after a public deferral. An edit cannot make a message ephemeral (only the deferral's
 * own flags could, and those were sent before the answer was known): the deferred message is deleted
 * (…#delete-original-interaction-response) and the message posted as an ephemeral follow-up, flags 64
 * (…#create-followup-message). Only once the delete went through: while the deferred message stands, Discord takes the
 * first follow-up as an edit of it, which would be public anyway, so then the message is edited into it, and the log
 * says so (`what`: "the refusal").
 */
async function deliverPrivately(fetchFn: Fetch, to: DiscordFollowUp, data: DiscordMessageResponse['data'], what: string): Promise<void> {
  const original = `${webhookOf(to)}/messages/@original`;
  const deleted = await deliver(fetchFn, { url: original, init: { method: 'DELETE', headers: { 'user-agent': USER_AGENT } } });
  if (!deleted.ok) {
    const edited = await editOriginal(fetchFn, to, data);
    console.error(edited.ok
      ? `chatops: Discord DELETE @original ${deleted.why}; ${what} was edited into the deferred message instead (visible to the channel)`
      : `chatops: Discord DELETE @original ${deleted.why}, and PATCH @original ${edited.why}; ${what} was not delivered`);
    return;
  }
  const init = { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(data) };
  const posted = await deliver(fetchFn, { url: webhookOf(to), init });
  if (!posted.ok) console.error(`chatops: Discord POST follow-up ${posted.why}; ${what} was not delivered (the deferred message was deleted)`);
}

/** `text` as a URL, or undefined where it is none (URL.canParse is not on every runtime the bot runs on). */
function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
