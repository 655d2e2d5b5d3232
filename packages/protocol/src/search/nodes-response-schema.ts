/** The answer to POST /v1/nodes (`NodesResponseJson` in wire.ts) as one toolkit schema. */
import { array, union } from '../schema/compose.ts';
import { object, optional } from '../schema/object.ts';
import { boolean, enumOf, integer, literal, number } from '../schema/scalars.ts';
import type { JsonSchema, Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate, type Validation } from '../schema/validate.ts';
import { closestSchema, cost, count, days, gpuHours, issuesSchema, message, open, searchPlanSchema, seconds } from './response-parts.ts';
import type { NodesResponseJson } from './wire.ts';

/** The request's uptime, echoed (nodes.ts NodesRequest.uptime). */
const uptime = optional(number({
  greaterThan: 0, max: 1,
  description: "Extension, where the request gave uptime: the share of wall-clock time spent training that days, seconds, GPU-hours and costs assume (each the ideal over it; the configuration, its estimate, days and gpuHours included, stays the ideal, at full uptime).",
}));

const searches = integer({ min: 0, description: 'Configuration searches run (one per cluster size tried).' });

/** With a budget alone: the smallest cluster that fits, what training on it takes, and whether that is within the budget. */
/** A cluster size and what training the token budget on it takes (NodesSizeJson). */
const sizeFields = {
  nodes: count('Nodes.'),
  gpus: count('GPUs.'),
  days: days('Time to train the token budget'),
  seconds: seconds('Time to train the token budget'),
  gpuHours: gpuHours('GPU time to train the token budget'),
  cost: optional(cost('Cost of the GPU-hours (with pricePerGpuHour)')),
};

const smallest = object({
  ...sizeFields,
  withinBudget: boolean({ description: 'Whether its GPU-hours (or cost) stay within the budget.' }),
}, { ...open, expected: 'the smallest cluster that fits', description: 'With a budget alone: the smallest cluster that fits, for comparison.' });

const largerBatch = object({
  ...sizeFields,
  globalBatchSize: count("Sequences per optimizer step: twice the request's."),
  bubbleFraction: number({ min: 0, max: 1, description: "The pipeline bubble's share of the step in the plan at the request's batch." }),
  message: message('What the larger batch would change, and the caveat, for humans.'),
}, {
  ...open, expected: 'a larger-batch answer',
  description: 'When the batch holds the plan back (a pipeline bubble of a tenth of the step or more, or one micro-batch per data-parallel rank): '
    + 'the same question answered with twice the global batch, given only when that needs fewer nodes or days.',
});

const frontierSize = object({
  ...sizeFields,
  label: message('The best plan found on that many nodes, e.g. "TP 8 · PP 8 · DP 16 · mbs 1 · SP · selective recompute".'),
  mfu: number({ min: 0, max: 1, description: "The plan's model FLOPs utilisation." }),
  pareto: boolean({ description: 'No other size searched trains as fast or faster for as few GPU-hours or fewer (one of them strictly).' }),
  globalBatchSize: optional(count('Sequences per optimizer step this size was planned at: the request\'s, or its own where each size takes its own (the CLI\'s and the chat bot\'s default).')),
}, { ...open, expected: 'a cluster size on the time–cost curve', description: 'What training takes on one cluster size with its best plan.' });

const nodesOk = object({
  ok: literal(true),
  mode: enumOf(['fewest-nodes', 'fastest-within-budget', 'days-on-nodes', 'cost-time-frontier'], {
    description: "'fewest-nodes' (a deadline was given, with or without a budget), 'fastest-within-budget' (a budget and no deadline: the fastest plan it affords), 'days-on-nodes' (nodes was given) or 'cost-time-frontier' (frontier was asked: the cheapest size, the curve in frontier).",
  }),
  ...sizeFields,
  tokens: number({ greaterThan: 0, description: 'The token budget, in tokens.' }),
  configuration: searchPlanSchema,
  searches,
  nvlinkDomains: optional(object({
    count: count('NVLink domains (racks) the GPUs fill, the last one partly when they do not divide.'),
    gpusEach: count('GPUs in one NVLink domain (72 in a GB200 NVL72 rack).'),
    gpusUsedEach: optional(count('Extension: where the plan places its GPUs in equal segments of each domain (Slurm --segment) rather than '
      + 'filling them one after another, the GPUs it uses in each: count × gpusUsedEach GPUs in all.')),
  }, { ...open, expected: 'an NVLink domain count', description: 'On a system whose NVLink domain spans several nodes (GB200 NVL72): the domains (racks) the answer fills.' })),
  smallest: optional(smallest),
  checked: optional(object({
    fromNodes: count('Every size from this many nodes to one below the answer was searched and misses the deadline or runs no plan.'),
    complete: boolean({ description: 'True when no smaller size can meet the deadline even at 100% MFU (the answer is the fewest nodes).' }),
    noPlan: integer({ min: 0, description: 'Of the sizes from fromNodes to one below the answer, how many run no plan at all (the rest run and miss the deadline).' }),
    outOfMemory: integer({ min: 0, description: 'Of the noPlan sizes, how many run out of memory (the rest: no TP × PP × DP split passes the divisibility rules, or candidateBudget).' }),
    candidateBudget: optional(integer({ min: 1, description: "Of the noPlan sizes, how many the search's candidate budget ran out on before any plan that fits was estimated; absent when none." })),
  }, { ...open, expected: 'a checked range', description: "How far below a deadline's answer every size was searched." })),
  note: optional(message('How thoroughly the cluster sizes were searched, for humans.')),
  largerBatch: optional(largerBatch),
  frontier: optional(array(frontierSize, { description: "'cost-time-frontier': every cluster size searched that runs, fewest nodes first." })),
  fastest: optional(frontierSize),
  uptime,
}, { ...open, expected: 'a nodes answer', description: 'The cluster size and the best configuration on it.' });

const nodesFail = object({
  ok: literal(false),
  reason: enumOf(['invalid', 'does-not-fit', 'deadline-unreachable', 'budget-unreachable'], { description: 'Why there is no answer.' }),
  message: message('The reason, for humans.'),
  issues: optional(issuesSchema),
  closest: optional(closestSchema),
  searches: optional(searches),
  largerBatch: optional(largerBatch),
  contradiction: optional(message("'does-not-fit': where the constraints contradict each other, so no cluster can run the request (a usage error, not a plan this cluster lacks): why, in words, as the message says it.")),
  uptime,
}, { ...open, expected: 'a nodes failure', description: 'The goal cannot be met: the reason, and the closest feasible point.' });

/** The annotation checks at compile time that the validated type is wire.ts's NodesResponseJson. */
export const nodesResponseSchema: Schema<NodesResponseJson> = union([nodesOk, nodesFail], {
  expected: 'a nodes answer with ok true or ok false',
});

export const nodesResponseJsonSchema: JsonSchema = /* @__PURE__ */ jsonSchemaDocument(nodesResponseSchema, {
  id: 'https://trainplan.dev/schemas/nodes-response.json', title: 'Nodes response',
});

/** Validates a nodes answer read from the API; unknown (newer) fields are dropped. Never throws. */
export function validateNodesResponse(value: unknown): Validation<NodesResponseJson> {
  return validate(nodesResponseSchema, value);
}
