import type { InferencePointJson } from '@trainplan/protocol';
import { countOf, formatDuration, formatSeconds } from '@trainplan/units';
import { compactCount } from '../format.ts';
import type { AskParameters } from '../question.ts';
import type { AnswerFigure } from './answer-types.ts';
import { costFigure } from './serving-cost.ts';
import { gpuHoursFigure } from './serving-gpu-hours.ts';
import { firstTokenText, isLoaded, loadFigure } from './serving-load.ts';
import { memoryText } from './serving-memory.ts';
import { speculationFigure, speculativeOf } from './serving-speculation.ts';
import { perSecond, replicaRequestsPerSecond, requestsPerSecondText, shapeText } from './serving-text.ts';
import { concurrentValue } from './serving-users.ts';
import type { SpreadPlan } from './spread-users.ts';

/**
 * The figures of one serving point, labelled "(closest)" when it answers another question. With a rate the
 * replicas are the load's (loadFigure), not as many as the GPUs named hold, and the first token waits for a slot.
 * With concurrent requests spread over replicas (`spread`), the point is the fullest replica's, its total said apart.
 */
export function pointFigures(x: InferencePointJson, p: AskParameters, gpus: number | undefined, text = '', spanSeconds?: number, spread?: SpreadPlan): AnswerFigure[] {
  const outputTokens = p.outputTokens ?? 1;
  const spec = speculativeOf(p);
  const replicas = gpus === undefined || gpus === x.gpus || isLoaded(x) ? '' : ` · ${countOf(Math.floor(gpus / x.gpus), 'replica')} on the ${countOf(gpus, 'GPU')}`;
  return [
    { label: 'Replica', value: `${shapeText(x)}: ${countOf(x.gpus, 'GPU')}${replicas}` },
    { label: 'Concurrent requests', value: concurrentValue(x, spread) },
    { label: 'Time to first token', value: isLoaded(x) ? firstTokenText(x) : formatSeconds(x.prefillSeconds) },
    { label: 'Time per output token', value: `${formatSeconds(x.decodeStepSeconds)} (${perSecond(1 / x.decodeStepSeconds)} tokens/s per user)` },
    { label: 'Throughput', value: `${perSecond(x.tokensPerSecondPerGpu)} tokens/s per GPU · ${requestsPerSecondText(replicaRequestsPerSecond(x, outputTokens))} per replica` },
    ...(spec === undefined ? [] : speculationFigure(x, spec)),
    { label: 'Memory per GPU', value: memoryText(x) },
    ...costFigure(x, p, text, spanSeconds),
    ...gpuHoursFigure(x, p, gpus, text, spanSeconds),
  ];
}

/**
 * "Generate 1T tokens of synthetic data with llama3-70b on 64 H100": the tokens over the plan's generated tokens a
 * second on the GPUs named (every replica they hold at its batch), or on one replica when none are named.
 */
export function generationFigure(x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] {
  if (p.tokens === undefined) return [];
  const onGpus = isLoaded(x) ? x.load.gpus : gpus === undefined ? x.gpus : Math.floor(gpus / x.gpus) * x.gpus;
  const perSecondAll = x.tokensPerSecondPerGpu * onGpus;
  const seconds = p.tokens / perSecondAll;
  return [{ label: 'Time to generate', value: `${seconds >= 86400 ? formatDuration(seconds) : formatSeconds(seconds)} for ${compactCount(p.tokens)} generated tokens at ${perSecond(perSecondAll)} tokens/s on ${countOf(onGpus, 'GPU')} (${compactCount(seconds / 3600 * onGpus)} GPU-hours)` }];
}

/** A point's figures, its load's among them, labelled as the closest: an answer to another question than the one asked. */
export const closestFigures = (x: InferencePointJson, p: AskParameters, gpus: number | undefined): AnswerFigure[] =>
  [...pointFigures(x, p, gpus), ...loadFigure(x, gpus)].map((f) => ({ ...f, label: `${f.label} (closest)` }));
