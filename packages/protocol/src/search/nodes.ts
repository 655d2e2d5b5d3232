import {
  costTimeFrontier, daysText, deadlineWithinBudget, describeCandidate, fastestWithinBudget, fewestNodes, meetsGoal, NEAREST_WINDOW, nearestRunning, nodesText,
  type CapacityOptions, type CapacityPoint, type FrontierPoint,
} from '@trainplan/search';
import { days, formatGrouped, thousand, trillion } from '@trainplan/units';
import { MAX_CLUSTER_NODES } from '../cluster-caps.ts';
import { issuesMessage } from '../problem.ts';
import { object, optional } from '../schema/object.ts';
import { boolean, integer, number } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { FieldIssue } from '../wire.ts';
import { searchAskedSize } from './nodes-asked-size.ts';
import { largerBatch } from './nodes-larger-batch.ts';
import { nvlinkDomainsOf } from './nvlink-domains.ts';
import { planJson } from './plan-json.ts';
import {
  constraintsSchema, pricePerGpuHourSchema, searchClusterFields, searchTrainingFields, settingsSchema,
} from './request-parts.ts';
import { resolveSearch, type SearchRequestCore } from './resolve-search.ts';
import type { SearchRequest } from './search-schema.ts';
import { searchOptions, type RunSearchOptions } from './run-search.ts';
import type { ClosestJson, FrontierSizeJson, NodesResponseJson, NodesSizeJson } from './wire.ts';

/** A validated "how many nodes" request. */
export interface NodesRequest extends SearchRequestCore {
  tokens: number;
  /** Deadline in days: the answer is the fewest nodes that meet it (within the budget, if one is given). */
  days?: number;
  /** Budget in GPU-hours, or in money with pricePerGpuHour: without a deadline, the answer is the fastest plan it affords. */
  gpuHours?: number;
  budget?: number;
  pricePerGpuHour?: number;
  /** The inverse question: days on this many nodes. */
  nodes?: number;
  /** The time–cost curve over cluster sizes: the cheapest size, each size's days and GPU-hours, the Pareto ones marked. */
  frontier?: boolean;
  constraints: SearchRequest['constraints'];
  /**
   * The share of wall-clock time spent training, in (0, 1] (restarts, failures and checkpoint stalls are the rest):
   * days and GPU-hours are on the wall clock at it, so that a deadline and a budget size the cluster on wall-clock time
   * (@trainplan/search WallClock). Absent: 1.
   */
  uptime?: number;
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
  gpuHours: optional(number({ greaterThan: 0, max: trillion(1), description: 'Budget, in GPU-hours.' })),
  budget: optional(number({ greaterThan: 0, max: trillion(1000), description: 'Budget in money (needs pricePerGpuHour).' })),
  pricePerGpuHour: pricePerGpuHourSchema,
  nodes: optional(integer({ min: 1, max: MAX_CLUSTER_NODES, description: 'Days on this many nodes (the inverse question).' })),
  frontier: optional(boolean({
    description: 'The time–cost curve instead of one goal: the smallest cluster that fits, powers of two while the time to train falls, '
      + 'eight steps between each two powers and every size beside the cheapest, each with its days and GPU-hours (and cost, with '
      + 'pricePerGpuHour); the answer is the cheapest, the Pareto sizes (over every size searched) marked.',
  })),
  uptime: optional(number({
    greaterThan: 0, max: 1,
    description: 'Extension: the share of wall-clock time spent training (restarts, failures and checkpoint stalls are the rest; default 1). '
      + 'Days are the ideal days over it and GPU-hours the GPUs times those wall-clock hours, so deadlines and budgets size the cluster '
      + 'on wall-clock time. Meta reports "higher than 90% effective training time" for Llama 3 405B over a 54-day snapshot with 466 job '
      + 'interruptions (Dubey et al. 2024, §3.3.4): 0.9.',
  })),
}, {
  expected: 'a nodes request object',
  description: 'The fewest nodes that train a token budget within a deadline (and budget, if given); with only a budget, the fastest plan it affords; or the days on a given number of nodes.',
  refine(raw, issue) {
    const goals = ['days', 'gpuHours', 'budget'].filter((k) => raw[k] !== undefined);
    if (raw.frontier === true) {
      const other = [...goals, ...(raw.nodes === undefined ? [] : ['nodes'])];
      if (other.length > 0) issue('frontier', `give frontier (the time–cost curve) or a goal (${other.join(', ')}), not both`);
      return;
    }
    if (raw.nodes !== undefined && goals.length > 0) issue('nodes', 'give nodes (days on that many nodes) or a goal (days, gpuHours, budget), not both');
    if (raw.nodes === undefined && goals.length === 0) issue('days', 'give a deadline (days), a budget (gpuHours, or budget with pricePerGpuHour), nodes, or frontier');
    if (raw.budget !== undefined && raw.pricePerGpuHour === undefined) issue('pricePerGpuHour', 'a budget in money needs pricePerGpuHour');
  },
  // The refine's rules for a validator that reads the JSON Schema (QA: /openapi.json took a body with no goal, or with
  // nodes and days, that the server refused with a 400). Exactly one question: the curve, days on given nodes, or a
  // deadline and/or budget; the three branches exclude one another by construction, so a body matching two is refused.
  jsonSchema: {
    oneOf: [
      { description: 'The time–cost curve: frontier true.', required: ['frontier'], properties: { frontier: { const: true } } },
      { description: 'Days on given nodes.', required: ['nodes'] },
      {
        description: 'A deadline (days), a budget (gpuHours, or budget with pricePerGpuHour), or a deadline within a budget: '
          + 'not all of days, gpuHours and budget absent.',
        not: { properties: { days: { not: {} }, gpuHours: { not: {} }, budget: { not: {} } } },
      },
    ],
    allOf: [{ if: { required: ['budget'] }, then: { required: ['pricePerGpuHour'] } }],
  },
});

