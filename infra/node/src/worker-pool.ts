import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { JobMessage, ResultMessage } from './worker-jobs.ts';

/** Runs jobs on worker threads, first come first started, until closed. */
export interface WorkerPool<J, R> {
  /**
   * The worker's result for `job` (plain data, structured-cloned both ways). Rejects when the worker's handler throws
   * (an Error named as what it threw), its worker dies or overruns, the pool is closed, or the queue is full (PoolBusyError).
   */
  run(job: J): Promise<R>;
  /** Fails what is queued and running and ends every worker (the server calls it when it closes). */
  close(): Promise<void>;
}

export interface WorkerPoolOptions {
  /** The worker's module: a TypeScript file that calls serveJobs (./worker-jobs.ts) on its parentPort. */
  workerUrl: URL;
  /** What the logs and errors call one worker and one job: "the answer worker", "a question". */
  workerName: string;
  jobName: string;
  /**
   * How long one job may run before its worker is ended and restarted, in seconds (default 120). A search is bounded
   * by its candidate budget and takes seconds; this catches one that never ends, which would hold its worker.
   */
  timeoutSeconds?: number;
  /** How many jobs may run at once, each on its own worker thread, a positive integer (default: defaultWorkerCount()). */
  workers?: number;
  /** How many jobs may wait for a worker; past it run() rejects with a PoolBusyError at once (default: no limit). */
  maxQueued?: number;
}

/** A job refused because `maxQueued` jobs already wait: the caller may ask again later. */
export class PoolBusyError extends Error {
  override readonly name = 'PoolBusyError';
}

/** A job failed because the pool was closed (the server is stopping) before or while it ran: another server may take it. */
export class PoolClosedError extends Error {
  override readonly name = 'PoolClosedError';
}

/**
 * The most workers the default starts. A search is CPU-bound and takes seconds, and each worker holds its own copy of
 * the planner and presets; a server rarely has more than a few searches in flight, and those past four wait in the
 * queue rather than share cores with the ones running (which would only make every one of them slower).
 */
const MAX_DEFAULT_WORKERS = 4;

/**
 * The default pool size: one worker per core but one, at least 1 and at most MAX_DEFAULT_WORKERS. One core is left
 * to the thread that serves HTTP: it answers requests and acknowledges each chat question while searches run, and Slack and Discord give
 * up on an acknowledgement after 3 s (https://api.slack.com/interactivity/slash-commands#responding_to_commands,
 * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction), so its
 * event loop must not compete for a core with every worker at once.
 */
export function defaultWorkerCount(cores: number = availableParallelism()): number {
  return Math.min(MAX_DEFAULT_WORKERS, Math.max(1, cores - 1));
}

/** The JavaScript entry that loads a TypeScript worker module through tsx. */
const TS_WORKER = new URL('./ts-worker.mjs', import.meta.url);

interface Job<J, R> {
  job: J;
  resolve(result: R): void;
  reject(error: Error): void;
}
interface Running<J, R> extends Job<J, R> {
  id: number;
  worker: Worker;
  timer: ReturnType<typeof setTimeout>;
}
/** One place in the pool: its worker while that lives (undefined before the first job and after it ends), and the job it runs. */
interface Slot<J, R> {
  worker?: Worker;
  running?: Running<J, R>;
}

/**
 * A small pool of worker threads running jobs from one queue, first come first started. Workers start as they are
 * needed (a server asked nothing starts none; the k-th job in flight at once starts the k-th, up to `workers`). Each
 * worker runs one job at a time: a job that crashes its worker, or runs past its time, fails alone, that worker is
 * restarted for its next job, and the others run on. Ids are per pool, so unique across its workers, and a result
 * settles only the job its worker is running under that id. The workers run TypeScript as `npm start` does, through
 * tsx, registered by their JavaScript entry (./ts-worker.mjs says why `execArgv: ['--import', 'tsx']` is not enough);
 * so they run the same under `npm start` and under vitest.
 */
