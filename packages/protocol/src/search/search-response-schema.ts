/**
 * The answer to POST /v1/search (`SearchResponseJson` in wire.ts) as one toolkit schema: the JSON
 * Schema /openapi.json publishes, and a validator that the API's tests hold real answers to.
 */
import { PRUNE_REASON_TEXT, type PruneReason } from '@trainplan/search';
import { array, union } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { boolean, enumOf, integer, literal, number, string } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from '../schema/validate.ts';
import {
  closestSchema, count, issuesSchema, label, message, open, planScenarioSchema, searchPlanSchema, seconds,
} from './response-parts.ts';
import { SEARCH_OBJECTIVES } from './request-parts.ts';
import type { SearchResponseJson } from './wire.ts';

/** The most plans an answer lists: the request's `top` is at most 100 (request-parts.ts topSchema). */
const MAX_TOP = 100;
/** explainAlternatives' limit (packages/search explain.ts) is 8; room for it to grow. */
const MAX_ALTERNATIVES = 64;

const pruneReasons = Object.keys(PRUNE_REASON_TEXT) as PruneReason[];

const pruned = object({
  reason: enumOf(pruneReasons, { description: 'Why these candidates were not ranked.' }),
  count: integer({ min: 1, description: 'Candidates ruled out for this reason.' }),
  description: message('The reason, for humans.'),
  example: optional(message('One candidate ruled out for it, and the numbers.')),
}, { ...open, description: 'Candidates ruled out for one reason.' });

const prunedList = array(pruned, { maxItems: pruneReasons.length, description: 'What was pruned and why, one entry per reason.' });
const spaceSize = integer({ min: 0, description: 'Candidates in the space.' });
const candidatesEvaluated = integer({ min: 0, description: 'Candidates settled: ranked, or ruled out with a reason.' });
const fullEstimates = integer({ min: 0, description: 'Full planner estimates run.' });
const budgetExhausted = boolean({ description: 'Whether the candidate budget ran out (the ranking then covers the best lower bounds only).' });

const alternative = object({
  change: string({ description: 'What moved from the best plan, e.g. "TP 16 crosses nodes".' }),
  label,
  scenario: planScenarioSchema,
  stepTimeSeconds: optional(seconds('Its step time, when it runs')),
  slowdown: optional(number({ description: "Its step time over the best's, minus 1." })),
  why: message('Why it loses.'),
}, { ...open, description: 'A near alternative to the best plan and why it loses.' });

const searchOk = object({
  ok: literal(true),
  objective: enumOf(SEARCH_OBJECTIVES, { description: 'What was optimised.' }),
  spaceSize, candidatesEvaluated, fullEstimates, budgetExhausted,
  pruned: prunedList,
  best: searchPlanSchema,
  top: array(searchPlanSchema, { minItems: 1, maxItems: MAX_TOP, description: 'The best plans, best first (top[0] is best).' }),
  alternatives: array(alternative, { maxItems: MAX_ALTERNATIVES, description: 'Near alternatives to the best and why they lose.' }),
  warnings: array(message('Advice for humans.'), { description: 'Advice for humans.' }),
  fewerNodes: optional(object({
    why: message('How much faster, with which plan, and how many nodes to leave out.'),
    nodes: count('Nodes of the smaller cluster.'),
    gpus: count('Its GPUs.'),
    plan: searchPlanSchema,
  }, { ...open, description: 'A cluster of fewer nodes (within 10% below, or the largest power of two below) whose best plan steps at least 1% faster than the best on the nodes asked for (less is within the model\'s error).' })),
}, { ...open, expected: 'a search answer', description: 'The best plan, the top k, the alternatives and what was pruned.' });

const searchFail = object({
  ok: literal(false),
  reason: enumOf(['invalid', 'no-feasible-configuration', 'budget-exhausted'], {
    description: "Why there is no plan: 'budget-exhausted' when the candidate budget ran out before any plan that fits was estimated.",
  }),
  message: message('The reason, for humans.'),
  issues: optional(issuesSchema),
  spaceSize: optional(spaceSize),
  candidatesEvaluated: optional(candidatesEvaluated),
  fullEstimates: optional(fullEstimates),
  budgetExhausted: optional(budgetExhausted),
  pruned: optional(prunedList),
  nearestMiss: optional(object({
    label,
    scenario: planScenarioSchema,
    neededBytes: number({ min: 0, description: 'Memory it needs per GPU, in bytes.' }),
    availableBytes: number({ min: 0, description: 'Memory the GPU has, in bytes.' }),
    message: message('Why it does not fit.'),
  }, { ...open, description: 'The candidate that came closest to fitting in memory on the cluster asked for.' })),
  closest: optional(closestSchema),
  contradiction: optional(message('Where the constraints contradict each other, so no cluster can run the request (a usage error, not a plan this cluster lacks): why, in words, as the message says it.')),
}, { ...open, expected: 'a search failure', description: 'No plan runs: the reason, and the closest thing that would.' });

/** The annotation checks at compile time that the validated type is wire.ts's SearchResponseJson. */
export const searchResponseSchema: Schema<SearchResponseJson> = union([searchOk, searchFail], {
  expected: 'a search answer with ok true or ok false',
});

export const searchResponseJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(searchResponseSchema, {
  id: 'https://trainplan.dev/schemas/search-response.json', title: 'Search response',
});

/** Validates a search answer read from the API; unknown (newer) fields are dropped. Never throws. */
export function validateSearchResponse(value: unknown): Validation<SearchResponseJson> {
  return validate(searchResponseSchema, value);
}