export const nodesRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(nodesRequestSchema, {
  id: 'https://trainplan.dev/schemas/nodes-request.json', title: 'Nodes request',
});

const invalid = (issues: FieldIssue[]): NodesResponseJson => ({
  ok: false, reason: 'invalid', message: issuesMessage(issues), issues,
});


const sizeJson = (p: CapacityPoint): NodesSizeJson => ({
  nodes: p.nodes, gpus: p.gpus, days: p.days, seconds: p.seconds, gpuHours: p.gpuHours, ...(p.cost !== undefined && { cost: p.cost }),
});

const frontierJson = (p: FrontierPoint): FrontierSizeJson => ({
  ...sizeJson(p), label: describeCandidate(p.plan.candidate), mfu: p.plan.estimate.mfu, pareto: p.pareto, globalBatchSize: p.globalBatchSize,
});

/**
 * runNodes's options: a search's, and the batch each cluster size is planned at when the request's batch
 * is a default shaped to one size (the CLI's and the chat bot's when none is stated: the batch a question
 * about `nodes` nodes alone takes), with the second batch each size is also planned at where the policy has
 * one, the faster taken (@trainplan/search SizedBatchFor: @trainplan/ask deadlineBatchFor). Then every mode plans
 * each size it searches at that size's batches: a deadline's sizes, `nodes` (with the sizes around it when nothing
 * runs there; searchAskedSize), a budget's and the time–cost curve's, so that every size an answer names (and each
 * size a check counts) is what the question about that size alone answers: a budget's fastest size is what `nodes`
 * says of it (Llama 3 70B on H100, 15T tokens, 5.7M GPU-hours: 990 nodes take 29.7 days at their own 990 sequences,
 * 5.65M GPU-hours, where a batch held at 512 sequences made 256 nodes and 104 days the fastest). The batch grows with
 * the cluster (one sequence per 8 GPUs past 4M tokens, up to 16M tokens: 2,048 sequences of 8,192 tokens from 2,048
 * nodes of H100 on); the answer says the batch its size took.
 * Absent: the request's training.globalBatchSize at every size.
 */
export interface RunNodesOptions extends RunSearchOptions {
  globalBatchFor?: CapacityOptions['globalBatchFor'];
}

/**
 * How runNodesWith answers a deadline (with or without a budget) and a budget alone. runNodes takes the budget-aware
 * answers of @trainplan/search; runDeadlineNodes only fewestNodes, which is what deadlineWithinBudget answers when the
 * request gives no budget, so that a bundle that never asks for a budget (the widget) leaves the budget search out.
 */
