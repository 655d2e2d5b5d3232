// A worker thread's entry that runs the TypeScript module `workerData.module` (a file URL) through tsx, as `npm start`
// runs the server. JavaScript, since Node loads a worker's entry before any loader could read TypeScript: Node 20 does
// not apply `--import tsx` given in a Worker's execArgv (https://github.com/nodejs/node/issues/47747,
// https://github.com/privatenumber/tsx/issues/354), so tsx is registered here instead, on every Node version alike;
// and vitest's own transform does not reach a worker thread either.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
