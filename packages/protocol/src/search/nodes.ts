import { fewestNodes, trainOnNodes } from '@trainplan/search';
import { days, million, thousand, trillion } from '@trainplan/units';
import { issuesMessage } from '../problem.ts';
import { object, optional } from '../schema/object.ts';
import { integer, number } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { FieldIssue } from '../wire.ts';
import { planJson } from './plan-json.ts';
import {
  constraintsSchema, pricePerGpuHourSchema, searchClusterFields, searchTrainingFields, settingsSchema,
} from './request-parts.ts';
import { resolveSearch, type SearchRequestCore } from './resolve-search.ts';
import type { SearchRequest } from './search-schema.ts';
import { searchOptions, type RunSearchOptions } from './run-search.ts';
import type { ClosestJson, NodesResponseJson } from './wire.ts';

/** A validated "how many nodes" request. */
export interface NodesRequest extends SearchRequestCore {
  tokens: number;
  /** Deadline in days: the answer is the fewest nodes that meet it. */
  days?: number;
  /** Budget in GPU-hours, or in money with pricePerGpuHour. */
  gpuHours?: number;
  budget?: number;
  pricePerGpuHour?: number;
  /** The inverse question: days on this many nodes. */
  nodes?: number;
  constraints: SearchRequest['constraints'];
}

const training = object(
  (({ tokens: _tokens, ...rest }) => rest)(searchTrainingFields),
  { expected: 'a training object', description: 'The batch and precision; the micro-batch is searched.' },
);

export const nodesRequestSchema: Schema<NodesRequest> = object({
  model: modelSchema,
  cluster: object(searchClusterFields, { expected: 'a cluster object', description: 'The node type: a GPU or system id; the node count is the answer.' }),
  training,
  settings: settingsSchema,
  constraints: constraintsSchema,
  tokens: number({ greaterThan: 0, max: trillion(1000), description: 'Tokens to train on.' }),
  days: optional(number({ greaterThan: 0, max: thousand(100), description: 'Deadline, in days.' })),
  gpuHours: optional(number({ min: 0, max: trillion(1), description: 'Budget, in GPU-hours.' })),
  budget: optional(number({ min: 0, max: trillion(1000), description: 'Budget in money (needs pricePerGpuHour).' })),
  pricePerGpuHour: pricePerGpuHourSchema,
  nodes: optional(integer({ min: 1, max: million(1), description: 'Days on this many nodes (the inverse question).' })),
}, {
  expected: 'a nodes request object',
  description: 'The fewest nodes that train a token budget within a deadline or a budget, or the days on a given number of nodes.',
  refine(raw, issue) {
    const goals = ['days', 'gpuHours', 'budget'].filter((k) => raw[k] !== undefined);
    if (raw.nodes !== undefined && goals.length > 0) issue('nodes', 'give nodes (days on that many nodes) or a goal (days, gpuHours, budget), not both');
    if (raw.nodes === undefined && goals.length === 0) issue('days', 'give a deadline (days), a budget (gpuHours, or budget with pricePerGpuHour), or nodes');
    if (raw.budget !== undefined && raw.pricePerGpuHour === undefined) issue('pricePerGpuHour', 'a budget in money needs pricePerGpuHour');
  },
});

export const nodesRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(nodesRequestSchema, {
  id: 'https://trainplan.dev/schemas/nodes-request.json', title: 'Nodes request',
});

const invalid = (issues: FieldIssue[]): NodesResponseJson => ({
  ok: false, reason: 'invalid', message: issuesMessage(issues), issues,
});

/**
 * "How many nodes": the fewest nodes of the given node type whose best configuration trains `tokens`
 * within the deadline or budget (the achieved throughput of that configuration, not a fixed TFLOP/s),
 * or the days on a given number of nodes. Impossible goals answer with the closest feasible point.
 */
export function runNodes(request: unknown, options: RunSearchOptions = {}): NodesResponseJson {
  const valid = validate(nodesRequestSchema, request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const probe = resolveSearch({ ...req, training: { ...req.training, tokens: req.tokens } }, 1);
  if (!probe.ok) return invalid(probe.issues);
  const r = probe.value;
  const opts = searchOptions({ ...req, top: 1, objective: 'throughput' } as SearchRequest, options);
  const price = req.pricePerGpuHour;
  const point = (nodes: number, p: NonNullable<ReturnType<typeof trainOnNodes>>) => ({
    nodes, gpus: p.gpus, days: p.days, seconds: p.seconds, gpuHours: p.gpuHours,
    ...(p.cost !== undefined && { cost: p.cost }),
    tokens: req.tokens,
    configuration: planJson(r, p.plan.candidate, nodes, 1, price),
  });

  if (req.nodes !== undefined) {
    const p = trainOnNodes(r.base, req.nodes, req.tokens, opts, price);
    if (p) return { ok: true, mode: 'days-on-nodes', ...point(req.nodes, p), searches: 1 };
    const fewest = fewestNodes(r.base, req.tokens, {}, opts);
    const closest: ClosestJson | undefined = fewest.ok ? closestJson(fewest, `nothing fits on ${req.nodes} nodes; the fewest that fit are ${fewest.nodes}`) : undefined;
    return {
      ok: false, reason: 'does-not-fit',
      message: `no configuration of ${req.nodes} nodes runs this model and batch`,
      ...(closest && { closest }), searches: 1 + fewest.searches,
    };
  }

  const goal = {
    ...(req.days !== undefined && { deadlineSeconds: days(req.days) }),
    ...(req.gpuHours !== undefined && { gpuHourBudget: req.gpuHours }),
    ...(req.budget !== undefined && { costBudget: req.budget }),
    ...(price !== undefined && { pricePerGpuHour: price }),
  };
  const answer = fewestNodes(r.base, req.tokens, goal, opts);
  if (answer.ok) return { ok: true, mode: 'fewest-nodes', ...point(answer.nodes, answer), searches: answer.searches };
  return {
    ok: false, reason: answer.reason, message: answer.message, searches: answer.searches,
    ...(answer.closest && { closest: closestJson(answer.closest, answer.message) }),
  };

  function closestJson(p: { nodes: number; gpus: number; plan: { candidate: Parameters<typeof planJson>[1] }; days: number; gpuHours: number; cost?: number }, why: string): ClosestJson {
    const plan = planJson(r, p.plan.candidate, p.nodes, 1, price);
    return {
      why, nodes: p.nodes, gpus: p.gpus, scenario: plan.scenario, estimate: plan.estimate, days: p.days, gpuHours: p.gpuHours,
      ...(p.cost !== undefined && { cost: p.cost }),
    };
  }
}


