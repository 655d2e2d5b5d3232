import type { MessagePort } from 'node:worker_threads';
import type { Answer, AnswerOptions } from '@trainplan/ask';
import { serveJobs } from './worker-jobs.ts';

/** A chat question, as the answer worker receives it (an Answer and AnswerOptions are plain data). */
export interface Question {
  question: string;
  options: AnswerOptions;
}

/** The answer worker's side (./ask-worker.ts; the tests' faulty and observed workers): answers each question with `ask`. */
export function answerQuestions(port: MessagePort, ask: (question: string, options: AnswerOptions) => Answer): void {
  serveJobs<Question, Answer>(port, ({ question, options }) => ask(question, options));
}
