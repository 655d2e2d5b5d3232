/**
 * A slash command's text as the user typed it. Slack escapes &, < and > in what it sends (`&amp;`, `&lt;`, `&gt;`:
 * https://api.slack.com/reference/surfaces/formatting#escaping; a slash command's `text` arrives so escaped), and the
 * answer escapes what it echoes again (slack-message.ts), so undecoded "R&D" came back as "R&amp;amp;D". One pass, so "&amp;lt;" (the user's literal
 * "&lt;") becomes "&lt;", not "<".
 */
export const slackCommandText = (text: string): string =>
  text.replace(/&(amp|lt|gt);/g, (_entity, name: 'amp' | 'lt' | 'gt') => ENTITIES[name]);

const ENTITIES = { amp: '&', lt: '<', gt: '>' } as const;

/**
 * The response_url a deferred answer may be posted to: an https address on hooks.slack.com, where Slack's response URLs
 * live (https://api.slack.com/interactivity/handling#message_responses); undefined for anything else, so a signed request
 * cannot make the bot post to another host.
 */
export function slackResponseUrl(value: string | null): string | undefined {
  if (value === null) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' && url.hostname === 'hooks.slack.com' && url.port === '' && url.username === '' && url.password === '' ? url.href : undefined;
}
