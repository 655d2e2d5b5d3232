import { clipText, type Answer } from '@trainplan/ask';
import { cutAtWord } from './cut-text.ts';

/**
 * An answer as a Slack slash-command response in Block Kit (api.slack.com/reference/block-kit):
 * the headline, the figures as section fields, the configuration and assumptions as context, and
 * a link to the widget. `text` is the notification fallback. Everything is kept within SLACK_LIMITS; a text over
 * them is cut after a whole word and says so (SLACK_CUT). An answer is posted in the channel; a refusal (a question
 * not understood, figures out of range) or the help only to the asker (`ephemeral`), so a slip does not fill the
 * channel.
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

/**
 * Block Kit's limits (https://api.slack.com/reference/block-kit/blocks#section,
 * https://api.slack.com/reference/block-kit/composition-objects#text): 3000 characters per text object, 10 fields of
 * 2000 per section, 50 blocks per message.
 */
export const SLACK_LIMITS = { textChars: 3000, fieldChars: 2000, fieldsPerSection: 10, blocks: 50 } as const;
const LIMITS = SLACK_LIMITS;

/**
 * What ends a text cut to Slack's limits. The bot has no address that serves an answer's text (the widget link opens
 * the scenario, without the notes), so it says where the cut came from rather than where the rest is.
 */
export const SLACK_CUT = "… (cut to Slack's limit)";

/** Slack's mrkdwn escapes: &, < and > (api.slack.com/reference/surfaces/formatting#escaping). */
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A text object, cut after a whole word (never inside an escape such as "&amp;", which holds no space) if over `max`. */
const mrkdwn = (text: string, max: number = LIMITS.textChars): Mrkdwn => ({ type: 'mrkdwn', text: cutAtWord(text, max, SLACK_CUT) });
/** Items as bulleted lines ("• a\n• b"), as the examples are. */
const bullets = (items: readonly string[]): string => items.map((item) => `• ${item}`).join('\n');

/**
 * The figures as sections of at most 10 fields each, in at most `sections` sections; the figures past them are
 * counted in a context line (room for it is kept in the 50 blocks), so a cut is said.
 */
function figureBlocks(answer: Answer, sections: number): SlackBlock[] {
  const fields = answer.figures.map((f) => mrkdwn(`*${escape(f.label)}*\n${escape(f.value)}`, LIMITS.fieldChars));
  const shown = fields.slice(0, sections * LIMITS.fieldsPerSection);
  const blocks: SlackBlock[] = [];
  for (let i = 0; i < shown.length; i += LIMITS.fieldsPerSection) blocks.push({ type: 'section', fields: shown.slice(i, i + LIMITS.fieldsPerSection) });
  const cut = fields.length - shown.length;
  if (cut > 0) blocks.push({ type: 'context', elements: [mrkdwn(`${cut} more figure${cut === 1 ? '' : 's'} cut to Slack's limit`)] });
  return blocks;
}

export function toSlackMessage(answer: Answer): SlackMessage {
  // The headline is cut before it is set in bold, so a cut keeps the closing asterisk.
  const head: SlackBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${cutAtWord(escape(answer.headline), LIMITS.textChars - 2, SLACK_CUT)}*` } }];
  if (answer.configuration !== undefined) head.push({ type: 'context', elements: [mrkdwn(`Configuration: ${escape(answer.configuration)}`)] });
  const tail: SlackBlock[] = [];
  // One line each: an assumption or note may hold a semicolon or several sentences of its own (a custom
  // model's reading, the sharding note, the larger-batch hint), so "; " between them would blur where one ends.
  if (answer.assumptions.length > 0) {
    tail.push({ type: 'context', elements: [mrkdwn(`Assumed:\n${bullets(answer.assumptions.map(escape))}`)] });
  }
  if (answer.notes.length > 0) tail.push({ type: 'context', elements: [mrkdwn(bullets(answer.notes.map(escape)))] });
  if (answer.examples.length > 0) {
    tail.push({ type: 'section', text: mrkdwn(`Try:\n${answer.examples.map((e) => `• \`${escape(e)}\``).join('\n')}`) });
  }
  // A link longer than a text object cannot be sent (cut, it would not open); the configuration above still says what it was.
  const link = answer.widgetUrl === undefined ? undefined : `<${answer.widgetUrl}|Open this scenario in the widget>`;
  if (link !== undefined && link.length <= LIMITS.textChars) tail.push({ type: 'section', text: { type: 'mrkdwn', text: link } });
  // The figure sections take the blocks the others leave, less one for the line that says some were cut.
  const sections = LIMITS.blocks - head.length - tail.length - 1;
  const blocks = [...head, ...(answer.figures.length > 0 ? figureBlocks(answer, sections) : []), ...tail];
  // The fallback text is what notifications show: escaped too, so an echoed "<!channel>" pings nobody.
  return { response_type: answer.kind === 'answer' ? 'in_channel' : 'ephemeral', text: clipText(escape(answer.headline), LIMITS.textChars), blocks };
}