export function createWorkerPool<J, R>(options: WorkerPoolOptions): WorkerPool<J, R> {
  const { workerUrl, workerName, jobName } = options;
  const timeoutMs = (options.timeoutSeconds ?? 120) * 1000;
  const workerCount = options.workers ?? defaultWorkerCount();
  if (!Number.isInteger(workerCount) || workerCount < 1) throw new RangeError(`workers must be a positive integer, not ${workerCount}`);
  const maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
  const queue: Job<J, R>[] = [];
  const slots: Slot<J, R>[] = [];
  let nextId = 0;
  let closed = false;

  /** Settles the job `slot` runs and sends the next. */
  function finish(slot: Slot<J, R>, outcome: { result: R } | { error: Error }): void {
    const job = slot.running;
    if (job === undefined) return;
    clearTimeout(job.timer);
    slot.running = undefined;
    if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.error);
    pump();
  }

  function start(slot: Slot<J, R>): Worker {
    // execArgv empty: tsx is registered by the entry, and a second registration from the parent's flags is not wanted.
    const started = new Worker(TS_WORKER, { workerData: { module: workerUrl.href }, execArgv: [] });
    started.on('message', (message: ResultMessage<R>) => {
      if (slot.running?.worker !== started || slot.running.id !== message.id) return;
      finish(slot, message.ok ? { result: message.result } : { error: Object.assign(new Error(`${jobName} threw in ${workerName}`), { name: message.errorName }) });
    });
    // An exception the worker did not catch ends it: 'error', then 'exit'.
    started.on('error', (error) => {
      console.error(`trainplan: ${workerName} failed (${error.name}); it is restarted for the next job`);
      if (slot.worker === started) slot.worker = undefined; // it is ending: its next job starts a fresh one
      if (slot.running?.worker === started) finish(slot, { error });
    });
    started.on('exit', (code) => {
      if (slot.worker === started) slot.worker = undefined;
      if (slot.running?.worker === started) {
        console.error(`trainplan: ${workerName} exited (code ${code}) during ${jobName}; it is restarted for the next`);
        finish(slot, { error: new Error(`${workerName} exited with code ${code}`) });
      }
    });
    return started;
  }

  /** An idle worker already started, else an idle place whose worker ended (restarted), else a new place up to the cap. */
  function freeSlot(): Slot<J, R> | undefined {
    const idle = slots.find((slot) => slot.running === undefined && slot.worker !== undefined)
      ?? slots.find((slot) => slot.running === undefined);
    if (idle !== undefined || slots.length >= workerCount) return idle;
    const added: Slot<J, R> = {};
    slots.push(added);
    return added;
  }

  /** Starts queued jobs, oldest first, while a worker is free. */
  function pump(): void {
    while (!closed && queue.length > 0) {
      const slot = freeSlot();
      if (slot === undefined) return;
      const job = queue.shift()!;
      const worker = (slot.worker ??= start(slot));
      const id = (nextId += 1);
      const timer = setTimeout(() => {
        if (slot.running?.id !== id) return;
        if (slot.worker === worker) slot.worker = undefined; // its next job starts a fresh one
        console.error(`trainplan: ${jobName} ran past ${timeoutMs / 1000} s in ${workerName}; it is restarted`);
        finish(slot, { error: new Error(`${workerName} ran past its time`) });
        void worker.terminate();
      }, timeoutMs);
      slot.running = { ...job, id, worker, timer };
      const message: JobMessage<J> = { id, job: job.job };
      worker.postMessage(message);
    }
  }

  const waiting = (): number => queue.length;
  return {
    run: (job) => new Promise<R>((resolve, reject) => {
      if (closed) { reject(new PoolClosedError(`${workerName} is closed`)); return; }
      // Full only when every worker is busy and maxQueued already wait (a free worker takes the job at once).
      if (waiting() >= maxQueued && slots.length >= workerCount && slots.every((slot) => slot.running !== undefined)) {
        reject(new PoolBusyError(`${waiting()} jobs already wait for ${workerName}`));
        return;
      }
      queue.push({ job, resolve, reject });
      pump();
    }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new PoolClosedError(`${workerName} is closed`));
      for (const slot of slots) finish(slot, { error: new PoolClosedError(`${workerName} is closed`) });
      const ending = slots.map((slot) => {
        const last = slot.worker;
        slot.worker = undefined;
        return last?.terminate();
      });
      await Promise.all(ending);
    },
  };
}
