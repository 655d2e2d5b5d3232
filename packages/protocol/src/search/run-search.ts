import { describeCandidate, explainAlternatives, fewestNodes, MAX_NODES, searchPlans, type SearchOptions } from '@trainplan/search';
import { formatBytes } from '@trainplan/units';
import { issuesMessage } from '../problem.ts';
import type { FieldIssue } from '../wire.ts';
import { planJson, statsJson } from './plan-json.ts';
import { candidateScenario, resolveSearch, type ResolvedSearch } from './resolve-search.ts';
import { validateSearchRequest, type SearchRequest } from './search-schema.ts';
import type { ClosestJson, SearchFailJson, SearchResponseJson } from './wire.ts';

export interface RunSearchOptions {
  /** Called now and then with candidates settled so far and the space's size. */
  onProgress?: (done: number, total: number) => void;
  /** Caps the request's own candidateBudget (a server's guard). */
  candidateBudget?: number;
}

const invalid = (issues: FieldIssue[]): SearchFailJson => ({ ok: false, reason: 'invalid', message: issuesMessage(issues), issues });

/** Nodes of the request's cluster (gpus given: whole nodes). */
function requestNodes(req: SearchRequest, gpusPerNode: number): number | FieldIssue {
  if (req.cluster.nodes !== undefined) return req.cluster.nodes;
  const gpus = req.cluster.gpus!;
  if (gpus % gpusPerNode !== 0) return { path: 'cluster.gpus', message: `${gpus} GPUs do not fill whole nodes of ${gpusPerNode}` };
  return gpus / gpusPerNode;
}

export function searchOptions(req: SearchRequest, options: RunSearchOptions): SearchOptions {
  const budget = Math.min(req.candidateBudget ?? Infinity, options.candidateBudget ?? Infinity);
  return {
    top: req.top,
    constraints: req.constraints,
    ...(Number.isFinite(budget) && { candidateBudget: budget }),
    ...(options.onProgress && { onProgress: options.onProgress }),
  };
}

/** When nothing fits on the cluster asked for: the fewest nodes on which something does. */
function closestCluster(r: ResolvedSearch, req: SearchRequest, options: SearchOptions, nodes: number): ClosestJson | undefined {
  const answer = fewestNodes(r.base, req.training.tokens ?? 1, {}, { ...options, onProgress: undefined });
  if (!answer.ok) return undefined;
  const plan = planJson(r, answer.plan.candidate, answer.nodes, 1, req.pricePerGpuHour);
  const more = answer.nodes > nodes;
  return {
    why: more
      ? `no configuration fits on ${nodes} nodes; the fewest nodes that fit are ${answer.nodes} (${answer.gpus} GPUs), with ${plan.label}`
      : `no configuration fits on ${nodes} nodes as asked (the batch or the degrees do not divide); ${answer.nodes} nodes work, with ${plan.label}`,
    nodes: answer.nodes,
    gpus: answer.gpus,
    scenario: plan.scenario,
    estimate: plan.estimate,
  };
}

/**
 * The configuration search on the wire: validate → resolve → search (enumerate → evaluate → rank) →
 * the best plan as a contract scenario with its contract estimate, the top k, the nearest
 * alternatives and why they lose, and what was pruned and why. Never throws for any input; a request
 * that nothing satisfies answers with the closest feasible alternative.
 */
export function runSearch(request: unknown, options: RunSearchOptions = {}): SearchResponseJson {
  const valid = validateSearchRequest(request);
  if (!valid.ok) return invalid(valid.issues);
  const req = valid.value;
  const probe = resolveSearch(req, 1);
  if (!probe.ok) return invalid(probe.issues);
  const nodes = requestNodes(req, probe.value.cluster.gpusPerNode);
  if (typeof nodes !== 'number') return invalid([nodes]);
  const resolved = resolveSearch(req, nodes);
  if (!resolved.ok) return invalid(resolved.issues);
  const r = resolved.value;
  const opts = searchOptions(req, options);
  const result = searchPlans(r.base, opts);
  const stats = statsJson(result);

  const best = result.top[0];
  if (!best) {
    const miss = result.closestInfeasible;
    const fail: SearchFailJson = {
      ok: false,
      reason: 'no-feasible-configuration',
      message: miss
        ? `no configuration of ${req.cluster.gpus ?? nodes * r.cluster.gpusPerNode} GPUs runs: the closest needs ${formatBytes(miss.neededBytes)} per GPU, the GPU has ${formatBytes(miss.availableBytes)}`
        : `no configuration of ${nodes * r.cluster.gpusPerNode} GPUs passes Megatron's divisibility rules for this model and batch`,
      ...stats,
    };
    if (miss) {
      fail.nearestMiss = {
        label: describeCandidate(miss.candidate), scenario: candidateScenario(r, miss.candidate, nodes),
        neededBytes: miss.neededBytes, availableBytes: miss.availableBytes, message: miss.message,
      };
    }
    const closest = nodes < MAX_NODES ? closestCluster(r, req, opts, nodes) : undefined;
    if (closest) fail.closest = closest;
    return fail;
  }

  const top = result.top.map((p, i) => planJson(r, p.candidate, nodes, i + 1, req.pricePerGpuHour));
  const alternatives = explainAlternatives(r.base, best).map((a) => ({
    change: a.change,
    label: describeCandidate(a.candidate),
    scenario: candidateScenario(r, a.candidate, nodes),
    ...(a.estimate && { stepTimeSeconds: a.estimate.stepTimeSeconds }),
    ...(a.slowdown !== undefined && { slowdown: a.slowdown }),
    why: a.why,
  }));
  const warnings: string[] = [];
  if (result.budgetExhausted) warnings.push(`the candidate budget ran out after ${result.fullEstimates} full estimates: the ranking covers only the candidates with the best lower bounds`);
  return { ok: true, objective: req.objective, ...stats, best: top[0]!, top, alternatives, warnings };
}
