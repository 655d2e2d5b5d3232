import { clipText, type Answer } from '@trainplan/ask';

/**
 * An answer as a Slack slash-command response in Block Kit (api.slack.com/reference/block-kit):
 * the headline, the figures as section fields, the configuration and assumptions as context, and
 * a link to the widget. `text` is the notification fallback. Slack's limits: 3000 characters per
 * text object, 10 fields per section, 2000 per field, 50 blocks. An answer is posted in the channel; a refusal
 * (a question not understood, figures out of range) or the help only to the asker (`ephemeral`), so a slip does not
 * fill the channel.
 */
export interface SlackMessage {
  response_type: 'in_channel' | 'ephemeral';
  text: string;
  blocks: SlackBlock[];
}

type Mrkdwn = { type: 'mrkdwn'; text: string };
export type SlackBlock =
  | { type: 'section'; text: Mrkdwn }
  | { type: 'section'; fields: Mrkdwn[] }
  | { type: 'context'; elements: Mrkdwn[] }
  | { type: 'divider' };

const MAX_TEXT = 3000;
const MAX_FIELD = 2000;
const MAX_FIELDS = 10;

/** Cut to a limit between whole code points (an emoji is never halved into a lone surrogate). */
const clip = clipText;
/** Slack's mrkdwn escapes: &, < and > (api.slack.com/reference/surfaces/formatting#escaping). */
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const mrkdwn = (text: string, max = MAX_TEXT): Mrkdwn => ({ type: 'mrkdwn', text: clip(text, max) });
/** Items as bulleted lines ("• a\n• b"), as the examples are. */
const bullets = (items: readonly string[]): string => items.map((item) => `• ${item}`).join('\n');

export function toSlackMessage(answer: Answer): SlackMessage {
  const blocks: SlackBlock[] = [{ type: 'section', text: mrkdwn(`*${escape(answer.headline)}*`) }];
  if (answer.configuration !== undefined) blocks.push({ type: 'context', elements: [mrkdwn(`Configuration: ${escape(answer.configuration)}`)] });
  if (answer.figures.length > 0) {
    blocks.push({ type: 'section', fields: answer.figures.slice(0, MAX_FIELDS).map((f) => mrkdwn(`*${escape(f.label)}*\n${escape(f.value)}`, MAX_FIELD)) });
  }
  // One line each: an assumption or note may hold a semicolon or several sentences of its own (a custom
  // model's reading, the sharding note, the larger-batch hint), so "; " between them would blur where one ends.
  if (answer.assumptions.length > 0) {
    blocks.push({ type: 'context', elements: [mrkdwn(`Assumed:\n${bullets(answer.assumptions.map(escape))}`)] });
  }
  if (answer.notes.length > 0) blocks.push({ type: 'context', elements: [mrkdwn(bullets(answer.notes.map(escape)))] });
  if (answer.examples.length > 0) {
    blocks.push({ type: 'section', text: mrkdwn(`Try:\n${answer.examples.map((e) => `• \`${escape(e)}\``).join('\n')}`) });
  }
  // A link longer than a text object cannot be sent; the configuration above still says what it was.
  const link = answer.widgetUrl === undefined ? undefined : `<${answer.widgetUrl}|Open this scenario in the widget>`;
  if (link !== undefined && link.length <= MAX_TEXT) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: link } });
  // The fallback text is what notifications show: escaped too, so an echoed "<!channel>" pings nobody.
  return { response_type: answer.kind === 'answer' ? 'in_channel' : 'ephemeral', text: clip(escape(answer.headline), MAX_TEXT), blocks };
}
