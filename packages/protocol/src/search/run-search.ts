import { describeCandidate, explainAlternatives, MAX_NODES, searchPlans, whyNothingFits, type SearchOptions } from '@trainplan/search';
import { issuesMessage } from '../problem.ts';
import type { FieldIssue } from '../wire.ts';
import { planJson, statsJson } from './plan-json.ts';
import { candidateScenario, resolveSearch } from './resolve-search.ts';
import { nearestCluster } from './run-search-nearest.ts';
import { validateSearchRequest, type SearchRequest } from './search-schema.ts';
import type { SearchFailJson, SearchResponseJson } from './wire.ts';

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
 * Nodes of the request's cluster. `gpus` is the exact size of the cluster in whole nodes: a count that
 * does not fill whole nodes is refused, naming the two nearest counts that do.
 */
function requestNodes(req: SearchRequest, gpusPerNode: number): number | FieldIssue {
  if (req.cluster.nodes !== undefined) return req.cluster.nodes;
  const gpus = req.cluster.gpus!;
  if (gpus % gpusPerNode !== 0) {
    const fewer = Math.floor(gpus / gpusPerNode);
    const whole = (n: number) => `${n * gpusPerNode} (${n} node${n === 1 ? '' : 's'})`;
    const options = [...(fewer > 0 ? [whole(fewer)] : []), whole(fewer + 1)];
    return { path: 'cluster.gpus', message: `${gpus} GPUs do not fill whole nodes of ${gpusPerNode} GPUs: ask for ${options.join(' or ')}, or give cluster.nodes` };
  }
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
  const asked = valid.value;
  const first = resolveSearch(asked, 1);
  if (!first.ok) return invalid(first.issues);
  // Fewer GPUs than a node holds are one partly used node, as the estimate takes them (resolve.ts).
  const partial = asked.cluster.nodes === undefined && asked.cluster.gpus !== undefined && asked.cluster.gpus < first.value.cluster.gpusPerNode;
  const req: SearchRequest = partial ? { ...asked, cluster: { ...asked.cluster, gpusPerNode: asked.cluster.gpus } } : asked;
  const probe = partial ? resolveSearch(req, 1) : first;
  if (!probe.ok) return invalid(probe.issues);
  const nodes = requestNodes(req, probe.value.cluster.gpusPerNode);
  if (typeof nodes !== 'number') return invalid([nodes]);
  // The probe resolved one node: that is the answer's machine when the request is one node.
  const resolved = nodes === 1 ? probe : resolveSearch(req, nodes);
  if (!resolved.ok) return invalid(resolved.issues);
  const r = resolved.value;
  const opts = searchOptions(req, options);
  const result = searchPlans(r.base, opts);
  const stats = statsJson(result);

  const best = result.top[0];
  if (!best) {
    const miss = result.closestInfeasible;
    const why = whyNothingFits(result);
    const gpus = nodes * r.cluster.gpusPerNode;
    const fail: SearchFailJson = result.budgetExhausted
      ? { ok: false, reason: 'budget-exhausted', message: `not every configuration of ${gpus} GPUs was estimated: ${why}; ${raiseBudget(req, options, result.fullEstimates)}`, ...stats }
      : { ok: false, reason: 'no-feasible-configuration', message: `no configuration of ${gpus} GPUs runs: ${why}`, ...stats };
    if (miss) {
      fail.nearestMiss = {
        label: describeCandidate(miss.candidate), scenario: candidateScenario(r, miss.candidate, nodes),
        neededBytes: miss.neededBytes, availableBytes: miss.availableBytes, message: miss.message,
      };
    }
    // A search cut short by its budget has not shown that nothing runs here, so no other size is offered.
    const closest = !result.budgetExhausted && nodes <= MAX_NODES ? nearestCluster(r, req, opts, nodes) : undefined;
    if (closest) fail.closest = closest;
    return fail;
  }

  const top = result.top.map((p, i) => planJson(r, p.candidate, nodes, i + 1, req.pricePerGpuHour));
  const alternatives = explainAlternatives(r.base, best, undefined, req.constraints.memoryFraction).map((a) => ({
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
