import type { Answer, IntentName } from '@trainplan/ask';

/**
 * What the asker of a deferred question is told when no answer could be made (the answerer threw, or its worker
 * died): a short, neutral line, with nothing of the error in it (that goes to the server's log by name only). A
 * refusal by kind, so Slack shows it to the asker alone; Discord edits it into the deferred message
 * (deliverFailureToDiscord), which an edit cannot make ephemeral.
 */
export function couldNotAnswer(question: string, intent: IntentName): Answer {
  return {
    intent,
    kind: 'refusal',
    ok: false,
    question,
    headline: 'Sorry, trainplan could not answer this question. Please try again later, or ask it another way.',
    figures: [],
    assumptions: [],
    notes: [],
    examples: [],
  };
}
