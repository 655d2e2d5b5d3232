import { fewestNodes, MAX_NODES, trainOnNodes, type CapacityPoint, type SearchOptions, nodesText } from '@trainplan/search';
import { planJson } from './plan-json.ts';
import type { ResolvedSearch } from './resolve-search.ts';
import type { SearchRequest } from './search-schema.ts';
import type { ClosestJson } from './wire.ts';

/**
 * Sizes tried on each side of the request before falling back to the fewest nodes that fit. A count
 * that fails only for divisibility (1,000 GPUs = 8 × 5³ leave no TP × PP × DP split of a 1,536 batch)
 * almost always has a neighbour within a few nodes that runs; a memory shortfall is met higher up.
 */
const NEAREST_WINDOW = 16;


/** The nearest cluster size that runs: below the request first (nearest first), then above it. */
function nearestPoint(r: ResolvedSearch, tokens: number, options: SearchOptions, nodes: number): CapacityPoint | undefined {
  const at = (n: number) => trainOnNodes(r.base, n, tokens, options);
  for (let n = nodes - 1; n >= Math.max(1, nodes - NEAREST_WINDOW); n--) {
    const p = at(n);
    if (p) return p;
  }
  for (let n = nodes + 1; n <= Math.min(MAX_NODES, nodes + NEAREST_WINDOW); n++) {
    const p = at(n);
    if (p) return p;
  }
  const fewest = fewestNodes(r.base, tokens, {}, options);
  return fewest.ok ? fewest : undefined;
}

/**
 * When nothing runs on the cluster asked for: the nearest cluster size on which something does
 * (preferring fewer nodes than asked, then more). Why the asked size fails is the answer's message.
 */
export function nearestCluster(r: ResolvedSearch, req: SearchRequest, options: SearchOptions, nodes: number): ClosestJson | undefined {
  const point = nearestPoint(r, req.training.tokens ?? 1, { ...options, onProgress: undefined }, nodes);
  if (!point) return undefined;
  const plan = planJson(r, point.plan.candidate, point.nodes, 1, req.pricePerGpuHour);
  const asked = `${nodesText(nodes)} (${nodes * r.cluster.gpusPerNode} GPUs)`;
  const side = point.nodes < nodes ? 'the nearest smaller size that runs' : 'the nearest size that runs is larger';
  return {
    why: `nothing runs on ${asked}; ${side}: ${nodesText(point.nodes)} (${point.gpus} GPUs), with ${plan.label}`,
    nodes: point.nodes,
    gpus: point.gpus,
    scenario: plan.scenario,
    estimate: plan.estimate,
  };
}
