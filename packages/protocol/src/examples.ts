import type { ScenarioInput } from './wire.ts';

/**
 * The example of ../shared/docs/scenario-contract.md, verbatim: GPT-3 175B on 128 DGX A100 with
 * Megatron's SC'21 configuration. Shared by tests, benchmarks, docs pages and the CLI help.
 */
export const CONTRACT_EXAMPLE = {
  model: 'gpt3-175b',
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, nodes: 128, network: 'hdr-ib-8x' },
  training: { globalBatchSize: 1536, microBatchSize: 1, precision: 'bf16' },
  parallelism: {
    tensor: 8, pipeline: 8, virtualStages: 1, context: 1,
    sequenceParallel: false, recompute: 'full', distributedOptimizer: false,
  },
} as const satisfies ScenarioInput;
