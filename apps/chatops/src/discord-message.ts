import { clipText, type Answer } from '@trainplan/ask';

/**
 * An answer as a Discord interaction response (discord.com/developers/docs/interactions/receiving-and-responding):
 * type 4 (CHANNEL_MESSAGE_WITH_SOURCE) with one embed: the headline as title, the configuration as
 * description, the figures as inline fields, the assumptions as footer, the widget link as the
 * embed's url. Discord's limits: title 256, description 4096, 25 fields (name 256, value 1024),
 * footer 2048, 6000 characters in all. A refusal (a question not understood, figures out of range) and the help are
 * ephemeral: only the asker sees them.
 */
export interface DiscordEmbed {
  title: string;
  description?: string;
  url?: string;
  color: number;
  fields: { name: string; value: string; inline: boolean }[];
  footer?: { text: string };
}

export interface DiscordMessageResponse {
  type: 4;
  /** allowed_mentions { parse: [] }: nothing the answer echoes from a question (@everyone, <@id>) pings anyone. */
  data: { embeds: DiscordEmbed[]; flags?: number; allowed_mentions: { parse: [] } };
}

/** Interaction response types. */
export const PONG = 1;
export const CHANNEL_MESSAGE_WITH_SOURCE = 4;
/** Message flag: only the asker sees it (a refusal or the help). */
const EPHEMERAL = 1 << 6;
const GREEN = 0x2e7d32;
const AMBER = 0xb26a00;
const MAX_URL = 2048;
const MAX_EMBED_CHARS = 6000;

/** Cut to a limit between whole code points (an emoji is never halved into a lone surrogate). */
const clip = clipText;

export function toDiscordMessage(answer: Answer): DiscordMessageResponse {
  // Notes and assumptions one to a bulleted line: one may hold a semicolon or several sentences of its own (a
  // custom model's reading, the sharding note, the larger-batch hint), so "; " between them would blur where one ends.
  const description = [answer.configuration === undefined ? undefined : `**Configuration:** ${answer.configuration}`, ...answer.notes.map((n) => `• ${n}`)]
    .filter((s): s is string => s !== undefined);
  if (answer.examples.length > 0) description.push('Try:', ...answer.examples.map((e) => `• \`${e}\``));
  const embed: DiscordEmbed = {
    title: clip(answer.headline, 256),
    color: answer.ok ? GREEN : AMBER,
    fields: [],
  };
  if (description.length > 0) embed.description = clip(description.join('\n'), 2000);
  if (answer.widgetUrl !== undefined && answer.widgetUrl.length <= MAX_URL) embed.url = answer.widgetUrl;
  if (answer.assumptions.length > 0) embed.footer = { text: clip(`Assumed:\n${answer.assumptions.map((a) => `• ${a}`).join('\n')}`, 1500) };
  // Fields fill what the 6000-character budget leaves; a figure that would overflow it is dropped whole.
  let left = MAX_EMBED_CHARS - embed.title.length - (embed.description?.length ?? 0) - (embed.footer?.text.length ?? 0);
  for (const f of answer.figures.slice(0, 25)) {
    const field = { name: clip(f.label, 256), value: clip(f.value, 1024), inline: true };
    if (field.name.length + field.value.length > left) break;
    left -= field.name.length + field.value.length;
    embed.fields.push(field);
  }
  const data: DiscordMessageResponse['data'] = { embeds: [embed], allowed_mentions: { parse: [] } };
  if (answer.kind !== 'answer') data.flags = EPHEMERAL;
  return { type: CHANNEL_MESSAGE_WITH_SOURCE, data };
}
