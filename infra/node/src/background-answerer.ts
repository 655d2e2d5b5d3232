import { Worker } from 'node:worker_threads';
import type { Answer, AnswerOptions } from '@trainplan/ask';
import type { AnswerMessage, QuestionMessage } from './answer-questions.ts';

/** Answers questions on a worker thread (the chat bot's ChatAppOptions.answerInBackground), until closed. */
export interface BackgroundAnswerer {
  /** Rejects when `ask` throws, the worker dies or overruns, or the answerer is closed: the asker is told "could not answer". */
  answer(question: string, options: AnswerOptions): Promise<Answer>;
  /** Fails what is queued and ends the worker (the server calls it when it closes). */
  close(): Promise<void>;
}

export interface BackgroundAnswererOptions {
  /** The worker's module (default ./ask-worker.ts); tests pass one that fails on cue. */
  workerUrl?: URL;
  /**
   * How long one question may run before its worker is ended and restarted, in seconds (default 120). A search is
   * bounded by its candidate budget and takes seconds; this catches one that never ends, which would hold the queue.
   */
  timeoutSeconds?: number;
}

/** The JavaScript entry that loads a TypeScript worker module through tsx. */
const TS_WORKER = new URL('./ts-worker.mjs', import.meta.url);

interface Job {
  question: string;
  options: AnswerOptions;
  resolve(answer: Answer): void;
  reject(error: Error): void;
}
interface Running extends Job {
  id: number;
  worker: Worker;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * One worker thread, started on the first question (a server asked nothing deferred never starts one), answering one
 * question at a time from a queue: a question that crashes the worker fails alone, and the next starts a fresh one.
 * The worker runs TypeScript as `npm start` does, through tsx, registered by its JavaScript entry (./ts-worker.mjs says
 * why `execArgv: ['--import', 'tsx']` is not enough); so it runs the same under `npm start` and under vitest.
 */
export function createBackgroundAnswerer(options: BackgroundAnswererOptions = {}): BackgroundAnswerer {
  const workerUrl = options.workerUrl ?? new URL('./ask-worker.ts', import.meta.url);
  const timeoutMs = (options.timeoutSeconds ?? 120) * 1000;
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let running: Running | undefined;
  let nextId = 0;
  let closed = false;

  /** Settles the running question and sends the next. */
  function finish(outcome: { answer: Answer } | { error: Error }): void {
    const job = running;
    if (job === undefined) return;
    clearTimeout(job.timer);
    running = undefined;
    if ('answer' in outcome) job.resolve(outcome.answer);
    else job.reject(outcome.error);
    pump();
  }

  function start(): Worker {
    // execArgv empty: tsx is registered by the entry, and a second registration from the parent's flags is not wanted.
    const started = new Worker(TS_WORKER, { workerData: { module: workerUrl.href }, execArgv: [] });
    started.on('message', (message: AnswerMessage) => {
      if (running?.worker !== started || running.id !== message.id) return;
      finish(message.ok ? { answer: message.answer } : { error: Object.assign(new Error('ask threw in the answer worker'), { name: message.errorName }) });
    });
    // An exception the worker did not catch ends it: 'error', then 'exit'.
    started.on('error', (error) => {
      console.error(`chatops: the answer worker failed (${error.name}); it is restarted for the next question`);
      if (worker === started) worker = undefined; // it is ending: the next question starts a fresh one
      if (running?.worker === started) finish({ error });
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      if (running?.worker === started) {
        console.error(`chatops: the answer worker exited (code ${code}) during a question; it is restarted for the next`);
        finish({ error: new Error(`the answer worker exited with code ${code}`) });
      }
    });
    return started;
  }

  function pump(): void {
    if (closed || running !== undefined) return;
    const job = queue.shift();
    if (job === undefined) return;
    worker ??= start();
    const id = (nextId += 1);
    const timer = setTimeout(() => {
      const stuck = running?.worker;
      if (stuck === undefined) return;
      if (worker === stuck) worker = undefined; // the next question starts a fresh one
      console.error(`chatops: a question ran past ${timeoutMs / 1000} s in the answer worker; it is restarted`);
      finish({ error: new Error('the answer worker ran past its time') });
      void stuck.terminate();
    }, timeoutMs);
    running = { ...job, id, worker, timer };
    const message: QuestionMessage = { id, question: job.question, options: job.options };
    worker.postMessage(message);
  }

  return {
    answer: (question, options) => new Promise<Answer>((resolve, reject) => {
      if (closed) { reject(new Error('the answer worker is closed')); return; }
      queue.push({ question, options, resolve, reject });
      pump();
    }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the answer worker is closed'));
      finish({ error: new Error('the answer worker is closed') });
      const last = worker;
      worker = undefined;
      await last?.terminate();
    },
  };
}
