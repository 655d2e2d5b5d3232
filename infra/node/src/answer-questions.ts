import type { MessagePort } from 'node:worker_threads';
import type { Answer, AnswerOptions } from '@trainplan/ask';

/**
 * The messages between the server and its answer worker (./background-answerer.ts, ./ask-worker.ts), carried by
 * structured clone: an Answer is plain data (strings, numbers, arrays, plain objects; background-answerer.test.ts
 * checks one arrives equal, prototypes and all), and so are AnswerOptions.
 */
export interface QuestionMessage {
  id: number;
  question: string;
  options: AnswerOptions;
}
/** The answer to question `id`, or the name of what `ask` threw (its message stays in the worker: it may echo input). */
export type AnswerMessage = { id: number; ok: true; answer: Answer } | { id: number; ok: false; errorName: string };

/** The worker's side: answers each question posted to `port` with `ask`, one at a time, as they come. */
export function answerQuestions(port: MessagePort, ask: (question: string, options: AnswerOptions) => Answer): void {
  port.on('message', ({ id, question, options }: QuestionMessage) => {
    let reply: AnswerMessage;
    try {
      reply = { id, ok: true, answer: ask(question, options) };
    } catch (error) {
      reply = { id, ok: false, errorName: error instanceof Error ? error.name : 'unknown error' };
    }
    port.postMessage(reply);
  });
}
