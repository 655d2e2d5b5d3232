import { modelStateBytes, parameterBreakdown } from '@trainplan/model';
import type { EstimateOk, MemoryJson } from '@trainplan/protocol';
import { formatBytes } from '@trainplan/units';
import { compactCount } from '../format.ts';
import { asksOptimizerStates as asksStatesIn } from '../lexicon/optimizer-states.ts';
import { modelNameOf, modelShapeOf } from '../model-of.ts';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';

/**
 * "Optimizer state space for llama3-70b", "adam states size for 70B": a memory answer led by the optimizer states. Their
 * bytes are Megatron's mixed precision with Adam, as every plan here counts them (packages/model model-states.ts; the
 * project's model reference, ../shared/docs/model-reference.md §3 "Memory per GPU"): FP32 master weights, Adam's momentum
 * and variance, 4 bytes each, 12 bytes a parameter; with 16-bit weights 2 and FP32 gradients 4, 18 bytes a parameter of
 * model states. Megatron's distributed optimizer (and ZeRO-1 on) shards the 12 over the d data-parallel ranks: 6 + 12/d.
 * The per-GPU figure is the plan's own (the most loaded pipeline stage's, tensor parallelism splitting the states t ways).
 */

/** The plan whose memory is shown: a fixed configuration's estimate (out of memory too), or a search's best. */
type Planned = Pick<EstimateOk, 'memory'> & { resolved?: EstimateOk['resolved'] };

function plannedOf(data: unknown): Planned | undefined {
  const d = data as { memory?: MemoryJson; resolved?: EstimateOk['resolved']; best?: { estimate?: EstimateOk } } | undefined;
  if (d?.memory !== undefined) return { memory: d.memory, ...(d.resolved !== undefined && { resolved: d.resolved }) };
  return d?.best?.estimate;
}

/**
 * "TP 8 · PP 1, one replica", "TP 4 · PP 4, sharded over DP 1 × CP 2": how the plan splits the states over its GPUs. The
 * ranks holding the same weights are data × context parallel (the planner's weightReplicas): a sharded optimizer splits
 * the states over all of them, as Megatron's distributed optimizer shards over its data-and-context-parallel group.
 */
function splitText(r: EstimateOk['resolved']): string {
  const replicas = r.data * r.context;
  const ranks = r.context > 1 ? `DP ${r.data} × CP ${r.context}` : `DP ${r.data}`;
  const sharded = r.distributedOptimizer || r.zeroStage >= 1;
  const over = sharded ? `sharded over ${ranks}` : replicas > 1 ? `each of the ${replicas} replicas (${ranks}) holding its own copy` : 'one replica';
  return `TP ${r.tensor} · PP ${r.pipeline}, ${over}`;
}

/** Whether the question asks the optimizer states' size. */
export const asksOptimizerStates = (q: ParsedQuestion): boolean => q.intent === 'memory' && asksStatesIn(normalize(q.text));

/** The memory answer led by the optimizer states, whole and per GPU; unchanged where the question does not ask them or no model shape is known. */
export function asOptimizerStates(q: ParsedQuestion, a: Answer): Answer {
  const shape = modelShapeOf(q.parameters);
  if (!asksOptimizerStates(q) || shape === undefined || a.kind !== 'answer') return a;
  const parameters = parameterBreakdown(shape).total;
  // Bytes a parameter (the model package's, never restated here): Megatron's unsharded, and ZeRO's for its 2 + 2 + 12/d.
  const per = modelStateBytes({ parameters: 1, sharding: 'none', dataParallel: 1 });
  const zero = modelStateBytes({ parameters: 1, sharding: 'zero-1', dataParallel: 1 });
  const optimizerBytes = per.optimizer * parameters;
  const statesBytes = (per.weights + per.gradients + per.optimizer) * parameters;
  const planned = plannedOf(a.data);
  const asked = a.ok ? '' : ' as asked';
  const perGpu = planned === undefined ? ''
    : `; ${formatBytes(planned.memory.optimizerBytes)} per GPU${asked}${planned.resolved === undefined ? '' : ` (${splitText(planned.resolved)})`}`;
  const name = modelNameOf(q.parameters);
  const headline = `Optimizer states of ${name}: ${formatBytes(optimizerBytes)} in all, ${per.optimizer} bytes a parameter × ${compactCount(parameters)} parameters `
    + `(FP32 master weights, Adam's momentum and variance, 4 bytes each)${perGpu}`;
  const modelStates = `Model states in mixed precision with Adam (Megatron): ${per.weights} bytes a parameter of 16-bit weights + ${per.gradients} of FP32 gradients + ${per.optimizer} of optimizer states `
    + `= ${per.weights + per.gradients + per.optimizer} bytes a parameter, ${formatBytes(statesBytes)} for ${name}; Megatron's distributed optimizer shards the ${per.optimizer} over the d data-parallel ranks `
    + `(${per.weights + per.gradients} + ${per.optimizer}/d bytes a parameter; say "with distributed optimizer"), as ZeRO-1 does (${zero.weights} + ${zero.gradients} + ${zero.optimizer}/d).`;
  return {
    ...a,
    headline,
    figures: [
      ...(planned === undefined ? [] : [{ label: `Optimizer states per GPU${asked}`, value: formatBytes(planned.memory.optimizerBytes) }]),
      { label: 'Optimizer states in all', value: `${formatBytes(optimizerBytes)} (${per.optimizer} B × ${compactCount(parameters)} parameters)` },
      ...a.figures,
    ],
    notes: [modelStates, `Training memory: ${a.headline}`, ...a.notes],
  };
}
