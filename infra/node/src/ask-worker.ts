import { parentPort } from 'node:worker_threads';
import { ask } from '@trainplan/ask';
import { answerQuestions } from './answer-questions.ts';

// The answer worker (./background-answerer.ts starts it): answers the chat bot's deferred questions off the thread
// that serves requests, so a search of seconds does not hold the acknowledgements of the questions that arrive meanwhile.
if (parentPort === null) throw new Error('ask-worker.ts runs as a worker thread (new Worker), not on its own');
answerQuestions(parentPort, ask);
