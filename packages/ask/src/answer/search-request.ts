import { toDays } from '@trainplan/units';
import { DEFAULT_GPU, defaultBatch, defaultBatchNote, gpusPerNodeOf, isComputedBatch } from '../defaults.ts';
import type { AskParameters, ParsedQuestion } from '../question.ts';
import { shardingOf } from '../sharding.ts';
import { searchTrainingSwitches, switchConstraints } from './search-switches.ts';
import { partNodesProblem } from './whole-counts.ts';

/** What a search answer (search-answer.ts, best-configuration.ts) asks the protocol's runNodes and runSearch, from the question. */

/** The search's machine: a system id when a node type was named (it fixes the fabric), else the GPU. */
export const machineOf = (p: AskParameters): { gpu: string; gpusPerNode?: number; network?: string } => ({
  gpu: p.system ?? p.gpu ?? DEFAULT_GPU,
  ...(p.network !== undefined && { network: p.network }),
  ...(p.gpusPerNode !== undefined && { gpusPerNode: p.gpusPerNode }),
});

interface Training extends ReturnType<typeof searchTrainingSwitches> {
  globalBatchSize?: number;
  precision: NonNullable<AskParameters['precision']>;
  seqLength?: number;
  dropout?: boolean;
}

/**
 * Sequences per step: the stated global batch, else the default one (defaultBatch), said among the assumptions.
 * None where the default cannot be computed ("on 0 nodes"): the protocol refuses the bad field, and the batch it
 * then misses is left unsaid beside it (issuesWords).
 */
export function trainingOf(p: AskParameters): { training: Training; assumptions: string[] } {
  const rest = {
    precision: p.precision ?? 'bf16', ...(p.seqLength !== undefined && { seqLength: p.seqLength }),
    // A model sized in a family's style trains as its rows did (custom-model.ts trainedWithDropout); a preset states its own.
    ...(p.customModel !== undefined && { dropout: p.customModel.trainedWithDropout }),
    // Dropout, the attention kernel and FP8 weights as stated, over the model's own (search-switches.ts).
    ...searchTrainingSwitches(p),
  } as const;
  if (p.globalBatchSize !== undefined) return { training: { globalBatchSize: p.globalBatchSize, ...rest }, assumptions: [] };
  const batch = defaultBatch(p);
  if (!isComputedBatch(batch)) return { training: rest, assumptions: [] };
  return { training: { globalBatchSize: batch.sequences, ...rest }, assumptions: [defaultBatchNote(batch)] };
}

/**
 * The question's own settings as search constraints, each held exactly: recompute, micro-batch,
 * sequence parallelism, sharding (shardingOf's one choice), and the tensor, pipeline, context and
 * virtual-stage sizes (the search's exact lists: "with tp 8" plans TP 8, not TP 8 or less).
 */
export function constraintsOf(p: AskParameters): Record<string, unknown> {
  const sharding = shardingOf(p);
  return {
    ...(p.recompute !== undefined && { recompute: [p.recompute] }),
    ...(p.microBatchSize !== undefined && { microBatchSizes: [p.microBatchSize] }),
    ...(p.sequenceParallel !== undefined && { sequenceParallel: [p.sequenceParallel] }),
    ...(sharding !== undefined && { sharding: [sharding] }),
    ...(p.tensor !== undefined && { tensorSizes: [p.tensor] }),
    ...(p.pipeline !== undefined && { pipelineSizes: [p.pipeline] }),
    ...(p.context !== undefined && { contextSizes: [p.context] }),
    ...(p.virtualStages !== undefined && { virtualStageCounts: [p.virtualStages] }),
    // The share of memory and the schedule stated (search-switches.ts).
    ...switchConstraints(p),
  };
}

/**
 * Whole nodes for the question's cluster; fewer GPUs than one node ("on 1 GPU", "on 4 H100") are one node of
 * that many, as the best configuration plans them (runSearch's cluster.gpus); a problem sentence when GPUs past
 * one node do not fill whole nodes.
 */
export function nodesOf(p: AskParameters): { nodes: number; gpusPerNode?: number } | string {
  if (p.nodes !== undefined) return { nodes: p.nodes };
  const perNode = gpusPerNodeOf(p);
  const gpus = p.gpus ?? perNode;
  if (gpus < perNode && p.gpusPerNode === undefined) return { nodes: 1, gpusPerNode: gpus };
  return gpus % perNode === 0 ? { nodes: gpus / perNode } : partNodesProblem(gpus, perNode);
}

/** The request's goal: a deadline or budget (nodes, and cheapest with a deadline), nodes (time), or the frontier (cheapest). */
export function goalOf(q: ParsedQuestion): (Record<string, unknown> & { gpusPerNode?: number }) | string {
  const p = q.parameters;
  if (q.intent === 'time') {
    return nodesOf(p);
  }
  // Cheapest with a GPU-hour budget but no deadline: the cheapest plan, said against the budget (budgetNotes of the cheapest).
  if (q.intent === 'cheapest' && p.deadlineSeconds === undefined) return { frontier: true };
  return {
    ...(p.deadlineSeconds !== undefined && { days: toDays(p.deadlineSeconds) }),
    ...(p.gpuHours !== undefined && { gpuHours: p.gpuHours }),
    ...(p.costBudget !== undefined && { budget: p.costBudget }),
  };
}
