import { layerProfile } from '@trainplan/planner';
import { resolveScenario, validateScenario, type ScenarioInput } from '@trainplan/protocol';

/**
 * Korthikanti et al. 2022, Table 4: one layer of the 22B model (h 6144, 64 heads, s 2048, micro-batch 4,
 * TP 8 on a DGX A100), forward and backward times and the overhead of each recompute mode.
 */
export const TABLE4 = {
  forwardMs: 7.7,
  backwardMs: 11.9,
  fullRecomputeOverhead: 0.39,
  selectiveRecomputeOverhead: 0.07,
  selectiveWithSequenceParallelOverhead: 0.04,
  sequenceParallelForwardMs: 7.2,
} as const;

function layer22b(sequenceParallel: boolean, asyncTensorParallelGradComm: boolean) {
  const scenario: ScenarioInput = {
    model: { name: '22B', layers: 48, hiddenSize: 6144, attentionHeads: 64, vocabSize: 51200, seqLength: 2048 },
    cluster: { gpu: 'a100-80gb', nodes: 1, network: 'hdr-ib-8x' },
    training: { globalBatchSize: 4, microBatchSize: 4, precision: 'fp16', dropout: true, attentionKernel: 'unfused' },
    // Megatron-LM v3.0 (the paper's code) runs backward TP communication asynchronously by default.
    parallelism: { tensor: 8, pipeline: 1, sequenceParallel, asyncTensorParallelGradComm },
  };
  const valid = validateScenario(scenario);
  if (!valid.ok) throw new Error(valid.issues.map((i) => i.message).join('; '));
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) throw new Error(resolved.issues.map((i) => i.message).join('; '));
  return layerProfile(resolved.value.plan);
}

export interface Table4Prediction {
  readonly forwardMs: number;
  readonly backwardMs: number;
  readonly sequenceParallelForwardMs: number;
  readonly fullRecomputeOverhead: number;
  readonly selectiveRecomputeOverhead: number;
  readonly selectiveWithSequenceParallelOverhead: number;
}

/** `asyncTensorParallelGradComm` defaults to the paper's code (on); off shows the synchronous model. */
export function predictTable4(options: { asyncTensorParallelGradComm?: boolean } = {}): Table4Prediction {
  const asyncComm = options.asyncTensorParallelGradComm ?? true;
  const plain = layer22b(false, asyncComm);
  const sp = layer22b(true, asyncComm);
  const base = plain.forwardSeconds + plain.backwardSeconds;
  const baseSp = sp.forwardSeconds + sp.backwardSeconds;
  return {
    forwardMs: plain.forwardSeconds * 1e3,
    backwardMs: plain.backwardSeconds * 1e3,
    sequenceParallelForwardMs: sp.forwardSeconds * 1e3,
    fullRecomputeOverhead: plain.fullRecomputeSeconds / base,
    selectiveRecomputeOverhead: plain.selectiveRecomputeSeconds / base,
    // The paper's +4% compares selective + SP against the baseline without recompute or SP.
    selectiveWithSequenceParallelOverhead: (baseSp + sp.selectiveRecomputeSeconds) / base - 1,
  };
}
