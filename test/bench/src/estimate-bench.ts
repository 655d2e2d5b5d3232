import { estimatePlan } from '@trainplan/planner';
import { resolveScenario, runEstimate, validateScenario, type ScenarioInput } from '@trainplan/protocol';
import { measure, type Measurement } from './measure.ts';

/** The scenario contract's example: GPT-3 175B on 128 DGX A100. */
export const CONTRACT_EXAMPLE: ScenarioInput = {
  model: 'gpt3-175b',
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 128, network: 'hdr-ib-8x' },
  training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 8, pipeline: 8, virtualStages: 1, context: 1, sequenceParallel: false, recompute: 'full', distributedOptimizer: false },
};

const LLAMA: ScenarioInput = {
  model: 'llama3-70b',
  cluster: { gpu: 'h100-sxm', nodes: 8 },
  training: { globalBatchSize: 128, microBatchSize: 1, precision: 'bf16' },
  parallelism: { tensor: 4, pipeline: 4, context: 2, virtualStages: 5, sequenceParallel: true, distributedOptimizer: true, overlapGradReduce: true },
};

function plan(s: ScenarioInput) {
  const v = validateScenario(s);
  if (!v.ok) throw new Error('bench scenario invalid');
  const r = resolveScenario(v.value);
  if (!r.ok) throw new Error('bench scenario unresolved');
  return r.value.plan;
}

export function estimateBenchmarks(budgetSeconds: number): Measurement[] {
  const gpt3 = plan(CONTRACT_EXAMPLE);
  const llama = plan(LLAMA);
  return [
    measure('estimatePlan, GPT-3 175B on 1024 A100 (planner only)', () => estimatePlan(gpt3), budgetSeconds),
    measure('estimatePlan, Llama 3 70B on 64 H100, CP 2, v 5 (planner only)', () => estimatePlan(llama), budgetSeconds),
    measure('runEstimate, contract JSON → validated → resolved → estimate JSON', () => runEstimate(CONTRACT_EXAMPLE), budgetSeconds),
  ];
}
