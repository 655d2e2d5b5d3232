import { fewerNodes, nodesText, type SearchOptions } from '@trainplan/search';
import { formatGrouped, formatPercent, formatSeconds } from '@trainplan/units';
import { planJson } from './plan-json.ts';
import type { ResolvedSearch } from './resolve-search.ts';
import type { FewerNodesJson } from './wire.ts';

/**
 * The search answer's `fewerNodes`: a cluster of fewer nodes whose best plan steps faster than the best found on the nodes
 * asked for (@trainplan/search fewerNodes), as a plan of the answer with what it saves; undefined when none within the
 * window does. The same batch, so a shorter step is more tokens/s on fewer GPUs: the user can leave nodes out.
 */
export function fewerNodesJson(r: ResolvedSearch, bestSeconds: number, options: SearchOptions, pricePerGpuHour?: number): FewerNodesJson | undefined {
  const found = fewerNodes(r.base, bestSeconds, options);
  if (found === undefined) return undefined;
  const nodes = r.base.nodes;
  const plan = planJson(r, found.plan.candidate, found.nodes, 1, pricePerGpuHour);
  const seconds = plan.estimate.stepTimeSeconds;
  const gpus = found.nodes * r.cluster.gpusPerNode;
  return {
    why: `${nodesText(found.nodes)} (${formatGrouped(gpus)} GPUs) run a step in ${formatSeconds(seconds)}, ${formatPercent(1 - seconds / bestSeconds)} `
      + `faster than the best on ${nodesText(nodes)} (${formatSeconds(bestSeconds)}), with ${plan.label}: `
      + `at the same batch, leaving ${nodesText(nodes - found.nodes)} out trains faster on fewer GPUs`,
    nodes: found.nodes,
    gpus,
    plan,
  };
}
