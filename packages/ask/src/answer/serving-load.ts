import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatPercent, formatSeconds, formatWaitSeconds } from '@trainplan/units';
import type { AnswerFigure } from './answer-types.ts';
import { gpusOfNamed, namedStanding, rateVerb, replicasAtText, requestsPerSecondText, shapeText } from './serving-text.ts';

/**
 * A serving plan at a request rate, in words: the protocol's `load` of a point (runInference with
 * requestsPerSecond: the fewest replicas that serve the rate, each an M/D/b queue, their utilization, the
 * mean wait for a slot and the first token with it). The bot reckons none of it itself.
 */

export type ServingLoad = NonNullable<InferencePointJson['load']>;
/** A point the protocol gave a load (every point of a rated request, unless no replica count meets the first-token bound). */
export type LoadedPoint = InferencePointJson & { load: ServingLoad };

export const isLoaded = (x: InferencePointJson): x is LoadedPoint => x.load !== undefined;

/** A wait below a microsecond reads "under 1 µs" (@trainplan/units formatWaitSeconds). */
const waitText = formatWaitSeconds;

const rateText = (load: ServingLoad): string => requestsPerSecondText(load.requestsPerSecond);

/**
 * The headline's plan at a rate: "94 GPUs serve 1,000 requests/s as 47 replicas of TP 2 · PP 1 at 497
 * concurrent requests each, 98% loaded: 44.5 ms per token, first token in 538 ms with the wait for a slot".
 * The first token is the one a request sees under the load, its wait for a slot included (the figure the
 * first-token bound holds); the Time to first token figure splits it.
 */
export function loadHeadline(x: LoadedPoint, gpus: number | undefined): string {
  const { load } = x;
  return `${gpusOfNamed(load.gpus, gpus)} ${load.gpus === 1 ? 'serves' : 'serve'} ${rateText(load)} as ${replicasAtText(load.replicas, x, x.batch)}, `
    + `${formatPercent(load.utilization, 0)} loaded: ${formatSeconds(x.decodeStepSeconds)} per token, first token in ${formatSeconds(load.firstTokenSeconds)} with the wait for a slot`;
}

/** The time to first token under the load: "538 ms at 1,000 requests/s: 89.2 ms once a slot is free, plus 449 ms waiting for one on average". */
export const firstTokenText = (x: LoadedPoint): string =>
  `${formatSeconds(x.load.firstTokenSeconds)} at ${rateText(x.load)}: ${formatSeconds(x.prefillSeconds)} once a slot is free, plus ${waitText(x.load.queueSeconds)} waiting for one on average`;

/** The replicas a rate takes of a point: "1,000 requests/s take 47 replicas of it (94 GPUs)". */
export const takesText = (x: LoadedPoint): string =>
  `${rateText(x.load)} ${rateVerb(x.load.requestsPerSecond, 'take')} ${countOf(x.load.replicas, 'replica')} of it (${countOf(x.load.gpus, 'GPU')})`;

/**
 * "GPUs for 1,000 requests/s": "94 GPUs: 47 replicas of TP 2 · PP 1, 98% loaded, 449 ms on average waiting
 * for a slot", and whether the GPUs named hold them.
 */
export function loadFigure(x: InferencePointJson, gpus: number | undefined): AnswerFigure[] {
  if (!isLoaded(x)) return [];
  const { load } = x;
  return [{
    label: `GPUs for ${rateText(load)}`,
    value: `${countOf(load.gpus, 'GPU')}: ${countOf(load.replicas, 'replica')} of ${shapeText(x)}, ${formatPercent(load.utilization, 0)} loaded, `
      + `${waitText(load.queueSeconds)} on average waiting for a slot${namedStanding(load.gpus, gpus)}`,
  }];
}
