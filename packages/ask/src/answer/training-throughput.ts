import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { servingQuestionOf } from './training-memory.ts';

/**
 * A throughput or speed question that says neither training nor serving ("throughput of llama3-8b on 1 h100") is planned
 * as training, the planner's own question; the answer says so, and how to ask for serving's tokens/s with the question's
 * own model and cluster, as a memory question's does (training-memory.ts). A question saying "serve" is a serving question
 * already (classify.ts); one saying "train", or asking a training figure (step time, MFU), needs no such word.
 */

/** Words of a question asking a rate or a speed. */
const ASKS_THROUGHPUT = /\b(?:throughput|tokens?\s*(?:\/|per|a)\s*s(?:ec(?:ond)?)?|toks?\s*\/\s*s|speed|how fast|performance|perf)\b/;
/** Words of a question that says it is about training, or asks a figure only training has. */
const SAYS_TRAINING = /\b(?:train\w*|pre[\s-]*train\w*|step[\s-]*times?|iterations?|mfu|hfu|global batch|time to train)\b/;

/** The answer with its reading said first among the assumptions when the question asks throughput and says neither which. */
export function asTrainingThroughput(q: ParsedQuestion, a: Answer): Answer {
  const text = q.text.toLowerCase();
  if (!ASKS_THROUGHPUT.test(text) || SAYS_TRAINING.test(text)) return a;
  const said = `throughput for training (tokens trained a second, forward and backward passes); for serving, tokens generated a second within latency bounds, ask "${servingQuestionOf(q)}"`;
  return { ...a, assumptions: [said, ...a.assumptions] };
}
