import { describeCandidate, explainAlternatives, MAX_NODES, searchedSpace, searchPlans, whyNothingFits, type SearchOptions } from '@trainplan/search';
import { countOf } from '@trainplan/units';
import { issuesMessage } from '../problem.ts';
import { clusterMachine, partNodesIssue } from '../resolve.ts';
import type { FieldIssue } from '../wire.ts';
import { fewerNodesJson } from './fewer-nodes-json.ts';
import { planJson, statsJson } from './plan-json.ts';
import { candidateScenario, resolveSearch, type ResolvedSearch } from './resolve-search.ts';
import { nearestCluster } from './run-search-nearest.ts';
import { validateSearchRequest, type SearchRequest } from './search-schema.ts';
import type { ClosestJson, SearchFailJson, SearchResponseJson } from './wire.ts';

export interface RunSearchOptions {
  /** Called now and then with the work done so far and the total (a share: done / total), for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** runNodes: called as each cluster size's search starts, with its size and the searches run before it. */
  onClusterSize?: (nodes: number, searchesBefore: number) => void;
  /** Caps the request's own candidateBudget (a server's guard). */
  candidateBudget?: number;
}

const invalid = (issues: FieldIssue[]): SearchFailJson => ({ ok: false, reason: 'invalid', message: issuesMessage(issues), issues });

/**
 * The request's cluster as resolveSearch takes it. A GPU count under one node (of the size the request
 * names, else its machine's) is one partly used node, resolved from the count as the estimate resolves
 * it (resolve.ts); otherwise `gpus` is the exact size of the cluster in whole nodes: a count that does
 * not fill whole nodes is refused, naming the two nearest counts that do.
 */
function clusterSize(req: SearchRequest): { nodes: number } | { gpus: number } | FieldIssue {
  if (req.cluster.nodes !== undefined) return { nodes: req.cluster.nodes };
  const gpus = req.cluster.gpus!;
  // resolveScenario's node size; none for an unknown GPU or system id, which resolving reports.
  const gpusPerNode = req.cluster.gpusPerNode ?? clusterMachine(req.cluster.gpu).system?.gpusPerNode;
  // More than MAX_CLUSTER_NODES nodes of them the schema refuses (cluster-caps.ts), a 400 as for cluster.nodes past it.
  if (gpusPerNode === undefined || gpus < gpusPerNode) return { gpus };
  if (gpus % gpusPerNode !== 0) return partNodesIssue(gpus, gpusPerNode);
  return { nodes: gpus / gpusPerNode };
}

/**
 * The nearest size that runs, for a request that runs nothing: in whole nodes of the machine, from
 * the nodes asked, or, for a partly used node (`{ gpus }`), from none (1 GPU of an 8-GPU DGX runs
 * nothing: the answer is a whole node or more, not "2 nodes of 1 GPU").
 */
function nearestFromRequest(req: SearchRequest, size: { nodes: number } | { gpus: number }, r: ResolvedSearch, opts: SearchOptions, nodes: number): ClosestJson | undefined {
  if (!('gpus' in size)) return nearestCluster(r, req, opts, nodes);
  const whole = resolveSearch(req, { nodes: 1 });
  if (!whole.ok || whole.value.cluster.gpusPerNode <= size.gpus) return undefined;
  return nearestCluster(whole.value, req, opts, 0, countOf(size.gpus, 'GPU'));
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

/**
 * What to do when the candidate budget ran out before a plan that fits: raise the request's
 * candidateBudget, or, when the caller's cap (RunSearchOptions.candidateBudget, e.g. the API's) is
 * the limit that bit, narrow the space, since raising the request's budget cannot pass the cap.
 */
function raiseBudget(req: SearchRequest, options: RunSearchOptions, fullEstimates: number): string {
  const cap = options.candidateBudget;
  if (cap !== undefined && (req.candidateBudget === undefined || req.candidateBudget >= cap)) {
    return `this service caps a search at ${cap} full estimates: narrow the search with constraints to reach a plan that fits`;
  }
  return `raise candidateBudget above ${fullEstimates} to search further`;
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
  const size = clusterSize(req);
  // Resolved once, for the cluster searched; GPUs that do not fill whole nodes are reported after the
  // resolution's own issues (resolved on one node for them).
  const resolved = resolveSearch(req, 'path' in size ? { nodes: 1 } : size);
  if (!resolved.ok) return invalid(resolved.issues);
  if ('path' in size) return invalid([size]);
  const r = resolved.value;
  const nodes = r.base.nodes;
  const opts = searchOptions(req, options);
  const result = searchPlans(r.base, opts);
  const stats = statsJson(result);

  const best = result.top[0];
  if (!best) {
    const miss = result.closestInfeasible;
    const why = whyNothingFits(result);
    const gpus = nodes * r.cluster.gpusPerNode;
    const fail: SearchFailJson = result.budgetExhausted
      ? { ok: false, reason: 'budget-exhausted', message: `not every configuration of ${countOf(gpus, 'GPU')} was estimated: ${why}; ${raiseBudget(req, options, result.fullEstimates)}`, ...stats }
      : {
        ok: false, reason: 'no-feasible-configuration', message: `no configuration of ${countOf(gpus, 'GPU')} runs: ${why}`, ...stats,
        ...(result.emptySpace !== undefined && { contradiction: result.emptySpace }),
      };
    if (miss) {
      fail.nearestMiss = {
        label: describeCandidate(miss.candidate), scenario: candidateScenario(r, miss.candidate, nodes),
        neededBytes: miss.neededBytes, availableBytes: miss.availableBytes, message: miss.message,
      };
    }
    // A search cut short by its budget has not shown that nothing runs here, so no other size is offered.
    const closest = result.budgetExhausted || nodes > MAX_NODES ? undefined : nearestFromRequest(req, size, r, opts, nodes);
    if (closest) fail.closest = closest;
    return fail;
  }

  const top = result.top.map((p, i) => planJson(r, p.candidate, nodes, i + 1, req.pricePerGpuHour));
  const alternatives = explainAlternatives(r.base, best, {
    memoryFraction: req.constraints.memoryFraction, space: searchedSpace(r.base, opts), budgetExhausted: result.budgetExhausted,
  }).map((a) => ({
    change: a.change,
    label: describeCandidate(a.candidate),
    scenario: candidateScenario(r, a.candidate, nodes),
    ...(a.estimate && { stepTimeSeconds: a.estimate.stepTimeSeconds }),
    ...(a.slowdown !== undefined && { slowdown: a.slowdown }),
    why: a.why,
  }));
  const warnings: string[] = [];
  if (result.budgetExhausted) warnings.push(`the candidate budget ran out after ${result.fullEstimates} full estimates: the ranking covers only the candidates with the best lower bounds`);
  // Fewer nodes can run faster where the GPU count splits badly (fewer-nodes-json.ts); not after a search cut short.
  const fewer = result.budgetExhausted ? undefined : fewerNodesJson(r, best.estimate.stepTimeSeconds, opts, req.pricePerGpuHour);
  return { ok: true, objective: req.objective, ...stats, best: top[0]!, top, alternatives, warnings, ...(fewer !== undefined && { fewerNodes: fewer }) };
}
