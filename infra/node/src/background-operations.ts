import type { OperationResult, RunInBackground } from '@trainplan/api';
import { createWorkerPool, PoolBusyError, PoolClosedError } from './worker-pool.ts';

/** One slow operation's run, as the operation worker receives it: the route's path and the value the server validated. */
export interface OperationJob {
  path: string;
  value: unknown;
}

export interface BackgroundOperations {
  /**
   * ApiOptions.runInBackground: `busy` when `maxQueued` wait already, or when the server is stopping (the pool closed under
   * the request: a 503, not an error of ours to report); rejects (a 500) when the worker dies or overruns.
   */
  run: RunInBackground;
  close(): Promise<void>;
}

export interface BackgroundOperationsOptions {
  /** The worker's module (default ./operation-worker.ts). */
  workerUrl?: URL;
  /** How many operations may run at once, each on its own worker thread (default: defaultWorkerCount()). */
  workers?: number;
  /** How many may wait for a worker before the API answers 503 (default DEFAULT_MAX_QUEUED). */
  maxQueued?: number;
  /** How long one may run before its worker is ended, in seconds (default 60). */
  timeoutSeconds?: number;
}

/**
 * The most slow requests that wait for a worker. The slowest capped request (a deadline over many cluster sizes, each
 * search at the API's candidate budget) takes seconds; 32 waiting on one worker is minutes of queue, past which a
 * client is better told to come back (503 with Retry-After) than held until its own timeout.
 */
export const DEFAULT_MAX_QUEUED = 32;

/** Seconds a 503 asks a client to wait: about what a queued search takes to start. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The API's slow requests (PostOperation.slow: searches, emulations, an estimate that emulates) on a pool of worker
 * threads (./worker-pool.ts), so that a request of seconds does not hold the thread that answers every other request:
 * health checks, closed-form estimates, and the chat bot's acknowledgements, which Slack and Discord give up on after 3 s.
 */
export function createBackgroundOperations(options: BackgroundOperationsOptions = {}): BackgroundOperations {
  const pool = createWorkerPool<OperationJob, OperationResult>({
    workerUrl: options.workerUrl ?? new URL('./operation-worker.ts', import.meta.url),
    workerName: 'the operation worker', jobName: 'a request',
    timeoutSeconds: options.timeoutSeconds ?? 60,
    maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
    ...(options.workers !== undefined && { workers: options.workers }),
  });
  return {
    async run(path, value) {
      try {
        return await pool.run({ path, value });
      } catch (error) {
        if (error instanceof PoolBusyError) return { busy: { retryAfterSeconds: RETRY_AFTER_SECONDS } };
        if (error instanceof PoolClosedError) return { busy: { retryAfterSeconds: RETRY_AFTER_SECONDS, stopping: true } };
        throw error;
      }
    },
    close: () => pool.close(),
  };
}
