import type { MessagePort } from 'node:worker_threads';

/**
 * The messages between the server and a worker of its pool (./worker-pool.ts), carried by structured clone: jobs and
 * results are plain data (strings, numbers, arrays, plain objects).
 */
export interface JobMessage<J> {
  id: number;
  job: J;
}
/** The result of job `id`, or the name of what the handler threw (its message stays in the worker: it may echo input). */
export type ResultMessage<R> = { id: number; ok: true; result: R } | { id: number; ok: false; errorName: string };

/** The worker's side: runs each job posted to `port` with `handle`, one at a time, as they come. */
export function serveJobs<J, R>(port: MessagePort, handle: (job: J) => R): void {
  port.on('message', ({ id, job }: JobMessage<J>) => {
    let reply: ResultMessage<R>;
    try {
      reply = { id, ok: true, result: handle(job) };
    } catch (error) {
      reply = { id, ok: false, errorName: error instanceof Error ? error.name : 'unknown error' };
    }
    port.postMessage(reply);
  });
}
