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
 * "Fine-tune", "finetuning", "SFT" with no method named: supervised fine-tuning of every weight, as SFT is run by default
 * (Ouyang et al. 2022, InstructGPT §3.5: the SFT model is the pretrained GPT-3 trained further on all its weights; Hugging
 * Face TRL's SFTTrainer trains them all unless a PEFT config is given). QA: "how much memory to fine tune llama3 8b" was
 * declined where "full finetune" was answered. Not RLHF or DPO, which hold a reward or a reference model besides.
 */
const PLAIN_FINE_TUNING = /\b(?:fine[\s-]*tun\w*|finetun\w*|sft)\b/;
const OTHER_TUNING = /\b(?:rlhf|dpo|instruction[\s-]*tun\w*)\b/;

/** Whether a fine-tuning question names no method ("fine tune", "SFT"), read as full fine-tuning, which the answer says. */
export const plainFineTuning = (normal: string): boolean => !FULL_FINE_TUNING.test(normal) && PLAIN_FINE_TUNING.test(normal);

/**
 * A memory question of full fine-tuning ("how much vram to full finetune a 7b with adam", "memory to fine tune llama3 8b",
 * no method named: PLAIN_FINE_TUNING): its memory per GPU is
 * pretraining's for the same model, batch, sequence length and parallelism (the weights, their gradients, Adam's two
 * moments and FP32 master copy, and the activations: Rajbhandari et al. 2020, ZeRO §3.1: 16 bytes a parameter besides the
 * activations; what changes is the data and the run's length, which a memory question does not ask). Answered as
 * pretraining's memory, said so (answer/training-memory.ts); LoRA and the rest stay declined.
 */
export const asksFullFineTuningMemory = (normal: string, intent: IntentName): boolean =>
  intent === 'memory' && (FULL_FINE_TUNING.test(normal) || PLAIN_FINE_TUNING.test(normal)) && !ADAPTERS.test(normal) && !OTHER_TUNING.test(normal);

/**
 * Why a fine-tuning question is declined: adapters (LoRA, QLoRA), preference tuning and a fine-tuning run's time are not
 * modelled; the memory of a full fine-tune (SFT of every weight) is, as pretraining's (asksFullFineTuningMemory), and the
 * message says so, so that a declined question is pointed at the one that is answered (QA: it said "SFT is not modelled"
 * beside an answered SFT memory question).
 */
export const FINE_TUNING_DECLINED = 'fine-tuning runs (LoRA, QLoRA, DPO, a run\'s time) are not modelled, only pretraining; '
  + 'the memory of a full fine-tune is, as pretraining\'s: ask "how much memory to full fine-tune llama3-8b on 8 h100"';

/** Why the question is one the planner does not answer; undefined when it is a planning question. */
export function outOfScope(normal: string, remaining: string, intent: IntentName): OutOfScope | undefined {
  if (FINE_TUNING.test(normal) && !asksFullFineTuningMemory(normal, intent)) return { problem: FINE_TUNING_DECLINED };
  if (LEARNING_RATE.test(normal)) return { problem: 'hyperparameters such as the learning rate are not planned here' };
  // A serving answer is the best batch under the latency bounds: the question it asks.
  if (intent !== 'serving' && BATCH_SIZE.test(remaining)) {
    return { problem: 'the optimal batch size is not planned here (answers take a global batch of about 4M tokens unless the question gives one)' };
  }
  return undefined;
}
