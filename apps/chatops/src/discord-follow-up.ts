import type { Answer } from '@trainplan/ask';
import { deliver, type Fetch } from './deliver.ts';
import { toDiscordMessage } from './discord-message.ts';

/**
 * A deferred Discord answer (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
 * the interaction is acknowledged within Discord's 3 seconds with type 5, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (the
 * asker sees "thinking…"), and the answer replaces that message later through the interaction's webhook, whose token
 * is valid for 15 minutes.
 */

/** Interaction callback type 5 (…#interaction-response-object-interaction-callback-type): ACK now, edit the response later. */
export const DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5;

const API = 'https://discord.com/api/v10';
/**
 * Discord asks HTTP clients for `DiscordBot ($url, $versionNumber)` (https://discord.com/developers/docs/reference#user-agent);
 * the bot has no home page of its own, so its package stands in for the URL.
 */
const USER_AGENT = 'DiscordBot (@trainplan/chatops, 0.1.0)';

/** Where a deferred answer goes: the interaction's application and its token. */
export interface DiscordFollowUp {
  applicationId: string;
  token: string;
}

/**
 * The interaction's webhook, or undefined when it carries none fit for a URL path: an application id is a snowflake
 * (decimal digits, …/reference#snowflakes) and a token is URL-safe text. Then the answer is given inline.
 */
export function discordFollowUpOf(interaction: { application_id?: unknown; token?: unknown }): DiscordFollowUp | undefined {
  const { application_id: applicationId, token } = interaction;
  if (typeof applicationId !== 'string' || !/^\d{1,20}$/.test(applicationId)) return undefined;
  if (typeof token !== 'string' || !/^[\w.-]{1,1024}$/.test(token)) return undefined;
  return { applicationId, token };
}

/**
 * Delivers a deferred answer. An answer edits the deferred message (PATCH …/messages/@original,
 * …/receiving-and-responding#edit-original-interaction-response). A refusal or the help was ephemeral inline, but an
 * edit cannot make a message ephemeral (only the deferral's own flags could, and those were sent before the answer
 * was known): the deferred message is deleted (…#delete-original-interaction-response) and the answer posted as an
 * ephemeral follow-up, flags 64 (…#create-followup-message), so a slip still does not fill the channel.
 */
export async function deliverToDiscord(fetchFn: Fetch, to: DiscordFollowUp, answer: Answer): Promise<void> {
  const { data } = toDiscordMessage(answer);
  const webhook = `${API}/webhooks/${to.applicationId}/${encodeURIComponent(to.token)}`;
  const original = `${webhook}/messages/@original`;
  const json = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (answer.kind === 'answer') {
    await deliver(fetchFn, { what: 'Discord PATCH @original', url: original, init: { method: 'PATCH', headers: json, body: JSON.stringify(data) } });
    return;
  }
  await deliver(fetchFn, { what: 'Discord DELETE @original', url: original, init: { method: 'DELETE', headers: { 'user-agent': USER_AGENT } } });
  await deliver(fetchFn, { what: 'Discord POST follow-up', url: webhook, init: { method: 'POST', headers: json, body: JSON.stringify(data) } });
}