export interface NodesGoals {
  readonly deadline: typeof deadlineWithinBudget | typeof fewestNodes;
  /** Absent: a budget is refused as not served by this build. */
  readonly budget?: typeof fastestWithinBudget;
}

const ALL_GOALS: NodesGoals = { deadline: deadlineWithinBudget, budget: fastestWithinBudget };
const DEADLINE_GOALS: NodesGoals = { deadline: fewestNodes };

/** "28 more", "36 fewer": how far `n` is from `nodes`. */
const distanceText = (n: number, nodes: number): string => `${formatGrouped(Math.abs(n - nodes))} ${n > nodes ? 'more' : 'fewer'}`;

/**
 * "How many nodes", in three modes, each with the configuration used (the achieved throughput of the
 * best plan found at that size, not a fixed TFLOP/s):
 * - a deadline (optionally with a budget): the fewest nodes that meet it ('fewest-nodes');
 * - a budget alone (GPU-hours, or money with a price): the fastest plan the budget affords, the largest
 *   useful cluster, with the smallest cluster that fits beside it ('fastest-within-budget');
 * - nodes: the days on that many nodes ('days-on-nodes').
 * Impossible goals answer with the closest feasible point.
 */
export function runNodes(request: unknown, options: RunNodesOptions = {}): NodesResponseJson {
  const answer = runNodesWith(request, options, ALL_GOALS);
  // The uptime the days and GPU-hours are on the wall clock at, echoed where the request gave one. Only a request that
  // validated plans (a refusal planned nothing), so it is a number in (0, 1]. runDeadlineNodes (the widget's, which
  // never asks one) plans at it too without the echo: bytes the widget's bundle does not spend.
  const { uptime } = (request ?? {}) as Partial<NodesRequest>;
  return uptime === undefined || (!answer.ok && answer.reason === 'invalid') ? answer : { ...answer, uptime };
}

/**
 * runNodes for a deadline, --nodes and the time–cost curve only: the same answers, without the budget search
 * (NodesGoals); a budget (gpuHours, budget) is refused, naming the field.
 */
export function runDeadlineNodes(request: unknown, options: RunNodesOptions = {}): NodesResponseJson {
  return runNodesWith(request, options, DEADLINE_GOALS);
}

