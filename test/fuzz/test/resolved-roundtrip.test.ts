import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NETWORK_IDS, SYSTEM_IDS } from '@trainplan/hardware';
import { runEstimate, scenarioOfResolved, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { validScenario } from '../src/index.ts';

/**
 * QA: an estimate's `resolved` block is "the scenario as evaluated, every default and derived value filled in", so fed
 * back as a scenario it must give the same estimate. The switches the base generator leaves at their defaults are
 * drawn here, each sometimes left out so that its default is what `resolved` has to state.
 */
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });

const switches = fc.record({
  scatterGather: maybe(fc.boolean()),
  overlapGradReduce: maybe(fc.boolean()),
  overlapTensorParallelComm: maybe(fc.boolean()),
  overlapPipelineComm: maybe(fc.boolean()),
  asyncTensorParallelGradComm: maybe(fc.boolean()),
  virtualStages: fc.constantFrom(1, 1, 2, 4),
  gpipe: fc.boolean(),
  zeroStage: maybe(fc.constantFrom(0, 1, 2, 3 as const)),
  recomputeLayers: maybe(fc.constantFrom(1, 2, 4)),
  embeddingInPipelineSplit: maybe(fc.boolean()),
  lossInPipelineSplit: maybe(fc.boolean()),
  dropout: maybe(fc.boolean()),
  attentionKernel: maybe(fc.constantFrom('flash', 'unfused' as const)),
  crossEntropyKernel: maybe(fc.constantFrom('fused', 'unfused' as const)),
  fp8Params: maybe(fc.boolean()),
  seqLength: maybe(fc.constantFrom(1024, 2048, 8192)),
  system: maybe(fc.constantFrom(...SYSTEM_IDS)),
  network: maybe(fc.constantFrom(...NETWORK_IDS)),
  gpusNotNodes: fc.boolean(),
  emulated: fc.integer({ min: 0, max: 9 }),
  oversubscription: maybe(fc.constantFrom(1, 2, 4)),
  modelName: maybe(fc.constantFrom('my-1b', 'llama3-8b')),
  positionEmbedding: maybe(fc.constantFrom('learned', 'rotary', 'alibi' as const)),
  linearBias: maybe(fc.boolean()),
  normalization: maybe(fc.constantFrom('layernorm', 'rmsnorm' as const)),
});

/** Drops the fields left undefined: a scenario refuses no key, but it should read as a caller writes one. */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const richScenario: fc.Arbitrary<ScenarioInput> = fc.tuple(validScenario, switches).map(([s, w]) => {
  const p = s.parallelism ?? {};
  const gpus = (s.cluster.nodes ?? 0) * (s.cluster.gpusPerNode ?? 8);
  const interleaved = w.virtualStages > 1 && (p.pipeline ?? 1) > 1;
  const model = typeof s.model === 'string' ? s.model : defined({
    ...s.model, name: w.modelName, positionEmbedding: w.positionEmbedding, linearBias: w.linearBias, normalization: w.normalization,
  });
  return {
    model,
    cluster: defined({
      gpu: w.system ?? s.cluster.gpu,
      ...(w.gpusNotNodes ? { gpus } : { nodes: s.cluster.nodes, gpusPerNode: s.cluster.gpusPerNode }),
      network: w.network,
      // The emulator is slow on large clusters: a tenth of the scenarios of at most 32 GPUs.
      ...(w.emulated === 0 && gpus <= 32 && { communicationModel: 'emulated' as const }),
      oversubscription: w.oversubscription,
    }),
    training: defined({
      ...s.training,
      dropout: w.dropout, attentionKernel: w.attentionKernel, crossEntropyKernel: w.crossEntropyKernel, seqLength: w.seqLength,
      fp8Params: s.training.precision === 'fp8' ? w.fp8Params : undefined,
    }),
    parallelism: defined({
      ...p,
      ...(interleaved ? { virtualStages: w.virtualStages } : w.gpipe && { schedule: 'gpipe' as const }),
      ...(w.zeroStage !== undefined && { zeroStage: w.zeroStage, distributedOptimizer: undefined }),
      recomputeLayers: p.recompute === 'full' ? w.recomputeLayers : undefined,
      embeddingInPipelineSplit: w.embeddingInPipelineSplit, lossInPipelineSplit: w.lossInPipelineSplit,
      scatterGather: w.scatterGather, overlapGradReduce: w.overlapGradReduce, overlapTensorParallelComm: w.overlapTensorParallelComm,
      overlapPipelineComm: w.overlapPipelineComm, asyncTensorParallelGradComm: w.asyncTensorParallelGradComm,
    }),
  };
});

/** An answer without its warnings: advice for humans, which may differ where the fed-back scenario spells out a default. */
const withoutWarnings = (a: EstimateJson): string => JSON.stringify({ ...a, warnings: undefined });

describe('an estimate\'s resolved block fed back as a scenario', () => {
  it('gives the same estimate, to the bit (step time, breakdown, memory, MFU, and resolved itself), over random scenarios', () => {
    let fedBack = 0;
    let feasible = 0;
    fc.assert(fc.property(richScenario, (scenario) => {
      const first = runEstimate(scenario) as EstimateJson;
      // A plan that does not fit is answered with its resolved block too, and must round-trip as well.
      if (!first.ok && first.resolved === undefined) return;
      const resolved = first.ok ? first.resolved : first.resolved!;
      const again = runEstimate(scenarioOfResolved(resolved)) as EstimateJson;
      expect(withoutWarnings(again), JSON.stringify(scenario)).toBe(withoutWarnings(first));
      fedBack += 1;
      if (first.ok) feasible += 1;
    }), { numRuns: 2_000 });
    expect(feasible).toBeGreaterThanOrEqual(100);
    expect(fedBack).toBeGreaterThan(feasible);
  });
});
