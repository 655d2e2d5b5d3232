import type { StateSharding } from '@trainplan/model';
import { overlapPipelineCommFor, overlapTensorParallelCommFor, scatterGatherFor, type Candidate, type SearchBase } from '@trainplan/search';
import { gpuIssues } from '@trainplan/planner';
import { pipelineSplitFlags } from '../pipeline-split-flags.ts';
import { resolveScenario } from '../resolve.ts';
import { validateScenario } from '../scenario-schema.ts';
import type { FieldIssue, ScenarioInput } from '../wire.ts';
import type { SearchRequestCore } from './search-schema.ts';

export type { SearchRequestCore };

/** A request resolved to the search's input, with what is needed to write each plan back as a scenario. */
export interface ResolvedSearch {
  readonly base: SearchBase;
  readonly core: SearchRequestCore;
  /** The contract cluster fields every answer's scenarios use (a system id becomes its GPU, node size and network). */
  readonly cluster: { gpu: string; gpusPerNode: number; network: string };
}

/**
 * Resolves the model, GPU (or system) and network through the scenario path itself (resolveScenario),
 * so a plan written back as a scenario is estimated with exactly the machine the search used. The
 * cluster is `nodes` nodes, or `gpus` GPUs as the scenario takes them (fewer than a node are one
 * partly used node).
 */
export function resolveSearch(core: SearchRequestCore, size: { nodes: number } | { gpus: number }): { ok: true; value: ResolvedSearch } | { ok: false; issues: FieldIssue[] } {
  // A system id in cluster.gpu (its GPU, node size and network) is resolveScenario's to read.
  const probe: ScenarioInput = {
    model: core.model,
    cluster: {
      gpu: core.cluster.gpu,
      ...size,
      ...(core.cluster.gpusPerNode !== undefined && { gpusPerNode: core.cluster.gpusPerNode }),
      ...(core.cluster.network !== undefined && { network: core.cluster.network }),
    },
    training: { ...core.training, globalBatchSize: core.training.globalBatchSize },
    parallelism: { ...core.settings },
  };
  const valid = validateScenario(probe);
  if (!valid.ok) return { ok: false, issues: valid.issues };
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) return { ok: false, issues: resolved.issues };
  const { plan, gpuId, networkId } = resolved.value;
  // The planner's own rules for what the GPU runs (checkPlan), asked once for the whole search.
  const unrunnable = gpuIssues(plan);
  if (unrunnable.length > 0) return { ok: false, issues: unrunnable.map(({ path, message }) => ({ path, message })) };
  // The parallel strategy is what the search chooses; the rest of the plan is its base.
  const { tensor: _t, pipeline: _p, pipelineSlots: _ps, data: _d, context: _c, virtualStages: _v, schedule: _s, microBatchSize: _b,
    sequenceParallel: _sp, recompute: _r, recomputeLayers: _n, sharding: _z, ...base } = plan;
  return { ok: true, value: { base, core, cluster: { gpu: gpuId, gpusPerNode: plan.gpusPerNode, network: networkId } } };
}

function shardingFields(s: StateSharding): { distributedOptimizer?: boolean; zeroStage?: 0 | 1 | 2 | 3 } {
  if (s === 'distributed-optimizer') return { distributedOptimizer: true };
  if (s === 'none') return { distributedOptimizer: false };
  return { zeroStage: Number(s.slice(5)) as 1 | 2 | 3 };
}

/** One candidate on `nodes` nodes as a complete contract scenario (every switch spelled out). */
export function candidateScenario(r: ResolvedSearch, c: Candidate, nodes: number): ScenarioInput {
  const t = r.core.training;
  return {
    model: r.core.model,
    cluster: { gpu: r.cluster.gpu, gpusPerNode: r.cluster.gpusPerNode, nodes, network: r.cluster.network },
    training: {
      globalBatchSize: t.globalBatchSize,
      microBatchSize: c.microBatchSize,
      precision: r.base.precision,
      ...(t.seqLength !== undefined && { seqLength: t.seqLength }),
      ...(t.tokens !== undefined && { tokens: t.tokens }),
      dropout: r.base.dropout,
      attentionKernel: r.base.attentionKernel,
      ...(t.gradientAccumulation !== undefined && { gradientAccumulation: t.gradientAccumulation }),
      ...(t.fp8Params === true && { fp8Params: true }),
    },
    parallelism: {
      tensor: c.tensor,
      pipeline: c.pipeline,
      // Spelled out only when the embedding or the loss takes a layer's place: other plans read as before.
      ...(c.pipelineSlots !== undefined && c.pipelineSlots !== 'layers' && pipelineSplitFlags(c.pipelineSlots)),
      data: c.data,
      virtualStages: c.virtualStages,
      context: c.context,
      sequenceParallel: c.sequenceParallel,
      recompute: c.recompute,
      ...(c.recomputeLayers !== undefined && { recomputeLayers: c.recomputeLayers }),
      ...shardingFields(c.sharding),
      schedule: c.virtualStages > 1 ? 'interleaved' : '1f1b',
      ...r.core.settings,
      scatterGather: scatterGatherFor(r.core.settings.scatterGather, c),
      overlapPipelineComm: overlapPipelineCommFor(r.core.settings.overlapPipelineComm, c),
      overlapTensorParallelComm: overlapTensorParallelCommFor(r.core.settings.overlapTensorParallelComm, c, r.base.nvlinkDomainGpus),
    },
  };
}
