import { runInference } from './inference.ts';
import type { InferenceResponseJson } from './inference-json.ts';

/** An inference answer that was planned (the request was valid), with or without a plan. */
export type Served = Extract<InferenceResponseJson, { ok: true }>;

/** The numeric field of a request as given (an `--input` request may carry anything). */
export function field(request: Record<string, unknown>, key: string): number | undefined {
  const x = request[key];
  return typeof x === 'number' ? x : undefined;
}

/**
 * The same request changed (`set` merged over it, `drop` fields removed) and answered again; undefined
 * when the change is refused (FP8 on a GPU without FP8 tensor cores) or fails.
 */
export type Retry = (change: { readonly set?: Record<string, unknown>; readonly drop?: readonly string[] }) => Served | undefined;

/**
 * A Retry that asks runInference again with `request` changed: the remedies check each thing they name so
 * (the CLI's stderr, and any surface that says what to change), and the fewest GPUs are searched so (fewest-gpus.ts).
 */
export const retryInference = (request: Record<string, unknown>): Retry => ({ set = {}, drop = [] }) => {
  const again = runInference(Object.fromEntries(Object.entries({ ...request, ...set }).filter(([key]) => !drop.includes(key))));
  return again.ok ? again : undefined;
};
