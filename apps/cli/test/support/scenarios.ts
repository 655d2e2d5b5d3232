import { CONTRACT_EXAMPLE, type EstimateOk } from '@trainplan/protocol';
import { GiB, billion, days } from '@trainplan/units';

/** The scenario of ../shared/docs/scenario-contract.md: GPT-3 175B on 1,024 A100s (Megatron SC'21). */
export const contractScenario = CONTRACT_EXAMPLE;

/** The contract scenario with some fields replaced, e.g. `withParallelism({ tensor: 0 })`. */
export const withParallelism = (p: Record<string, unknown>) => ({
  ...contractScenario,
  parallelism: { ...contractScenario.parallelism, ...p },
});
export const withTraining = (t: Record<string, unknown>) => ({
  ...contractScenario,
  training: { ...contractScenario.training, ...t },
});

/**
 * 175B parameters over only 8 tensor-parallel ranks and no pipeline: ~22B parameters per GPU
 * need ~350 GB of weights, gradients and Adam states on an 80 GiB GPU, whatever the calibration.
 */
export const outOfMemoryScenario = {
  ...withParallelism({ pipeline: 1, recompute: 'none' }),
  cluster: { ...contractScenario.cluster, nodes: 16 },
};

/** 1000 is not a multiple of micro-batch × data-parallel = 1 × 16. */
export const indivisibleScenario = withTraining({ globalBatchSize: 1000 });

/**
 * A hand-written answer for the formatting tests: shaped like the planner's, with round numbers,
 * so the report's layout is tested without depending on the planner's calibration.
 */
export const fixtureEstimate: EstimateOk = {
  ok: true,
  stepTimeSeconds: 20,
  tokensPerSecond: 157_286.4,
  modelTflopsPerGpu: 150,
  hardwareTflopsPerGpu: 200,
  mfu: 0.48,
  hfu: 0.64,
  memory: {
    weightsBytes: GiB(5),
    gradientsBytes: GiB(10),
    optimizerBytes: GiB(30),
    activationsBytes: GiB(5),
    otherBytes: GiB(2),
    // The 1.5 GiB runtime reserve and 10% of the 5 GiB of activations; no ZeRO-3, and the step's copy below the activations.
    otherParts: { runtimeReserveBytes: GiB(1.5), fragmentationBytes: GiB(0.5), zero3GatheredBytes: 0, optimizerStepBytes: 0 },
    totalBytes: GiB(52),
    capacityBytes: GiB(80),
    fits: true,
  },
  breakdown: {
    computeSeconds: 15,
    tensorParallelCommSeconds: 2,
    contextParallelCommSeconds: 0,
    contextParallelCommTotalSeconds: 0,
    pipelineBubbleSeconds: 1.5,
    pipelineCommSeconds: 0.5,
    dataParallelCommSeconds: 0.9,
    optimizerSeconds: 0.1,
    recomputeSeconds: 3.75,
    dataParallelCommTotalSeconds: 2.4,
  },
  samplesPerSecond: 76.8,
  modelFlopsPerStep: 3.072e18,
  hardwareFlopsPerStep: 4.096e18,
  parameters: billion(175),
  resolved: {
    model: 'gpt3-175b', gpu: 'a100-80gb', network: 'hdr-ib-8x', gpusPerNode: 8, nodes: 128, gpus: 1024,
    tensor: 8, pipeline: 8, data: 16, context: 1, virtualStages: 1, microBatchSize: 1, microBatches: 96,
    globalBatchSize: 1536, seqLength: 2048, precision: 'bf16', recompute: 'full', sequenceParallel: false,
    distributedOptimizer: false, zeroStage: 0, schedule: '1f1b', communicationModel: 'closed-form', oversubscription: 1,
  },
  timeToTrain: { tokens: billion(300), seconds: days(30), days: 30, gpuHours: 737_280 },
  warnings: ['the pipeline bubble is large: try more micro-batches or virtual stages'],
};
