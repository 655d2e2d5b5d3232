import type { IntentName } from './question.ts';

/**
 * Questions the planner cannot answer, found by their wording and declined with a pointer, never
 * answered as a pretraining question: fine-tuning, hyperparameters. (Serving is planned: serving-answer.ts.)
 */
export interface OutOfScope {
  /** Why, as a problem sentence ("I could not answer that: …"). */
  problem: string;
  /** Where to ask instead, when somewhere can (a note under the headline). */
  pointer?: string;
}

export const FINE_TUNING = /\b(?:fine[\s-]*tun\w*|finetun\w*|q?lora|sft|peft|rlhf|dpo|instruction[\s-]*tun\w*)\b/;
const LEARNING_RATE = /\b(?:learning[\s-]*rates?|lr)\b/;
// Read on the text left once stated facts are taken, so "batch size 1024" (a stated batch) is no question.
const BATCH_SIZE = /\b(?:optimal|best|ideal|right|recommended|good|critical|what|which)\s+(?:global\s+)?batch(?:[\s-]*sizes?)?\b/;

/** Why the question is one the planner does not answer; undefined when it is a planning question. */
export function outOfScope(normal: string, remaining: string, intent: IntentName): OutOfScope | undefined {
  if (FINE_TUNING.test(normal)) return { problem: 'fine-tuning (LoRA, SFT) is not modelled, only pretraining runs' };
  if (LEARNING_RATE.test(normal)) return { problem: 'hyperparameters such as the learning rate are not planned here' };
  // A serving answer is the best batch under the latency bounds: the question it asks.
  if (intent !== 'serving' && BATCH_SIZE.test(remaining)) {
    return { problem: 'the optimal batch size is not planned here (answers take a global batch of about 4M tokens unless the question gives one)' };
  }
  return undefined;
}
