import type { Answer } from '@trainplan/ask';
import { cutAtWord, splitAtWord } from './cut-text.ts';

/**
 * An answer as a Discord interaction response (discord.com/developers/docs/interactions/receiving-and-responding):
 * type 4 (CHANNEL_MESSAGE_WITH_SOURCE) with one embed: the headline as title, the configuration and notes as
 * description, the figures as inline fields, the assumptions as footer, the widget link as the
 * embed's url, all within DISCORD_EMBED_LIMITS. A refusal (a question not understood, figures out of range) and the help are
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

/**
 * Discord's embed limits, in characters (https://discord.com/developers/docs/resources/message#embed-object-embed-limits):
 * each part's own, and 6000 for the title, description, field names and values and footer text together.
 */
export const DISCORD_EMBED_LIMITS = {
  titleChars: 256, descriptionChars: 4096, fields: 25, fieldNameChars: 256, fieldValueChars: 1024, footerChars: 2048, totalChars: 6000,
} as const;
const LIMITS = DISCORD_EMBED_LIMITS;

/**
 * What ends a text cut to Discord's limits. The bot has no address that serves an answer's text (the embed's link opens
 * the scenario in the widget, without the notes), so it says where the cut came from rather than where the rest is.
 */
export const DISCORD_CUT = "… (cut to Discord's limit)";
/** The footer line saying that figures were left out, `count` of them: there is no field left to say it in. */
const figuresCut = (count: number): string => `${count} more figure${count === 1 ? '' : 's'} cut to Discord's limit`;

/**
 * The description's lines: the rest of a headline too long for the title (so a verdict at its end is not lost), the
 * configuration, the notes and the examples. Notes and assumptions one to a bulleted line: one may hold a semicolon or
 * several sentences of its own (a custom model's reading, the sharding note, the larger-batch hint), so "; " between
 * them would blur where one ends.
 */
function descriptionLines(answer: Answer, headlineRest: string | undefined): string[] {
  const lines = [
    headlineRest === undefined ? undefined : `…${headlineRest}`,
    answer.configuration === undefined ? undefined : `**Configuration:** ${answer.configuration}`,
    ...answer.notes.map((n) => `• ${n}`),
  ].filter((s): s is string => s !== undefined);
  if (answer.examples.length > 0) lines.push('Try:', ...answer.examples.map((e) => `• \`${e}\``));
  return lines;
}

/**
 * The answer as one embed, within Discord's limits. What must be cut is cut after a whole word and says so
 * (DISCORD_CUT). The 6000 characters go in the order the embed is read: the title, the description (at most
 * 256 + 4096 together, so at least 1648 are left), the figures, each whole or not at all, and the assumptions last,
 * each of which qualifies a figure already shown.
 */
export function toDiscordMessage(answer: Answer): DiscordMessageResponse {
  // A headline over the title's limit is cut after a word, and its rest opens the description.
  const { head: title, rest } = splitAtWord(answer.headline, LIMITS.titleChars);
  const embed: DiscordEmbed = { title, color: answer.ok ? GREEN : AMBER, fields: [] };
  const lines = descriptionLines(answer, rest);
  if (lines.length > 0) embed.description = cutAtWord(lines.join('\n'), LIMITS.descriptionChars, DISCORD_CUT);
  if (answer.widgetUrl !== undefined && answer.widgetUrl.length <= MAX_URL) embed.url = answer.widgetUrl;

  let left = LIMITS.totalChars - title.length - (embed.description?.length ?? 0);
  // Room kept for the footer's line that figures were cut, so that it can always be said.
  const cutLineRoom = figuresCut(answer.figures.length).length + 1;
  for (const f of answer.figures.slice(0, LIMITS.fields)) {
    const field = { name: cutAtWord(f.label, LIMITS.fieldNameChars, '…'), value: cutAtWord(f.value, LIMITS.fieldValueChars, DISCORD_CUT), inline: true };
    const size = field.name.length + field.value.length;
    if (size > left - cutLineRoom) break;
    left -= size;
    embed.fields.push(field);
  }

  const footerRoom = Math.min(LIMITS.footerChars, left);
  const cutCount = answer.figures.length - embed.fields.length;
  const cutLine = cutCount > 0 ? figuresCut(cutCount) : undefined;
  const assumedRoom = footerRoom - (cutLine === undefined ? 0 : cutLine.length + 1);
  const assumed = answer.assumptions.length === 0 || assumedRoom < DISCORD_CUT.length + 'Assumed:'.length ? undefined
    : cutAtWord(`Assumed:\n${answer.assumptions.map((a) => `• ${a}`).join('\n')}`, assumedRoom, DISCORD_CUT);
  const footer = [assumed, cutLine].filter((s): s is string => s !== undefined).join('\n');
  if (footer !== '') embed.footer = { text: footer };

  const data: DiscordMessageResponse['data'] = { embeds: [embed], allowed_mentions: { parse: [] } };
  if (answer.kind !== 'answer') data.flags = EPHEMERAL;
  return { type: CHANNEL_MESSAGE_WITH_SOURCE, data };
}
