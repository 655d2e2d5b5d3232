import { describeCandidate, type Candidate, type SearchResult } from '@trainplan/search';
import { runEstimate } from '../run.ts';
import type { EstimateOk, ScenarioInput } from '../wire.ts';
import { candidateScenario, type ResolvedSearch } from './resolve-search.ts';
import { prunedJson } from './pruned-json.ts';
import type { SearchPlanJson, SearchStatsJson } from './wire.ts';

/**
 * A plan as the wire carries it: its scenario, and the estimate of that scenario through the contract
 * path (runEstimate), so the numbers are exactly what POST /v1/estimate answers for it.
 */
export function planJson(r: ResolvedSearch, candidate: Candidate, nodes: number, rank: number, pricePerGpuHour?: number): SearchPlanJson {
  const scenario = candidateScenario(r, candidate, nodes);
  const estimate = runEstimate(scenario) as EstimateOk;
  const json: SearchPlanJson = { rank, label: `${describeCandidate(candidate)}${overlapLabel(scenario.parallelism)}`, scenario, estimate };
  if (estimate.timeToTrain) {
    json.days = estimate.timeToTrain.days;
    json.gpuHours = estimate.timeToTrain.gpuHours;
    if (pricePerGpuHour !== undefined) json.cost = estimate.timeToTrain.gpuHours * pricePerGpuHour;
  }
  return json;
}

/**
 * " · overlap grad-reduce, tp-comm, p2p": the communication a plan hides, as the search's --overlap names it, where the
 * request asked for any (each only where the plan can run it: candidate.ts), so that a plan's label says what its time assumes.
 */
function overlapLabel(p: ScenarioInput['parallelism']): string {
  const on = [
    ...(p?.overlapGradReduce === true ? ['grad-reduce'] : []),
    ...(p?.overlapTensorParallelComm === true ? ['tp-comm'] : []),
    ...(p?.overlapPipelineComm === true ? ['p2p'] : []),
  ];
  return on.length > 0 ? ` · overlap ${on.join(', ')}` : '';
}

export function statsJson(result: SearchResult): SearchStatsJson {
  return {
    spaceSize: result.spaceSize,
    candidatesEvaluated: result.candidatesEvaluated,
    fullEstimates: result.fullEstimates,
    budgetExhausted: result.budgetExhausted,
    pruned: prunedJson(result.pruned),
  };
}
