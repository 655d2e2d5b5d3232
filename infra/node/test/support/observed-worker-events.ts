/**
 * The channel on which ./observed-ask-worker.ts tells background-answerer-pool.test.ts what it does (a
 * BroadcastChannel reaches every thread of the process: the test's and each worker's).
 */
export const OBSERVED_WORKER_CHANNEL = 'trainplan-observed-ask-worker';

/** A question started or ended, on which thread; a held question carries the gate that releases it (store 1, notify). */
export type WorkerEvent =
  | { phase: 'start'; question: string; threadId: number; gate?: Int32Array }
  | { phase: 'end'; question: string; threadId: number };
