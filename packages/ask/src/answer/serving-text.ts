import type { InferencePointJson } from '@trainplan/protocol';
import { formatGrouped } from '@trainplan/units';

/** The words a serving answer builds its sentences from (serving-answer.ts, serving-load.ts). */

/** "TP 2 · PP 1": a replica's shape. */
export const shapeText = (x: { tensor: number; pipeline: number }): string => `TP ${x.tensor} · PP ${x.pipeline}`;

/** A rate to three figures, grouped from a thousand up: "3,530", "337", "0.0240". */
export const perSecond = (x: number): string => formatGrouped(x);


/**
 * Requests one replica finishes per second at its batch: its generated tokens per second over the tokens of
 * one request (b slots each held O iterations, b/(O × the iteration), as the protocol's load reckons it).
 */
export const replicaRequestsPerSecond = (x: InferencePointJson, outputTokens: number): number => (x.tokensPerSecondPerGpu * x.gpus) / outputTokens;
