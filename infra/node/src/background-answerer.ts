import type { Answer, AnswerOptions } from '@trainplan/ask';
import type { Question } from './answer-questions.ts';
import { createWorkerPool } from './worker-pool.ts';

/** Answers questions on worker threads (the chat bot's ChatAppOptions.answerInBackground), until closed. */
export interface BackgroundAnswerer {
  /** Rejects when `ask` throws, its worker dies or overruns, or the answerer is closed: the asker is told "could not answer". */
  answer(question: string, options: AnswerOptions): Promise<Answer>;
  /** Fails what is queued and running and ends every worker (the server calls it when it closes). */
  close(): Promise<void>;
}

export interface BackgroundAnswererOptions {
  /** The worker's module (default ./ask-worker.ts); tests pass one that fails on cue. */
  workerUrl?: URL;
  /** How long one question may run before its worker is ended and restarted, in seconds (default 120). */
  timeoutSeconds?: number;
  /** How many questions may run at once, each on its own worker thread, a positive integer (default: defaultWorkerCount()). */
  workers?: number;
}

/** The chat bot's deferred answers on a pool of answer workers (./worker-pool.ts), each question a job. */
export function createBackgroundAnswerer(options: BackgroundAnswererOptions = {}): BackgroundAnswerer {
  const pool = createWorkerPool<Question, Answer>({
    workerUrl: options.workerUrl ?? new URL('./ask-worker.ts', import.meta.url),
    workerName: 'the answer worker', jobName: 'a question',
    ...(options.timeoutSeconds !== undefined && { timeoutSeconds: options.timeoutSeconds }),
    ...(options.workers !== undefined && { workers: options.workers }),
  });
  return { answer: (question, options) => pool.run({ question, options }), close: () => pool.close() };
}

export { defaultWorkerCount } from './worker-pool.ts';
