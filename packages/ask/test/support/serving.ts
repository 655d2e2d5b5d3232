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
