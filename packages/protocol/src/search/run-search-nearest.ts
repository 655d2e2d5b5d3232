import { NEAREST_WINDOW, nearestRunning, nodesText, type CapacityPoint, type SearchOptions } from '@trainplan/search';
import { formatGrouped } from '@trainplan/units';
import { planJson } from './plan-json.ts';
import type { ResolvedSearch } from './resolve-search.ts';
import type { SearchRequest } from './search-schema.ts';
import type { ClosestJson } from './wire.ts';

/** "120 nodes (960 GPUs)", "126 nodes (1,008 GPUs)": grouped by thousands, as every other count in messages. */
const sizeText = (p: Pick<CapacityPoint, 'nodes' | 'gpus'>): string => `${nodesText(p.nodes)} (${formatGrouped(p.gpus)} GPUs)`;

/**
 * When nothing runs on the cluster asked for: the nearest cluster size on which something does
 * (nearestRunning: the nearer side, fewer nodes on a tie; when it is larger, the nearest smaller size
 * that runs is named too), in whole nodes of `r`'s machine. Why the asked size fails is the answer's
 * message. A partly used node (fewer GPUs than a node, `asked` naming them) is `nodes` 0: every whole
 * node count is larger.
 */
export function nearestCluster(
  r: ResolvedSearch, req: SearchRequest, options: SearchOptions, nodes: number, asked = sizeText({ nodes, gpus: nodes * r.cluster.gpusPerNode }),
): ClosestJson | undefined {
  const { nearest, smaller, outsideWindow } = nearestRunning(r.base, req.training.tokens ?? 1, nodes, { ...options, onProgress: undefined });
  if (!nearest) return undefined;
  const plan = planJson(r, nearest.plan.candidate, nearest.nodes, 1, req.pricePerGpuHour);
  const side = outsideWindow ? `no size within ${NEAREST_WINDOW} nodes of it runs; the fewest nodes that run`
    : nearest.nodes < nodes ? 'the nearest smaller size that runs' : 'the nearest size that runs is larger';
  return {
    why: `nothing runs on ${asked}; ${side}: ${sizeText(nearest)}, with ${plan.label}${smaller ? `; the nearest smaller: ${sizeText(smaller)}` : ''}`,
    nodes: nearest.nodes,
    gpus: nearest.gpus,
    scenario: plan.scenario,
    estimate: plan.estimate,
  };
}
