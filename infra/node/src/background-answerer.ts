import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Answer, AnswerOptions } from '@trainplan/ask';
import type { AnswerMessage, QuestionMessage } from './answer-questions.ts';

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
  /**
   * How long one question may run before its worker is ended and restarted, in seconds (default 120). A search is
   * bounded by its candidate budget and takes seconds; this catches one that never ends, which would hold its worker.
   */
  timeoutSeconds?: number;
  /** How many questions may run at once, each on its own worker thread, a positive integer (default: defaultWorkerCount()). */
  workers?: number;
}

/**
 * The most workers the default starts. A search is CPU-bound and takes seconds, and each worker holds its own copy of
 * the planner and presets; a chat bot rarely has more than a few searches in flight, and those past four wait in the
 * queue rather than share cores with the ones running (which would only make every one of them slower).
 */
const MAX_DEFAULT_WORKERS = 4;

/**
 * The default pool size: one worker per core but one, at least 1 and at most MAX_DEFAULT_WORKERS. One core is left
 * to the thread that serves HTTP: it acknowledges each chat question while searches run, and Slack and Discord give
 * up on an acknowledgement after 3 s (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction), so its
 * event loop must not compete for a core with every worker at once.
 */
export function defaultWorkerCount(cores: number = availableParallelism()): number {
  return Math.min(MAX_DEFAULT_WORKERS, Math.max(1, cores - 1));
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
/** One place in the pool: its worker while that lives (undefined before the first question and after it ends), and the question it runs. */
interface Slot {
  worker?: Worker;
  running?: Running;
}

/**
 * A small pool of worker threads answering questions from one queue, first asked first started. Workers start as
 * they are needed (a server asked nothing deferred starts none; the k-th question in flight at once starts the k-th,
 * up to `workers`). Each worker answers one question at a time: a question that crashes its worker, or runs past its
 * time, fails alone, that worker is restarted for its next question, and the others run on. Ids are per answerer, so
 * unique across its workers, and an answer settles only the question its worker is running under that id.
 * The workers run TypeScript as `npm start` does, through tsx, registered by their JavaScript entry (./ts-worker.mjs
 * says why `execArgv: ['--import', 'tsx']` is not enough); so they run the same under `npm start` and under vitest.
 */
export function createBackgroundAnswerer(options: BackgroundAnswererOptions = {}): BackgroundAnswerer {
  const workerUrl = options.workerUrl ?? new URL('./ask-worker.ts', import.meta.url);
  const timeoutMs = (options.timeoutSeconds ?? 120) * 1000;
  const workerCount = options.workers ?? defaultWorkerCount();
  if (!Number.isInteger(workerCount) || workerCount < 1) throw new RangeError(`workers must be a positive integer, not ${workerCount}`);
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;

  /** Settles the question `slot` runs and sends the next. */
  function finish(slot: Slot, outcome: { answer: Answer } | { error: Error }): void {
    const job = slot.running;
    if (job === undefined) return;
    clearTimeout(job.timer);
    slot.running = undefined;
    if ('answer' in outcome) job.resolve(outcome.answer);
    else job.reject(outcome.error);
    pump();
  }

  function start(slot: Slot): Worker {
    // execArgv empty: tsx is registered by the entry, and a second registration from the parent's flags is not wanted.
    const started = new Worker(TS_WORKER, { workerData: { module: workerUrl.href }, execArgv: [] });
    started.on('message', (message: AnswerMessage) => {
      if (slot.running?.worker !== started || slot.running.id !== message.id) return;
      finish(slot, message.ok ? { answer: message.answer } : { error: Object.assign(new Error('ask threw in the answer worker'), { name: message.errorName }) });
    });
    // An exception the worker did not catch ends it: 'error', then 'exit'.
    started.on('error', (error) => {
      console.error(`chatops: the answer worker failed (${error.name}); it is restarted for the next question`);
      if (slot.worker === started) slot.worker = undefined; // it is ending: its next question starts a fresh one
      if (slot.running?.worker === started) finish(slot, { error });
    });
    started.on('exit', (code) => {
      if (slot.worker === started) slot.worker = undefined;
      if (slot.running?.worker === started) {
        console.error(`chatops: the answer worker exited (code ${code}) during a question; it is restarted for the next`);
        finish(slot, { error: new Error(`the answer worker exited with code ${code}`) });
      }
    });
    return started;
  }

  /** An idle worker already started, else an idle place whose worker ended (restarted), else a new place up to the cap. */
  function freeSlot(): Slot | undefined {
    const idle = slots.find((slot) => slot.running === undefined && slot.worker !== undefined)
      ?? slots.find((slot) => slot.running === undefined);
    if (idle !== undefined || slots.length >= workerCount) return idle;
    const added: Slot = {};
    slots.push(added);
    return added;
  }

  /** Starts queued questions, oldest first, while a worker is free. */
  function pump(): void {
    while (!closed && queue.length > 0) {
      const slot = freeSlot();
      if (slot === undefined) return;
      const job = queue.shift()!;
      const worker = (slot.worker ??= start(slot));
      const id = (nextId += 1);
      const timer = setTimeout(() => {
        if (slot.running?.id !== id) return;
        if (slot.worker === worker) slot.worker = undefined; // its next question starts a fresh one
        console.error(`chatops: a question ran past ${timeoutMs / 1000} s in the answer worker; it is restarted`);
        finish(slot, { error: new Error('the answer worker ran past its time') });
        void worker.terminate();
      }, timeoutMs);
      slot.running = { ...job, id, worker, timer };
      const message: QuestionMessage = { id, question: job.question, options: job.options };
      worker.postMessage(message);
    }
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
      for (const slot of slots) finish(slot, { error: new Error('the answer worker is closed') });
      const ending = slots.map((slot) => {
        const last = slot.worker;
        slot.worker = undefined;
        return last?.terminate();
      });
      await Promise.all(ending);
    },
  };
}
