import type { InferenceResponseJson } from '@trainplan/protocol';
import { ask } from '../../src/answer/answer.ts';

export type Served = Extract<InferenceResponseJson, { ok: true }>;

/** The bot's answer to a serving question and the protocol's answer under it, or a failed test when nothing serves. */
export function served(question: string): { a: ReturnType<typeof ask>; data: Served } {
  const a = ask(question);
  const data = a.data as InferenceResponseJson;
  if (!data.ok) throw new Error(`not served: ${data.message}`);
  return { a, data };
}

/** An answer's figure by its label ('' when it has none). */
export const figure = (a: ReturnType<typeof ask>, label: string): string => a.figures.find((f) => f.label === label)?.value ?? '';

/**
 * The request the bot sends for Llama 3 70B on `gpus` A100 80GB with the defaults it says it assumed (2,048 + 512 tokens,
 * 200 ms per token and 2 s to the first, BF16, continuous batching): to run the planner apart from the bot.
 */
export const llama3_70bOnA100 = (gpus: number) => ({
  model: 'llama3-70b', cluster: { gpu: 'a100-80gb' }, promptTokens: 2048, outputTokens: 512,
  maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2, gpus, batching: 'continuous',
} as const);
