import type { Answer } from '@trainplan/ask';
import { deliver, type Fetch } from './deliver.ts';
import { toSlackMessage, type SlackMessage } from './slack-message.ts';

/**
 * The acknowledgement of a deferred slash command, within Slack's 3000 ms: `{"response_type":"in_channel"}` and no text.
 * Slack shows the user's command in the channel only when the immediate response is in_channel; an empty 200 hides it,
 * and a deferred answer then appears with no question above it.
 */
export const SLACK_DEFERRED_ACK = { response_type: 'in_channel' } as const;

/**
 * A deferred Slack answer: after the acknowledgement (SLACK_DEFERRED_ACK), the message is POSTed as JSON to the
 * command's response_url, which takes up to 5 responses within 30 minutes
 * (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://api.slack.com/interactivity/handling#message_responses). In the channel whatever its kind: the acknowledgement
 * already showed the question there, so a refusal sent to the asker alone left the channel a question with no answer,
 * while the refusal in the channel adds no slip that is not already shown (a deferred question was understood: it runs
 * a search, so its refusal says why it cannot be planned, not that it was not read). Acknowledging ephemerally instead
 * would hide the question above every answer, the common case, to spare the rare refusal.
 */
export async function deliverToSlack(fetchFn: Fetch, responseUrl: string, answer: Answer): Promise<void> {
  await post(fetchFn, responseUrl, { ...toSlackMessage(answer), response_type: 'in_channel' }, `the ${answer.kind}`);
}

/**
 * Tells the asker that no answer could be made (couldNotAnswer): to the asker alone, as toSlackMessage sends a refusal.
 * The channel keeps the question with no answer, but learns nothing from the bot's failure, which the asker is told how
 * to act on.
 */
export async function deliverFailureToSlack(fetchFn: Fetch, responseUrl: string, failure: Answer): Promise<void> {
  await post(fetchFn, responseUrl, toSlackMessage(failure), 'the failure notice');
}

/** POSTs the message to the response_url, and logs a failure by what was not delivered (`what`: "the answer"). */
async function post(fetchFn: Fetch, responseUrl: string, message: SlackMessage, what: string): Promise<void> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) };
  const sent = await deliver(fetchFn, { url: responseUrl, init });
  if (!sent.ok) console.error(`chatops: Slack POST response_url ${sent.why}; ${what} was not delivered`);
}
