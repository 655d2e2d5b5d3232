import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatShare } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { isLoaded, loadHeadline } from './serving-load.ts';
import { precisionConfiguration } from './serving-precision.ts';
import type { Served } from './serving-request.ts';
import { latencyText, perSecond, requestsPerSecondText, shapeText } from './serving-text.ts';

/** The sentences a serving answer says its plan in (serving-answer.ts): its headline, bounds, configuration and notes. */

/** Words of a question that asks whether the model fits ("can I fit 70B on one node", "enough memory"). */
export const ASKS_FIT = /\b(?:fits?|memory|vram|hbm|oom)\b/i;

/** "2,048 prompt tokens (the first 1,024 shared and cached) + 512 output tokens": the lengths of the configuration, grouped as its batch is. */
export const lengthsText = (p: AskParameters): string => `${countOf(p.promptTokens ?? 0, 'prompt token')}`
  + `${p.sharedPrefixTokens === undefined ? '' : ` (the first ${p.sharedPrefixTokens.toLocaleString('en-US')} shared and cached)`} + ${countOf(p.outputTokens ?? 0, 'output token')}`;

/** The share of memory a server was held to, where the question stated one (requestOf's gpuMemoryUtilization). */
export const memoryShareNote = (p: AskParameters): string[] => (p.memoryFraction === undefined ? []
  : [`Each GPU's memory filled to at most ${formatShare(p.memoryFraction)}, as asked (vLLM's gpu_memory_utilization; without it the plans may fill all of it).`]);

/** The lowest-latency point (the frontier's first): what one request alone sees. */
export function fastestNote(a: Served): string[] {
  const first = a.frontier[0];
  if (first === undefined) return [];
  return [`Fastest per token: ${shapeText(first)} with ${countOf(first.batch, 'request')} at a time, ${latencyText(first)}.`];
}

/**
 * The plan in the headline. Without a rate: "TP 2 · PP 1 (4 replicas) serves 5,582 tokens/s per GPU at 497
 * concurrent requests, 44.5 ms per token, first token in 89.2 ms". With one: the protocol's load (loadHeadline).
 */
export function planHeadline(best: InferencePointJson, gpus: number | undefined): string {
  if (isLoaded(best)) return loadHeadline(best, gpus);
  const replicas = gpus === undefined || gpus === best.gpus ? '' : ` (${countOf(gpus / best.gpus, 'replica')})`;
  return `${shapeText(best)}${replicas} serves ${perSecond(best.tokensPerSecondPerGpu)} tokens/s per GPU at ${countOf(best.batch, 'concurrent request')}, `
    + latencyText(best);
}

/**
 * The bounds the plan was held to, or with none what it was chosen for: the most throughput, or the fewest GPUs (at a
 * rate, or for a number of concurrent requests in all: `fewestGpus`).
 */
export const boundsNote = (bounds: string | undefined, fewestGpus: boolean): string =>
  (bounds !== undefined ? ` (${bounds})` : fewestGpus ? ' (no latency bound: the fewest GPUs)' : ' (no latency bound: the most throughput)');

/** What no plan met: "no plan meets ≤ 100 ms to the first token", or at a rate "no plan serves 1,000 requests/s on the 8 GPUs within …". */
export function missedText(bounds: string | undefined, p: AskParameters, gpus: number | undefined): string {
  if (p.requestsPerSecond === undefined) return `no plan meets ${bounds ?? 'the latency bounds'}`;
  return `no plan serves ${requestsPerSecondText(p.requestsPerSecond)}${gpus === undefined ? '' : ` on the ${countOf(gpus, 'GPU')}`}${bounds === undefined ? '' : ` within ${bounds}`}`;
}

/**
 * The closest plan's configuration, said as missing the bounds; at a rate one that meets them on more GPUs
 * than named is said as that ("on more GPUs than named: TP 2 · PP 1 · batch 497, 47 replicas on 94 GPUs"). Its
 * precision and lengths follow, as a plan's configuration has them (QA: a 128k context asked went unread, and the
 * closest plan's line, unlike the others, never said the 2,048-token prompt it was planned for).
 */
export function closestConfiguration(x: InferencePointJson, p: AskParameters): string {
  const shape = `${shapeText(x)} · batch ${x.batch.toLocaleString('en-US')}`;
  const meetsBounds = (p.maxTokenSeconds === undefined || x.decodeStepSeconds <= p.maxTokenSeconds)
    && (p.maxFirstTokenSeconds === undefined || (x.load?.firstTokenSeconds ?? x.prefillSeconds) <= p.maxFirstTokenSeconds);
  const planned = ` · ${precisionConfiguration(p)} · ${lengthsText(p)}`;
  return isLoaded(x) && meetsBounds
    ? `closest, on more GPUs than named: ${shape}, ${countOf(x.load.replicas, 'replica')} on ${countOf(x.load.gpus, 'GPU')}${planned}`
    : `closest to the bounds, missing them: ${shape}${planned}`;
}

/**
 * The protocol's warnings a person is told: all but the one saying that no latency bound was given (a throughput
 * plan's late first token), when the question asked for throughput alone ("offline"): it knows.
 */
export function askedWarnings(warnings: readonly string[] | undefined, p: AskParameters): string[] {
  return (warnings ?? []).filter((w) => !(p.offline === true && w.startsWith('with no latency bound')));
}
