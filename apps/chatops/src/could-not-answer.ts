import type { Answer, IntentName } from '@trainplan/ask';

/** The notice's headline: whose failure it was, and that it was logged (by the error's name only, never its message). */
export const COULD_NOT_ANSWER_HEADLINE = 'trainplan failed on its side while answering this question (an error in trainplan, not in the question); the error has been logged.';
/** What the asker can do instead of waiting: it promises nothing of a retry (see couldNotAnswer). */
export const COULD_NOT_ANSWER_NEXT = 'Asking the same question again may fail the same way: ask it another way, or report it, with the question, to whoever runs this bot.';

/**
 * What the asker is told when no answer could be made (the answerer threw, or its worker died), with nothing of the
 * error in it. It promises nothing of a retry: a question that hits a bug fails the same way each time it is asked,
 * and "Please try again later" sent askers back to the same failure. A refusal by kind, so only the asker sees it
 * (Slack: ephemeral; Discord: ephemeral inline, and an ephemeral follow-up when deferred, deliverFailureToDiscord).
 */
export function couldNotAnswer(question: string, intent: IntentName): Answer {
  return {
    intent,
    kind: 'refusal',
    ok: false,
    question,
    headline: COULD_NOT_ANSWER_HEADLINE,
    figures: [],
    assumptions: [],
    notes: [COULD_NOT_ANSWER_NEXT],
    examples: [],
  };
}
