import type { ScenarioInput } from '@trainplan/protocol';
import type { Budget } from '../form/scenario-from-fields.ts';

/** The machine and batch of a scenario, without its parallel configuration (what the search chooses). */
function base(s: ScenarioInput) {
  const { gpu, gpusPerNode, network } = s.cluster;
  const { globalBatchSize, precision, seqLength, fp8Params } = s.training;
  return {
    model: s.model,
    cluster: { gpu, ...(gpusPerNode !== undefined ? { gpusPerNode } : {}), ...(network !== undefined ? { network } : {}) },
    // FP8 weights: the search then plans them, with the distributed optimizer only (megatronShardings).
    training: { globalBatchSize, ...(precision !== undefined ? { precision } : {}), ...(seqLength !== undefined ? { seqLength } : {}), ...(fp8Params ? { fp8Params } : {}) },
  };
}

/** A search request (@trainplan/search's runSearch / POST /v1/search): the fastest configuration on these nodes. */
export function searchRequestFor(s: ScenarioInput): object {
  const b = base(s);
  const tokens = s.training.tokens;
  return {
    ...b,
    cluster: { ...b.cluster, nodes: s.cluster.nodes ?? 1 },
    training: { ...b.training, ...(tokens !== undefined ? { tokens } : {}) },
    objective: 'throughput',
    top: 1,
  };
}

/** A "how many nodes" request (runNodes / POST /v1/nodes): the fewest nodes that meet the deadline. */
export function nodesRequestFor(s: ScenarioInput, budget: Required<Budget>): object {
  return { ...base(s), tokens: budget.tokens, days: budget.deadlineDays };
}

/** A time–cost curve request (runNodes with frontier / POST /v1/nodes): every cluster size's days and GPU-hours for the tokens. */
export function frontierRequestFor(s: ScenarioInput, tokens: number): object {
  return { ...base(s), tokens, frontier: true };
}
