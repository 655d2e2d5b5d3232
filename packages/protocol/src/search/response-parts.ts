/**
 * Pieces the search, nodes, scale and inference answers share, as toolkit schemas: a plan (a
 * contract scenario with its contract estimate), the closest feasible point, and the fields of an
 * ok: false answer. Every plan's scenario is held to the scenario schema itself (strict), because
 * the wire promises it round-trips through POST /v1/estimate; the answers' own objects strip
 * unknown keys, like the estimate, so older clients keep reading newer answers. A plan's estimate is
 * trainplan's own, every extension there (fullEstimateOkSchema): only trainplan serves these answers.
 */
import { array } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { integer, number, string } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { fieldIssueSchema, fullEstimateOkSchema } from '../estimate-schema.ts';
import { scenarioSchema } from '../scenario-schema.ts';
import type { ScenarioInput } from '../wire.ts';
import type { ClosestJson, SearchPlanJson } from './wire.ts';

export const open = { unknownKeys: 'strip' } as const;
export const MAX_MESSAGE_LENGTH = 4096;

export const message = (description: string) => string({ maxLength: MAX_MESSAGE_LENGTH, description });
export const seconds = (description: string) => number({ min: 0, description: `${description}, in seconds.` });
export const days = (description: string) => number({ min: 0, description: `${description}, in days.` });
export const gpuHours = (description: string) => number({ min: 0, description: `${description}, in GPU-hours.` });
export const cost = (description: string) => number({ min: 0, description: `${description}, in the currency of pricePerGpuHour.` });
export const count = (description: string) => integer({ min: 1, description });
export const label = string({ description: 'The plan for humans, e.g. "TP 8 · PP 8 · DP 16 · mbs 1 · full recompute".' });

/** A plan's scenario: valid input to POST /v1/estimate (the scenario schema, strict). */
export const planScenarioSchema: Schema<ScenarioInput> = scenarioSchema;

export const searchPlanSchema: Schema<SearchPlanJson> = object({
  rank: count('1 for the best plan.'),
  label,
  scenario: planScenarioSchema,
  estimate: fullEstimateOkSchema,
  days: optional(days('Time to train the token budget (with training.tokens)')),
  gpuHours: optional(gpuHours('GPU time to train the token budget (with training.tokens)')),
  cost: optional(cost('Cost of the GPU-hours (with pricePerGpuHour and tokens)')),
}, { ...open, description: 'A plan: a contract scenario with the contract estimate POST /v1/estimate gives it.' });

export const closestSchema: Schema<ClosestJson> = object({
  why: message('Why the request as asked does not run, and what does.'),
  nodes: optional(count('Nodes of the closest feasible cluster.')),
  gpus: optional(count('GPUs of the closest feasible cluster.')),
  scenario: optional(planScenarioSchema),
  estimate: optional(fullEstimateOkSchema),
  days: optional(days('Time to train the token budget there')),
  gpuHours: optional(gpuHours('GPU time to train the token budget there')),
  cost: optional(cost('Cost there')),
}, { ...open, description: 'The nearest thing that would run.' });

/** The `issues` of an ok: false answer: each offending field by its JSON path. */
export const issuesSchema = array(fieldIssueSchema, { description: 'Each offending field by its JSON path.' });
