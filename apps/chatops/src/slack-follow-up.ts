import type { Answer } from '@trainplan/ask';
import { deliver, type Fetch } from './deliver.ts';
import { toSlackMessage } from './slack-message.ts';

/**
 * The acknowledgement of a deferred slash command, within Slack's 3000 ms: `{"response_type":"in_channel"}` and no text.
 * Slack shows the user's command in the channel only when the immediate response is in_channel; an empty 200 hides it,
 * and a deferred answer then appears with no question above it.
 */
export const SLACK_DEFERRED_ACK = { response_type: 'in_channel' } as const;

/**
 * A deferred Slack answer: after the acknowledgement (SLACK_DEFERRED_ACK), the message, its response_type kept (in the
 * channel, or only to the asker), is POSTed as JSON to the command's response_url, which takes up to 5 responses within
 * 30 minutes (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://api.slack.com/interactivity/handling#message_responses). A failure to answer (couldNotAnswer) is a refusal,
 * so it goes to the asker alone.
 */
export async function deliverToSlack(fetchFn: Fetch, responseUrl: string, answer: Answer): Promise<void> {
  await post(fetchFn, responseUrl, answer, `the ${answer.kind}`);
}

/** Tells the asker that no answer could be made (couldNotAnswer): a refusal by kind, so only they see it. */
export async function deliverFailureToSlack(fetchFn: Fetch, responseUrl: string, failure: Answer): Promise<void> {
  await post(fetchFn, responseUrl, failure, 'the failure notice');
}

/** POSTs the message to the response_url, and logs a failure by what was not delivered (`what`: "the answer"). */
async function post(fetchFn: Fetch, responseUrl: string, answer: Answer, what: string): Promise<void> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(toSlackMessage(answer)) };
  const sent = await deliver(fetchFn, { url: responseUrl, init });
  if (!sent.ok) console.error(`chatops: Slack POST response_url ${sent.why}; ${what} was not delivered`);
}
