import type { Answer } from '@trainplan/ask';
import { deliver, type Fetch } from './deliver.ts';
import { toSlackMessage } from './slack-message.ts';

/**
 * A deferred Slack answer: the slash command is acknowledged within Slack's 3000 ms with an empty 200, and the message,
 * its response_type kept (in the channel, or only to the asker), is POSTed as JSON to the command's response_url, which
 * takes up to 5 responses within 30 minutes (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://api.slack.com/interactivity/handling#message_responses).
 */
export async function deliverToSlack(fetchFn: Fetch, responseUrl: string, answer: Answer): Promise<void> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(toSlackMessage(answer)) };
  await deliver(fetchFn, { what: 'Slack POST response_url', url: responseUrl, init });
}
