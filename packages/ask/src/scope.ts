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

/**
 * "Full fine-tune", "full fine-tuning", "full-parameter finetuning", "fully fine-tune": every weight trained, as in pretraining.
 * Not with an adapter method named (LoRA, QLoRA, PEFT, adapters), which trains few weights and holds others frozen or quantised.
 */
const FULL_FINE_TUNING = /\bfull(?:y|[\s-]*(?:param(?:eter)?s?|weights?))?[\s-]+fine[\s-]*tun\w*|\bfull[\s-]*finetun\w*/;
const ADAPTERS = /\b(?:q?lora|peft|adapters?|prefix[\s-]*tuning|prompt[\s-]*tuning)\b/;

/**
 * A memory question of full fine-tuning ("how much vram to full finetune a 7b with adam"): its memory per GPU is
 * pretraining's for the same model, batch, sequence length and parallelism (the weights, their gradients, Adam's two
 * moments and FP32 master copy, and the activations: Rajbhandari et al. 2020, ZeRO §3.1: 16 bytes a parameter besides the
 * activations; what changes is the data and the run's length, which a memory question does not ask). Answered as
 * pretraining's memory, said so (answer/training-memory.ts); LoRA and the rest stay declined.
 */
export const asksFullFineTuningMemory = (normal: string, intent: IntentName): boolean =>
  intent === 'memory' && FULL_FINE_TUNING.test(normal) && !ADAPTERS.test(normal);

/** Why the question is one the planner does not answer; undefined when it is a planning question. */
export function outOfScope(normal: string, remaining: string, intent: IntentName): OutOfScope | undefined {
  if (FINE_TUNING.test(normal) && !asksFullFineTuningMemory(normal, intent)) return { problem: 'fine-tuning (LoRA, SFT) is not modelled, only pretraining runs' };
  if (LEARNING_RATE.test(normal)) return { problem: 'hyperparameters such as the learning rate are not planned here' };
  // A serving answer is the best batch under the latency bounds: the question it asks.
  if (intent !== 'serving' && BATCH_SIZE.test(remaining)) {
    return { problem: 'the optimal batch size is not planned here (answers take a global batch of about 4M tokens unless the question gives one)' };
  }
  return undefined;
}