function runNodesWith(request: unknown, options: RunNodesOptions, goals: NodesGoals): NodesResponseJson {
  const valid = validate(nodesRequestSchema, request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const probe = resolveSearch({ ...req, training: { ...req.training, tokens: req.tokens } }, { nodes: 1 });
  if (!probe.ok) return invalid(probe.issues);
  const r = probe.value;
  const opts = {
    ...searchOptions({ ...req, top: 1, objective: 'throughput' } as SearchRequest, options),
    ...(options.onClusterSize && { onClusterSize: options.onClusterSize }),
    ...(options.globalBatchFor && { globalBatchFor: options.globalBatchFor }),
    // Absent, undefined: searchOnNodes takes 1.
    uptime: req.uptime,
  };
  // A size's plan as the wire carries it: its scenario at the batch that size was searched at.
  const atBatch = (globalBatchSize: number) => (globalBatchSize === r.base.globalBatchSize ? r
    : { ...r, base: { ...r.base, globalBatchSize }, core: { ...r.core, training: { ...r.core.training, globalBatchSize } } });
  const price = req.pricePerGpuHour;
  // Training takes whole optimizer steps, each one global batch (Narayanan et al. 2021, SC'21, §2.2: the
  // optimizer steps once the batch's micro-batches are through): fewer tokens than one batch is no run.
  const stepTokens = r.base.globalBatchSize * r.base.seqLength;
  if (req.tokens < stepTokens) {
    return invalid([{
      path: 'tokens',
      message: `${req.tokens.toLocaleString('en-US')} token${req.tokens === 1 ? '' : 's'} ${req.tokens === 1 ? 'is' : 'are'} less than one optimizer step, a global batch of ${formatGrouped(r.base.globalBatchSize)} × ${formatGrouped(r.base.seqLength)} = ${stepTokens.toLocaleString('en-US')} tokens (training takes whole steps)`,
    }]);
  }
  // A rack-scale NVLink domain (GB200 NVL72) is bought and placed whole: the answer counts them too.
  const domain = r.base.nvlinkDomainGpus;
  const point = (nodes: number, p: CapacityPoint) => ({
    ...sizeJson(p), tokens: req.tokens, configuration: planJson(atBatch(p.globalBatchSize), p.plan.candidate, nodes, 1, price),
    ...(domain > r.base.gpusPerNode && { nvlinkDomains: nvlinkDomainsOf(p.gpus, p.plan.candidate, domain, r.base.gpusPerNode) }),
  });
  // One size's search, or a search of sizes that are not the request's (the larger batch's): progress, no size notes.
  const { onClusterSize: _, ...one } = opts;

  if (req.nodes !== undefined) {
    options.onClusterSize?.(req.nodes, 0);
    // At a batch per size, the batches a deadline's search plans this size at (searchAskedSize says why).
    const searched = searchAskedSize(r.base, req.nodes, req.tokens, one, price);
    const p = searched.point;
    if (p) {
      const larger = largerBatch(r.base, req.tokens, p, { kind: 'nodes', nodes: req.nodes, ...(price !== undefined && { pricePerGpuHour: price }) }, one);
      return { ok: true, mode: 'days-on-nodes', ...point(req.nodes, p), searches: 1, ...(larger && { largerBatch: larger }) };
    }
    const asked = req.nodes;
    // Constraints that contradict each other rule out every size alike: said as the search says it, with no sizes around it.
    if (searched.emptySpace !== undefined) {
      return { ok: false, reason: 'does-not-fit', message: `no configuration of ${nodesText(asked)} runs: ${searched.emptySpace}`, searches: 1, contradiction: searched.emptySpace };
    }
    const near = nearestRunning(r.base, req.tokens, asked, {
      ...one, ...(options.onClusterSize && { onClusterSize: (n: number, before: number) => options.onClusterSize!(n, 1 + before) }),
    }, price);
    const n = near.nearest;
    const { smaller, larger } = near;
    // Each size offered with its days, and its batch where it was planned at another than the size asked (a batch per
    // size: QA, GPT-3 Small's 256 on 8,192 nodes, whose nearest size ran 8,191 sequences a step, 32 times as many).
    const batch = one.globalBatchFor?.(asked) ?? r.base.globalBatchSize;
    const size = (p: CapacityPoint) => `${nodesText(p.nodes)} (${distanceText(p.nodes, asked)}, ${daysText(p.days)}`
      + `${p.globalBatchSize === batch ? '' : `, at a global batch of ${formatGrouped(p.globalBatchSize)} sequences`})`;
    const nearest = n === undefined ? ''
      : near.outsideWindow ? `; no size within ${NEAREST_WINDOW} nodes of it runs; the fewest nodes that run: ${size(n)}`
      : larger ? `; the nearest sizes that run are ${size(n)} and ${size(larger)}`
      : `; the nearest size that runs is ${size(n)}${smaller ? `, the nearest smaller ${size(smaller)}` : ''}`;
    // Why nothing runs there: no split divides the GPUs, batch, layers and heads at once, or none that does fits in memory.
    const gpus = asked * r.base.gpusPerNode;
    // The request's batch, where it was tried too and divides no layout either (searchAskedSize), named beside the size's.
    const batches = `${formatGrouped(batch)}${searched.requestBatch === undefined ? '' : ` or ${formatGrouped(searched.requestBatch)}`}`;
    const why = searched.noPlan === 'out-of-memory' ? 'fits this model and batch in memory'
      : searched.noPlan === 'indivisible' ? `splits its ${formatGrouped(gpus)} GPUs into a layout the model and a batch of ${batches} divide (TP × PP × CP × DP)`
      : 'runs this model and batch within the candidate budget';
    const message = `no configuration of ${nodesText(asked)} ${why}${nearest}`;
    return {
      ok: false, reason: 'does-not-fit', message,
      ...(n && { closest: closestJson(n, `nothing runs on ${nodesText(asked)}${nearest}`) }), searches: 1 + near.searches,
    };
  }

  if (req.frontier === true) {
    const f = costTimeFrontier(r.base, req.tokens, opts, price);
    if (!f.ok) return { ok: false, reason: f.reason, message: f.message, searches: f.searches, ...(f.contradiction !== undefined && { contradiction: f.contradiction }) };
    // The curve's fast end is where a fixed batch spreads thinnest: the fastest size at twice the batch, whatever its bubble.
    const larger = largerBatch(r.base, req.tokens, f.fastest, {
      kind: 'nodes', nodes: f.fastest.nodes, ...(price !== undefined && { pricePerGpuHour: price }),
    }, one, { whenBound: false });
    return {
      ok: true, mode: 'cost-time-frontier', ...point(f.cheapest.nodes, f.cheapest), searches: f.searches,
      frontier: f.points.map(frontierJson), fastest: frontierJson(f.fastest), ...(larger && { largerBatch: larger }),
      // The search's largest size said where the curve's fastest reaches it (capacity-sizer.ts): larger may be faster.
      ...(f.note !== undefined && { note: f.note }),
    };
  }

  const budget = {
    ...(req.gpuHours !== undefined && { gpuHourBudget: req.gpuHours }),
    ...(req.budget !== undefined && { costBudget: req.budget }),
    ...(price !== undefined && { pricePerGpuHour: price }),
  };
  const budgetOnly = req.days === undefined;
  const budgetSearch = goals.budget;
  const withBudget = 'gpuHourBudget' in budget || 'costBudget' in budget;
  const answer = req.days !== undefined && (!withBudget || budgetSearch !== undefined)
    ? goals.deadline(r.base, req.tokens, { ...budget, deadlineSeconds: days(req.days) }, opts)
    : budgetSearch?.(r.base, req.tokens, budget, opts);
  if (answer === undefined) {
    return invalid([{ path: req.gpuHours !== undefined ? 'gpuHours' : 'budget', message: 'a budget is not answered here (this build plans deadlines, cluster sizes and the time–cost curve): ask the API\'s POST /v1/nodes' }]);
  }
  const deadline = req.days === undefined ? undefined : {
    kind: 'deadline' as const, deadlineSeconds: days(req.days), missed: !answer.ok, ...(price !== undefined && { pricePerGpuHour: price }),
  };
  // Only a deadline without a budget: with a budget, the larger batch's answer would also have to stay within it.
  const hinted = deadline && !('gpuHourBudget' in budget || 'costBudget' in budget) ? (answer.ok ? answer : answer.closest) : undefined;
  const larger = hinted && deadline && (answer.ok || answer.reason === 'deadline-unreachable')
    ? largerBatch(r.base, req.tokens, hinted, deadline, one) : undefined;
  if (answer.ok) {
    return {
      ok: true, mode: budgetOnly || ('viaBudget' in answer && answer.viaBudget === true) ? 'fastest-within-budget' : 'fewest-nodes', ...point(answer.nodes, answer), searches: answer.searches,
      // Only fastestWithinBudget (no deadline) states the smallest cluster, so the budget is the whole goal.
      ...(answer.smallest && { smallest: { ...sizeJson(answer.smallest), withinBudget: meetsGoal(answer.smallest, budget) } }),
      ...(answer.checked && { checked: answer.checked }),
      ...(answer.note !== undefined && { note: answer.note }),
      ...(larger && { largerBatch: larger }),
    };
  }
  return {
    ok: false, reason: answer.reason, message: answer.message, searches: answer.searches,
    ...(answer.closest && { closest: closestJson(answer.closest, answer.message) }),
    ...(answer.contradiction !== undefined && { contradiction: answer.contradiction }),
    ...(larger && { largerBatch: larger }),
  };

  function closestJson(p: CapacityPoint, why: string): ClosestJson {
    const plan = planJson(atBatch(p.globalBatchSize), p.plan.candidate, p.nodes, 1, price);
    return {
      why, nodes: p.nodes, gpus: p.gpus, scenario: plan.scenario, estimate: plan.estimate, days: p.days, gpuHours: p.gpuHours,
      ...(p.cost !== undefined && { cost: p.cost }),
    };
  }
}
