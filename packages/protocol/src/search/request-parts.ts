import { PIPELINE_SLOTS } from '@trainplan/model';
/**
 * The parts the search, nodes and scale requests share: the machine, the training run, the software's
 * switches and the limits on the space. Built with the same schema toolkit as the scenario, so each
 * gives both validation with JSON paths and a JSON Schema for the OpenAPI document.
 */
import { billion, million, thousand, trillion } from '@trainplan/units';
import { MAX_GPUS_PER_NODE } from '../cluster-caps.ts';
import { array } from '../schema/compose.ts';
import { GRADIENT_ACCUMULATION_IDS } from '../wire.ts';
import { attentionKernelSchema, precisionSchema } from '../scenario-schema.ts';
import { object, optional, withDefault } from '../schema/object.ts';
import { boolean, enumOf, integer, number, string } from '../schema/scalars.ts';

const positive = (max: number, description: string) => integer({ min: 1, max, description });
const flag = (description: string) => withDefault(boolean({ description }), false);

/** `gpu` is a GPU preset id or a system preset id (then its GPU, node size and network are the defaults). */
export const searchClusterFields = {
  gpu: string({ minLength: 1, maxLength: 64, description: 'GPU preset id (e.g. a100-80gb) or system preset id (e.g. dgx-h100).' }),
  gpusPerNode: optional(positive(MAX_GPUS_PER_NODE, "GPUs per node; default: the GPU's (or system's) node size.")),
  network: optional(string({ minLength: 1, maxLength: 64, description: "Inter-node fabric preset id; default: the system's." })),
};

export const searchTrainingFields = {
  globalBatchSize: positive(billion(1), 'Sequences per optimizer step.'),
  precision: precisionSchema,
  seqLength: optional(positive(million(10), "Sequence length, in tokens; overrides the model's.")),
  tokens: optional(number({ greaterThan: 0, max: trillion(1000), description: 'A token budget: the answer then carries the time to train.' })),
  dropout: optional(boolean({
    description: "Hidden and attention dropout on (0.1, Megatron's default). Default: as the model was trained, as the scenario's training.dropout.",
  })),
  attentionKernel: attentionKernelSchema,
  gradientAccumulation: optional(enumOf(GRADIENT_ACCUMULATION_IDS, {
    description: "How weight gradients accumulate across micro-batches: 'fused' (default) in the weight-gradient GEMM, 'fused-16-bit' "
      + "the same into a 16-bit buffer reduced at 2 bytes (Megatron's --grad-reduce-in-bf16, NVIDIA's performance recipes; under fp16 "
      + "the same as 'fused'), or a separate add per micro-batch into a 16-bit or fp32 buffer (PyTorch DDP, DeepSpeed), as the "
      + 'scenario\'s training.gradientAccumulation.',
  })),
  fp8Params: optional(boolean({
    description: "With precision \"fp8\", keep the weights themselves in FP8 (Megatron's --fp8-param-gather, NeMo's fp8_params), as the "
      + "scenario's training.fp8Params; default false.",
  })),
};

/** The software's switches: fixed for the whole search, as in the scenario's `parallelism` extensions. */
export const settingsSchema = withDefault(object({
  scatterGather: flag("Megatron's scatter-gather of pipeline sends (SC'21 §4.1)."),
  overlapGradReduce: flag('Overlap the gradient reduction with the backward pass.'),
  overlapTensorParallelComm: flag("Overlap tensor-parallel collectives with GEMMs (Transformer Engine's --tp-comm-overlap)."),
  overlapPipelineComm: flag("Overlap pipeline sends with compute (Megatron-Core's overlap_p2p_comm)."),
}, { expected: 'a settings object', description: 'Software switches held fixed for every candidate; all default to false, as in the scenario.' }), {});

const recomputeChoice = enumOf(['none', 'selective', 'full', 'full-partial'], {
  description: "Recompute modes to try; 'full-partial' is full recompute of the fewest layers per stage that fit.",
});
const shardingChoice = enumOf(['none', 'distributed-optimizer', 'zero-1', 'zero-2', 'zero-3'], { description: 'Optimizer-state layouts to try.' });

/**
 * A list of sizes to try exactly (each once; a max of the same dimension still caps it). Its text is a `description`, as
 * every such helper's is, so that the widget's bundle blanks it with the others (apps/widget build.ts withoutJsonSchema).
 */
const sizes = (max: number, description: string) => optional(array(positive(max, description), { minItems: 1, maxItems: 64 }));

export const constraintsSchema = withDefault(object({
  tensorSizes: sizes(thousand(64), 'A tensor-parallel degree to try (the list is exactly the degrees tried).'),
  pipelineSizes: sizes(1000, 'A pipeline depth to try (the list is exactly the depths tried).'),
  contextSizes: sizes(1024, 'A context-parallel degree to try (the list is exactly the degrees tried).'),
  virtualStageCounts: sizes(1000, 'A number of model chunks per pipeline stage to try (the list is exactly the counts tried).'),
  pipelineSlots: optional(array(enumOf(PIPELINE_SLOTS, {
    description: "What may take a layer's place in the pipeline split: 'layers' (the layers alone), 'embedding', 'loss' or 'embedding-and-loss' "
      + "(Megatron-Core's --account-for-embedding/loss-in-pipeline-split). Default: all four; ['layers'] for a Megatron without those flags.",
  }), { minItems: 1, maxItems: 4 })),
  maxTensor: optional(positive(thousand(64), 'Largest tensor-parallel degree to try.')),
  tensorWithinNode: optional(boolean({ description: 'Keep tensor parallelism inside one NVLink domain.' })),
  maxPipeline: optional(positive(1000, 'Largest pipeline-parallel degree to try.')),
  maxContext: optional(positive(1024, 'Largest context-parallel degree to try.')),
  maxVirtualStages: optional(positive(64, 'Most model chunks per pipeline stage to try.')),
  microBatchSizes: optional(array(positive(thousand(64), 'A micro-batch size.'), { minItems: 1, maxItems: 32 })),
  recompute: optional(array(recomputeChoice, { minItems: 1, maxItems: 4 })),
  sharding: optional(array(shardingChoice, { minItems: 1, maxItems: 5 })),
  sequenceParallel: optional(array(boolean({ description: 'Sequence parallelism on or off.' }), { minItems: 1, maxItems: 2 })),
  memoryFraction: optional(number({
    greaterThan: 0, max: 1,
    description: 'Usable share of GPU memory; default 0.95, the share above which an estimate warns that memory is tight (1 uses all of it).',
  })),
}, { expected: 'a constraints object', description: 'Limits on the space searched.' }), {});

/** What a search optimises: tokens/s, days to train, or money. */
export const SEARCH_OBJECTIVES = ['throughput', 'time-to-train', 'cost'] as const;

export const objectiveSchema = withDefault(enumOf(SEARCH_OBJECTIVES, {
  description: "What to optimise: tokens/s, days to train (needs training.tokens), or money (needs tokens and pricePerGpuHour).",
}), 'throughput');

/** A price of one GPU-hour, above 0 and at most 100,000 in any currency; `description` says what it costs (training's GPU-hours by default). */
export const pricePerGpuHourField = (description = 'Price of one GPU-hour, for costs.') =>
  optional(number({ greaterThan: 0, max: thousand(100), description }));
export const pricePerGpuHourSchema = pricePerGpuHourField();
export const topSchema = withDefault(integer({ min: 1, max: 100, description: 'Plans to return, best first.' }), 10);
export const candidateBudgetSchema = optional(integer({ min: 1, max: million(100), description: 'At most this many full estimates.' }));
