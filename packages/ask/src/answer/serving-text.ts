import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatGrouped, formatSeconds } from '@trainplan/units';

/** The words a serving answer builds its sentences from (serving-answer.ts, serving-load.ts). */

/** "TP 2 · PP 1": a replica's shape. */
export const shapeText = (x: { tensor: number; pipeline: number }): string => `TP ${x.tensor} · PP ${x.pipeline}`;

/** A rate to three figures, grouped from a thousand up: "3,530", "337", "0.0240". */
export const perSecond = (x: number): string => formatGrouped(x);

/** A request rate: "1 request/s", "0.500 requests/s", "1,000 requests/s" (one request is singular, as written). */
export const requestsPerSecondText = (x: number): string => {
  const n = perSecond(x);
  return `${n} ${n === '1' ? 'request' : 'requests'}/s`;
};

/** The verb a rate takes as its subject: "1 request/s takes", "2 requests/s take". */
export const rateVerb = (x: number, verb: string): string => (perSecond(x) === '1' ? `${verb}s` : verb);

/** "47.9 ms per token, first token in 230 ms": what a request sees on a replica at its batch, with no wait for a slot. */
export const latencyText = (x: Pick<InferencePointJson, 'decodeStepSeconds' | 'prefillSeconds'>): string =>
  `${formatSeconds(x.decodeStepSeconds)} per token, first token in ${formatSeconds(x.prefillSeconds)}`;

/** "the 1 GPU named", "the 8 GPUs named": GPUs a question gave, counted and grouped. */
export const namedGpus = (gpus: number): string => `the ${countOf(gpus, 'GPU')} named`;

/**
 * The GPUs a plan of several replicas takes (a rate's, serving-load.ts; a number of concurrent requests', serving-users.ts):
 * "94 GPUs", or of the GPUs named "2 of the 8 GPUs", "8 GPUs" when it takes them all.
 */
export const gpusOfNamed = (used: number, named: number | undefined): string =>
  (named === undefined || named === used ? countOf(used, 'GPU') : `${used.toLocaleString('en-US')} of the ${countOf(named, 'GPU')}`);

/** " (the 8 GPUs named are enough)", " (more than the 8 GPUs named)": a plan's GPUs against those named; "" with none named. */
export const namedStanding = (used: number, named: number | undefined): string =>
  (named === undefined ? '' : used <= named ? ` (${namedGpus(named)} ${named === 1 ? 'is' : 'are'} enough)` : ` (more than ${namedGpus(named)})`);

/**
 * "47 replicas of TP 2 · PP 1 at 497 concurrent requests each": a plan's replicas and the requests each holds; `upTo` where
 * they hold unequal shares ("at up to 72 concurrent requests each": 500 over 7 replicas), the batch being the fullest's.
 */
export const replicasAtText = (replicas: number, x: { tensor: number; pipeline: number }, batch: number, upTo = false): string =>
  `${countOf(replicas, 'replica')} of ${shapeText(x)} at ${upTo ? 'up to ' : ''}${countOf(batch, 'concurrent request')}${replicas > 1 ? ' each' : ''}`;

/**
 * Requests one replica finishes per second at its batch: its generated tokens per second over the tokens of
 * one request (b slots each held O iterations, b/(O × the iteration), as the protocol's load reckons it).
 */
export const replicaRequestsPerSecond = (x: InferencePointJson, outputTokens: number): number => (x.tokensPerSecondPerGpu * x.gpus) / outputTokens;
