import { countOf as countText } from '@trainplan/units';
import { ceilFigures } from './ceil-figures.ts';
import { slot, type Slots } from './inference-remedy-terms.ts';
import type { InferencePointJson } from './inference-json.ts';
import { field } from './inference-retry.ts';
import { gpusOf, OTHER_COUNTS, type Holding } from './fewest-gpus.ts';
import { firstTokenBoundIsDefault as boundIsDefault, rateFirstTokenBound } from './inference-messages.ts';

/** The words the inference remedies share: bounds rounded up, fields named as slots, counts, shapes and replicas. */


// The fields a remedy names, as slots its surface writes (inference-remedy-terms.ts).
export const gpusField = (s: Slots, gpus: number): string => slot(s, { field: 'gpus', value: gpus });
export const firstTokenBound = (s: Slots, seconds: number): string => slot(s, { field: 'maxPrefillSeconds', value: seconds });
export const name = (s: Slots, field: string, value?: string): string => slot(s, { field, ...(value !== undefined && { value }) });

/** The request's rate and first-token bound, where numbers. */
const boundFields = (request: Record<string, unknown>) =>
  ({ maxPrefillSeconds: field(request, 'maxPrefillSeconds'), requestsPerSecond: field(request, 'requestsPerSecond') });

/**
 * The first-token bound the plan held the request to: its own, or with a rate and none given, the default (rateFirstTokenBound,
 * 2 s), which a remedy loosens as it would one given (QA: 1M-token prompts at a rate, whose closest plan's first token takes
 * 5.80 min against the default 2 s, were told only "try FP8 weights or a faster GPU").
 */
export const appliedFirstTokenBound = (request: Record<string, unknown>): number | undefined => rateFirstTokenBound(boundFields(request));

/** The request gives a rate but no first-token bound: the plan held it to the default one (appliedFirstTokenBound). */
export const firstTokenBoundIsDefault = (request: Record<string, unknown>): boolean => boundIsDefault(boundFields(request));

/**
 * The bounds (and, with a rate, the GPUs) loosened to what `closest` needs, by field: its time per token and to the first
 * token rounded up to three figures in seconds (ceilFigures; a flag in ms shows the same figures), and the GPUs its load takes,
 * each where it misses the request's (the first-token bound: the one applied, appliedFirstTokenBound).
 */
export function loosenedFields(closest: InferencePointJson, request: Record<string, unknown>): Record<string, number> {
  const maxToken = field(request, 'maxDecodeSecondsPerToken');
  const maxFirst = appliedFirstTokenBound(request);
  const gpus = field(request, 'gpus');
  return {
    ...(maxToken !== undefined && closest.decodeStepSeconds > maxToken && { maxDecodeSecondsPerToken: ceilFigures(closest.decodeStepSeconds) }),
    ...(maxFirst !== undefined && closest.prefillSeconds > maxFirst && { maxPrefillSeconds: ceilFigures(closest.prefillSeconds) }),
    ...(gpus !== undefined && closest.load !== undefined && closest.load.gpus > gpus && { gpus: closest.load.gpus }),
  };
}

/** Loosened fields (loosenedFields) as slots in a remedy's words. */
export const fieldSlots = (fields: Record<string, number>, t: Slots): string[] =>
  Object.entries(fields).map(([f, value]) => slot(t, { field: f, value }));

/** loosenedFields as slots in a remedy's words. */
export const loosened = (closest: InferencePointJson, request: Record<string, unknown>, t: Slots): string[] =>
  fieldSlots(loosenedFields(closest, request), t);

export const joinOr = (items: readonly string[]): string =>
  (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`);

export const shapeText = (s: Holding): string => `TP ${s.tensor} · PP ${s.pipeline} (${countText(gpusOf(s), 'GPU')})`;
export const grouped = (n: number): string => n.toLocaleString('en-US');

/** Counts written as a reader scans them: "6 and 7", "6, 7 and 9", or "6 to 95" for more than four. */
export function countsText(ns: readonly number[]): string {
  if (ns.length > OTHER_COUNTS) return `${grouped(ns[0]!)} to ${grouped(ns.at(-1)!)}`;
  return ns.length <= 1 ? ns.map(grouped).join('') : `${ns.slice(0, -1).map(grouped).join(', ')} and ${grouped(ns.at(-1)!)}`;
}

/** "a replica of TP 8 · PP 1 (8 GPUs)" or, on more GPUs than one replica, "6 replicas of TP 8 · PP 2 (96 GPUs)". */
export function replicasText(p: InferencePointJson): string {
  const replicas = p.replicas ?? 1;
  const shape = `TP ${p.tensor} · PP ${p.pipeline}`;
  return replicas > 1 ? `${grouped(replicas)} replicas of ${shape} (${countText(replicas * p.gpus, 'GPU')})` : `a replica of ${shape} (${countText(p.gpus, 'GPU')})`;
}

/** "a replica of TP 2 · PP 1 (2 GPUs) holds it", or "3 replicas of … hold it": the verb agreeing with the replicas. */
export const replicasDo = (p: InferencePointJson, one: string, many: string): string => `${replicasText(p)} ${(p.replicas ?? 1) > 1 ? many : one}`;
