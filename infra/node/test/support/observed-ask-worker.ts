import { BroadcastChannel, parentPort, threadId } from 'node:worker_threads';
import { ask } from '@trainplan/ask';
import { answerQuestions } from '../../src/answer-questions.ts';
import { OBSERVED_WORKER_CHANNEL, type WorkerEvent } from './observed-worker-events.ts';

// The answer worker (../../src/ask-worker.ts), observed, for background-answerer-pool.test.ts: it reports each question
// as it starts and ends, so a test sees which questions ran at once, on which worker, without timing anything. A question
// with "[hold]" in it waits until the test releases it (stores 1 in its gate), "[exit]" ends the worker as a crash would,
// "[hang]" never returns.
if (parentPort === null) throw new Error('a worker module');
const channel = new BroadcastChannel(OBSERVED_WORKER_CHANNEL);
const report = (event: WorkerEvent) => channel.postMessage(event);
answerQuestions(parentPort, (question, options) => {
  const gate = question.includes('[hold]') ? new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) : undefined;
  report({ phase: 'start', question, threadId, ...(gate === undefined ? {} : { gate }) });
  // Short waits in a loop, not one endless wait: the worker stays as easy to terminate as the "[hang]" loop.
  if (gate !== undefined) while (Atomics.load(gate, 0) === 0) Atomics.wait(gate, 0, 0, 50);
  if (question.includes('[exit]')) process.exit(3);
  if (question.includes('[hang]')) for (;;) { /* a search that never ends */ }
  const answer = ask(question, options);
  report({ phase: 'end', question, threadId });
  return answer;
});
