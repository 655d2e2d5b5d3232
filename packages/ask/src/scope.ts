import type { AskParameters } from './question.ts';

/**
 * Questions the training planner cannot answer, found by their wording and declined with a pointer,
 * never answered as a pretraining question: serving, fine-tuning, hyperparameters.
 */
export interface OutOfScope {
  /** Why, as a problem sentence ("I could not answer that: …"). */
  problem: string;
  /** Where to ask instead, when somewhere can (a note under the headline). */
  pointer?: string;
}

/** The CLI's own example (apps/cli/src/commands/inference.ts, `trainplan inference --help`). */
export const INFERENCE_EXAMPLE = 'trainplan inference --model llama3-70b --gpu h100-sxm --prompt 2048 --output 512 --max-token-ms 50';

// "latency" and "per user" are serving words unless a collective is named ("all-reduce latency").
const SERVING = /\b(?:serv(?:e|es|ed|ing)|inference|qps|queries per second|requests? per second|latenc(?:y|ies)|ttft|time to first token|kv[\s-]*cache|prefill|decod(?:e|ing))\b|\bms\s*(?:\/|per)\s*tok(?:en)?s?\b|\btok(?:en)?s?\s*(?:\/|per)\s*s(?:ec(?:ond)?)?\s*(?:\/|per)\s*user\b|\bper user\b/;
const FINE_TUNING = /\b(?:fine[\s-]*tun\w*|finetun\w*|q?lora|sft|peft|rlhf|dpo|instruction[\s-]*tun\w*)\b/;
const LEARNING_RATE = /\b(?:learning[\s-]*rates?|lr)\b/;
// Read on the text left once stated facts are taken, so "batch size 1024" (a stated batch) is no question.
const BATCH_SIZE = /\b(?:optimal|best|ideal|right|recommended|good|critical|what|which)\s+(?:global\s+)?batch(?:[\s-]*sizes?)?\b/;

/** Why the question is one the planner does not answer; undefined when it is a planning question. */
export function outOfScope(normal: string, remaining: string, stated: AskParameters): OutOfScope | undefined {
  if (stated.op === undefined && SERVING.test(normal)) {
    return {
      problem: 'serving and inference (latency, QPS, tokens/s per user) are not planned here, only training runs',
      pointer: `For serving, the CLI plans it (latency, KV cache, tokens/s per GPU), e.g. ${INFERENCE_EXAMPLE}`,
    };
  }
  if (FINE_TUNING.test(normal)) return { problem: 'fine-tuning (LoRA, SFT) is not modelled, only pretraining runs' };
  if (LEARNING_RATE.test(normal)) return { problem: 'hyperparameters such as the learning rate are not planned here' };
  if (BATCH_SIZE.test(remaining)) {
    return { problem: 'the optimal batch size is not planned here (answers take a global batch of about 4M tokens unless the question gives one)' };
  }
  return undefined;
}
