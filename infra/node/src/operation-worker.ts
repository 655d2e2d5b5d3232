import { parentPort } from 'node:worker_threads';
import { POST_OPERATIONS, type OperationResult, type PostOperation } from '@trainplan/api';
import { serveJobs } from './worker-jobs.ts';
import type { OperationJob } from './background-operations.ts';

// The operation worker (./background-operations.ts starts it): runs the API's slow requests (a search per cluster size,
// an emulation, an estimate that emulates) off the thread that serves requests, each by its path with the value the
// server validated.
if (parentPort === null) throw new Error('operation-worker.ts runs as a worker thread (new Worker), not on its own');
const byPath = new Map<string, PostOperation>(POST_OPERATIONS.map((op) => [op.path, op]));
serveJobs<OperationJob, OperationResult>(parentPort, ({ path, value }) => {
  const op = byPath.get(path);
  if (op === undefined) throw new RangeError(`no operation at ${path}`);
  return op.run(value);
});
