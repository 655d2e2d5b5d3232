import { parentPort } from 'node:worker_threads';
import { ask } from '@trainplan/ask';
import { answerQuestions } from '../../src/answer-questions.ts';

// The answer worker (../../src/ask-worker.ts) with faults on cue, for background-answerer.test.ts: a question with
// "[exit]" in it ends the worker as a crash would, "[throw]" makes ask throw, "[hang]" never returns.
if (parentPort === null) throw new Error('a worker module');
answerQuestions(parentPort, (question, options) => {
  if (question.includes('[exit]')) process.exit(3);
  if (question.includes('[throw]')) throw new RangeError('a bug in a search');
  if (question.includes('[hang]')) for (;;) { /* a search that never ends */ }
  return ask(question, options);
});
