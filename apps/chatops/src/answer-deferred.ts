import { parse, type Answer, type AnswerOptions } from '@trainplan/ask';
import { couldNotAnswer } from './could-not-answer.ts';

/** A deferred question: what to answer it with, and how its answer, or the notice that none came, reaches the asker. */
export interface DeferredQuestion {
  question: string;
  options: AnswerOptions;
  /** The answerer (ChatAppOptions.answerInBackground): may reject, or throw before returning its promise. */
  answer: (question: string, options: AnswerOptions) => Promise<Answer>;
  /** Delivers an answer (deliverToSlack, deliverToDiscord); logs, never throws, when it does not arrive. */
  deliver: (answer: Answer) => Promise<void>;
  /** Delivers couldNotAnswer's notice to the asker alone (Slack: ephemeral through response_url; Discord: an ephemeral follow-up). */
  deliverFailure: (failure: Answer) => Promise<void>;
}

const nameOf = (error: unknown): string => (error instanceof Error ? error.name : 'unknown error');

/**
 * Answers a deferred question and delivers the answer; when no answer comes (the answerer throws or rejects, or the
 * answer cannot be rendered), logs the error by name only and tells the asker so, who would otherwise wait on
 * "thinking…" until the platform gives up. Never rejects: it runs after the response, where nobody would catch it.
 */
export async function answerDeferred(deferred: DeferredQuestion): Promise<void> {
  try {
    const answer = await deferred.answer(deferred.question, deferred.options);
    await deferred.deliver(answer);
    return;
  } catch (error) {
    console.error(`chatops: a deferred question could not be answered (${nameOf(error)}); the asker is told so`);
  }
  try {
    await deferred.deliverFailure(couldNotAnswer(deferred.question, parse(deferred.question, { today: deferred.options.today }).intent));
  } catch (error) {
    console.error(`chatops: the notice that a question could not be answered was not delivered (${nameOf(error)})`);
  }
}
