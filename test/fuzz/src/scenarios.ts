import fc from 'fast-check';
import { GPU_IDS, MODEL_IDS } from '@trainplan/presets';
import type { ScenarioInput } from '@trainplan/protocol';

const pow2 = (max: number) => fc.constantFrom(...[1, 2, 4, 8, 16, 32, 64, 128, 256].filter((n) => n <= max));

/** A custom transformer shape whose heads divide the hidden size (GQA sometimes). */
const customModel = fc.record({
  layers: fc.integer({ min: 1, max: 128 }),
  heads: pow2(128),
  headDim: fc.constantFrom(64, 80, 128),
  kvDivisor: pow2(8),
  vocabSize: fc.integer({ min: 1_000, max: 256_000 }),
  seqLength: fc.constantFrom(512, 1024, 2048, 4096, 8192),
  gatedMlp: fc.boolean(),
  tiedEmbeddings: fc.boolean(),
}).map((m) => ({
  layers: m.layers,
  hiddenSize: m.heads * m.headDim,
  attentionHeads: m.heads,
  kvHeads: Math.max(1, m.heads / m.kvDivisor),
  vocabSize: m.vocabSize,
  seqLength: m.seqLength,
  gatedMlp: m.gatedMlp,
  tiedEmbeddings: m.tiedEmbeddings,
}));

/**
 * Scenarios that pass validation: any preset or custom model on any GPU, power-of-two splits. They
 * need not be feasible (layers or heads may not divide, memory may not fit): those answers are checked too.
 */
export const validScenario: fc.Arbitrary<ScenarioInput> = fc.record({
  model: fc.oneof(fc.constantFrom(...MODEL_IDS), customModel),
  gpu: fc.constantFrom(...GPU_IDS),
  tensor: pow2(8),
  pipeline: pow2(16),
  context: pow2(2),
  data: pow2(256),
  micro: pow2(4),
  microBatchesPerReplica: pow2(64),
  recompute: fc.constantFrom('none', 'selective', 'full' as const),
  sequenceParallel: fc.boolean(),
  distributedOptimizer: fc.boolean(),
  precision: fc.constantFrom('bf16', 'fp16', 'fp8' as const),
  gradientAccumulation: fc.option(fc.constantFrom('fused', 'fused-16-bit', '16-bit', 'fp32' as const), { nil: undefined }),
  tokens: fc.option(fc.integer({ min: 1, max: 10_000 }).map((b) => b * 1e9), { nil: undefined }),
}).map((s) => {
  const gpus = s.tensor * s.pipeline * s.context * s.data;
  const gpusPerNode = Math.min(8, gpus);
  return {
    model: s.model,
    cluster: { gpu: s.gpu, gpusPerNode, nodes: gpus / gpusPerNode },
    training: {
      globalBatchSize: s.micro * s.microBatchesPerReplica * s.data,
      microBatchSize: s.micro,
      precision: s.precision,
      ...(s.gradientAccumulation === undefined ? {} : { gradientAccumulation: s.gradientAccumulation }),
      ...(s.tokens === undefined ? {} : { tokens: s.tokens }),
    },
    parallelism: {
      tensor: s.tensor,
      pipeline: s.pipeline,
      context: s.context,
      recompute: s.recompute,
      sequenceParallel: s.sequenceParallel && s.tensor > 1,
      distributedOptimizer: s.distributedOptimizer,
    },
  };
});
