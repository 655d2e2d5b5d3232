import { clusterGpusCap, MAX_CLUSTER_GPUS, MAX_CLUSTER_NODES } from '../cluster-caps.ts';
import { object, optional } from '../schema/object.ts';
import { integer } from '../schema/scalars.ts';
import type { Schema } from '../schema/types.ts';
import { jsonSchemaDocument, validate } from '../schema/validate.ts';
import { modelSchema } from '../scenario-schema.ts';
import type { ResolvedModelObject } from '../resolved.ts';
import type { FieldIssue, GradientAccumulationId, PrecisionId } from '../wire.ts';
import {
  candidateBudgetSchema, constraintsSchema, objectiveSchema, pricePerGpuHourSchema, searchClusterFields,
  searchTrainingFields, settingsSchema, topSchema,
} from './request-parts.ts';
import type { SearchObjectiveId } from './wire.ts';
import type { RecomputeChoice } from '@trainplan/search';
import type { PipelineSlots, StateSharding } from '@trainplan/model';

/** What every search-like request (search, nodes, scale) carries once validated. */
export interface SearchRequestCore {
  model: string | ResolvedModelObject;
  cluster: { gpu: string; gpusPerNode?: number; network?: string; nodes?: number; gpus?: number };
  training: {
    globalBatchSize: number; precision?: PrecisionId; seqLength?: number; tokens?: number; dropout?: boolean;
    attentionKernel?: 'flash' | 'unfused'; gradientAccumulation?: GradientAccumulationId; fp8Params?: boolean;
  };
  settings: { scatterGather: boolean; overlapGradReduce: boolean; overlapTensorParallelComm: boolean; overlapPipelineComm: boolean };
}

/** A validated search request, every default filled in. */
export interface SearchRequest extends SearchRequestCore {
  constraints: {
    tensorSizes?: number[]; pipelineSizes?: number[]; contextSizes?: number[]; virtualStageCounts?: number[]; pipelineSlots?: PipelineSlots[];
    maxTensor?: number; tensorWithinNode?: boolean; maxPipeline?: number; maxContext?: number; maxVirtualStages?: number;
    microBatchSizes?: number[]; recompute?: RecomputeChoice[]; sharding?: StateSharding[]; sequenceParallel?: boolean[];
    memoryFraction?: number;
  };
  objective: SearchObjectiveId;
  pricePerGpuHour?: number;
  top: number;
  candidateBudget?: number;
}

const cluster = object({
  ...searchClusterFields,
  nodes: optional(integer({ min: 1, max: MAX_CLUSTER_NODES, description: 'Nodes; give this or gpus.' })),
  gpus: optional(integer({ min: 1, max: MAX_CLUSTER_GPUS, description: 'GPUs in all; give this or nodes. At most 1,000,000 nodes of the machine\'s size: 8,000,000 on 8-GPU nodes.' })),
}, {
  expected: 'a cluster object',
  description: 'The machines: a GPU or system id, and exactly one of nodes and gpus.',
  refine(raw, issue) {
    const hasNodes = raw.nodes !== undefined;
    if (hasNodes === (raw.gpus !== undefined)) issue('nodes', `give either cluster.nodes or cluster.gpus, ${hasNodes ? 'not both' : 'got neither'}`);
    clusterGpusCap(raw, issue);
  },
  jsonSchema: { oneOf: [{ required: ['nodes'] }, { required: ['gpus'] }] },
});

export const searchRequestSchema: Schema<SearchRequest> = object({
  model: modelSchema,
  cluster,
  training: object(searchTrainingFields, { expected: 'a training object', description: 'The batch and precision; the micro-batch is searched.' }),
  settings: settingsSchema,
  constraints: constraintsSchema,
  objective: objectiveSchema,
  pricePerGpuHour: pricePerGpuHourSchema,
  top: topSchema,
  candidateBudget: candidateBudgetSchema,
}, {
  expected: 'a search request object',
  description: 'Find the fastest (or cheapest) parallel configuration of a model on a cluster.',
  refine(raw, issue) {
    const training = (raw.training ?? {}) as Record<string, unknown>;
    if (raw.objective === 'time-to-train' && training.tokens === undefined) issue('training', 'objective "time-to-train" needs training.tokens');
    if (raw.objective === 'cost' && (training.tokens === undefined || raw.pricePerGpuHour === undefined)) {
      issue('pricePerGpuHour', 'objective "cost" needs training.tokens and pricePerGpuHour');
    } else if (raw.pricePerGpuHour !== undefined && training.tokens === undefined) {
      // A price alone would be dropped unanswered: the cost is of the GPU-hours that training the tokens takes.
      issue('pricePerGpuHour', 'a price costs the GPU-hours of training.tokens: give training.tokens, or leave pricePerGpuHour out');
    }
  },
});

export const searchRequestJsonSchema = /* @__PURE__ */ jsonSchemaDocument(searchRequestSchema, {
  id: 'https://trainplan.dev/schemas/search-request.json', title: 'Search request',
});

export function validateSearchRequest(value: unknown): { ok: true; value: SearchRequest } | { ok: false; issues: FieldIssue[] } {
  return validate(searchRequestSchema, value);
}
