/**
 * The JSON shapes of ../shared/docs/scenario-contract.md, as TypeScript types.
 * Contract fields are never renamed; everything marked "extension" is trainplan's addition.
 * Units are in the key names; values are SI.
 */

export type PrecisionId = 'fp16' | 'bf16' | 'fp8';
/** Extension: how weight gradients accumulate across micro-batches (scenario `training.gradientAccumulation`). */
export const GRADIENT_ACCUMULATION_IDS = ['fused', 'fused-16-bit', '16-bit', 'fp32'] as const;
export type GradientAccumulationId = (typeof GRADIENT_ACCUMULATION_IDS)[number];
export type RecomputeMode = 'none' | 'selective' | 'full';
/** Extension: how the pipeline is scheduled. 'interleaved' needs virtualStages > 1. */
export type ScheduleId = '1f1b' | 'interleaved' | 'gpipe';

export interface ModelObjectInput {
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  vocabSize: number;
  seqLength: number;
  kvHeads?: number;
  ffnHiddenSize?: number;
  gatedMlp?: boolean;
  tiedEmbeddings?: boolean;
  name?: string;
  /** Extensions. */
  positionEmbedding?: 'learned' | 'rotary' | 'alibi';
  linearBias?: boolean;
  normalization?: 'layernorm' | 'rmsnorm';
}

export interface ScenarioInput {
  model: string | ModelObjectInput;
  cluster: {
    gpu: string;
    gpusPerNode?: number;
    nodes?: number;
    gpus?: number;
    network?: string;
    /** Extension: 'emulated' costs collectives with the discrete-event emulator; default 'closed-form'. */
    communicationModel?: 'closed-form' | 'emulated';
    /** Extension: fat-tree leaf oversubscription for the emulator (≥ 1; default 1, non-blocking). */
    oversubscription?: number;
  };
  training: {
    globalBatchSize: number;
    microBatchSize?: number;
    precision?: PrecisionId;
    seqLength?: number;
    /** Extension: a token budget; the estimate then carries time and GPU-hours to train. */
    tokens?: number;
    /** Extension: hidden and attention dropout on (Megatron's default 0.1); default: as the model was trained (presets' trainedWithDropout), on for a model given by its shape. */
    dropout?: boolean;
    /** Extension: fused flash attention (default) or Megatron 2021–22's unfused softmax attention. */
    attentionKernel?: 'flash' | 'unfused';
    /** Extension: fused cross entropy (default) or Megatron-LM's unfused vocab-parallel cross entropy in fp32. */
    crossEntropyKernel?: 'fused' | 'unfused';
    /**
     * Extension: how weight gradients accumulate across micro-batches: 'fused' (default) inside the
     * weight-gradient GEMM (Megatron's gradient_accumulation_fusion, Transformer Engine) into Megatron's
     * main-gradient buffer (fp32 under bf16 and fp8); 'fused-16-bit': fused the same into a 16-bit buffer,
     * reduced at 2 bytes (Megatron's --grad-reduce-in-bf16, NeMo's grad_reduce_in_fp32 False or
     * grad_sync_dtype bf16, as NVIDIA's performance recipes set; under fp16 the same as 'fused'); '16-bit' or
     * 'fp32': a separate add per parameter per micro-batch into a buffer of that width, which is also
     * what the data-parallel reduction sends (PyTorch DDP and DeepSpeed fp16: '16-bit'; Megatron-LM 2021
     * local DDP: its main-gradient buffer; DeepSpeed's BF16 optimizer: 'fp32').
     */
    gradientAccumulation?: GradientAccumulationId;
    /**
     * Extension: with precision 'fp8', the weights themselves are FP8 (Megatron's --fp8-param-gather, NeMo's
     * fp8_params; NVIDIA's DGX Cloud benchmarks set it): no 16-bit copy beside Transformer Engine's FP8 ones.
     * Default false (Megatron's default): 2 bytes more per weight-matrix parameter.
     */
    fp8Params?: boolean;
  };
  parallelism?: {
    tensor?: number;
    pipeline?: number;
    data?: number;
    virtualStages?: number;
    context?: number;
    sequenceParallel?: boolean;
    recompute?: RecomputeMode;
    distributedOptimizer?: boolean;
    zeroStage?: 0 | 1 | 2 | 3;
    /** Extensions. */
    schedule?: ScheduleId;
    /** Megatron's scatter-gather of pipeline sends (SC'21 §4.1); ignored under sequence parallelism. */
    scatterGather?: boolean;
    /** Overlap the data-parallel gradient reduction with the backward pass (newer Megatron). */
    overlapGradReduce?: boolean;
    /** With recompute 'full': recompute only this many layers per pipeline stage (Megatron's --recompute-num-layers). */
    recomputeLayers?: number;
    /** Overlap tensor-parallel collectives with GEMMs (Transformer Engine's --tp-comm-overlap); default false. */
    overlapTensorParallelComm?: boolean;
    /** Overlap pipeline sends with compute (Megatron-Core's overlap_p2p_comm); default false. */
    overlapPipelineComm?: boolean;
    /**
     * Megatron-LM's asynchronous tensor-parallel communication in the backward of column-parallel linears
     * (--async-tensor-model-parallel-allreduce, on by default since late 2021); default false.
     */
    asyncTensorParallelGradComm?: boolean;
    /**
     * The word embedding takes one layer's place on the first pipeline stage when the layers are split
     * (Megatron-Core's --account-for-embedding-in-pipeline-split); default false.
     */
    embeddingInPipelineSplit?: boolean;
    /**
     * The output layer and the loss take one layer's place on the last pipeline stage (Megatron-Core's
     * --account-for-loss-in-pipeline-split); default false. With both, Llama 3 405B's 126 layers make
     * 128 slots: 16 stages of 8, interleavable (Dubey et al. 2024 §3.3.2).
     */
    lossInPipelineSplit?: boolean;
  };
}

/** Extension: the parts of a GPU's "other" memory (planner plan-memory.ts OtherMemoryParts), in bytes. */
export interface OtherMemoryPartsJson {
  /** CUDA context, cuBLAS workspaces and NCCL buffers: a fixed allowance. */
  runtimeReserveBytes: number;
  /** The caching allocator's fragmentation: 10% of activationsBytes, rounded up. */
  fragmentationBytes: number;
  /** ZeRO-3's largest unit gathered whole (its 16-bit gradient, and its 16-bit weights where other ranks hold them); 0 under any other sharding. */
  zero3GatheredBytes: number;
  /** The optimizer step's fp32 gradient copy beyond the activations, fragmentation and unit it replaces; 0 where those peak higher. */
  optimizerStepBytes: number;
}

export interface MemoryJson {
  weightsBytes: number;
  gradientsBytes: number;
  optimizerBytes: number;
  activationsBytes: number;
  otherBytes: number;
  /**
   * Extension: what otherBytes holds, each part named (model reference §3: fragmentation and communication buffers "as a
   * separate, named term"), in whole bytes that sum to otherBytes exactly. Optional: answers before it lack it.
   */
  otherParts?: OtherMemoryPartsJson;
  totalBytes: number;
  capacityBytes: number;
  fits: boolean;
  /**
   * Extension: the pipeline stage, from 0, these figures are of: the most loaded one, which sets the memory a GPU
   * needs (model reference §3). Optional: answers before it lack it.
   */
  stage?: number;
}

/** The contract's six parts of a step. */
export interface ContractBreakdownJson {
  computeSeconds: number;
  tensorParallelCommSeconds: number;
  pipelineBubbleSeconds: number;
  pipelineCommSeconds: number;
  dataParallelCommSeconds: number;
  optimizerSeconds: number;
}

export interface BreakdownJson extends ContractBreakdownJson {
  /** Extensions. */
  contextParallelCommSeconds: number;
  /** Context-parallel communication before it overlaps attention (contextParallelCommSeconds is what is left exposed). */
  contextParallelCommTotalSeconds: number;
  /** Part of computeSeconds spent re-running forward passes (recompute). */
  recomputeSeconds: number;
  /** Data-parallel communication before overlap with the backward pass. */
  dataParallelCommTotalSeconds: number;
}

/** A model given by its shape as resolved: every field of the model object with its default filled in, and its name where it has one. */
export type ResolvedModelShape = Required<Omit<ModelObjectInput, 'name'>> & Pick<ModelObjectInput, 'name'>;

/**
 * Extension: the scenario as evaluated, every default and derived value filled in. Fed back as a scenario
 * (resolved-scenario.ts scenarioOfResolved: each field into the scenario's section that has it, `modelShape` where given
 * in place of `model`; gpus, microBatches and layersPerStage are derived), it gives the same estimate.
 */
export interface ResolvedJson {
  /** The model preset id, or the name of a model given by its shape ('custom' where it has none): see modelShape. */
  model: string;
  /** Extension: a model given by its shape, as planned (every default filled in); absent for a preset. */
  modelShape?: ResolvedModelShape;
  gpu: string;
  network: string;
  gpusPerNode: number;
  nodes: number;
  gpus: number;
  tensor: number;
  pipeline: number;
  data: number;
  context: number;
  virtualStages: number;
  microBatchSize: number;
  microBatches: number;
  globalBatchSize: number;
  seqLength: number;
  precision: PrecisionId;
  // The extensions below are optional for a reader (answers from before each lack it); every answer of ours carries each
  // but fp8Params and recomputeLayers, which only some plans have (estimate-schema.ts's fullEstimateOkSchema holds it to that).
  // communicationModel and oversubscription are required here, as run.ts's toEstimateJson sends them, and optional in the
  // reader's type (ReceivedResolvedJson).
  /** Extension: whether hidden and attention dropout was on (the scenario field, or the model's default). */
  dropout?: boolean;
  /** Extension: the attention kernel costed (the scenario field, or the GPU's default: unfused on a V100, else flash). */
  attentionKernel?: 'flash' | 'unfused';
  /** Extension: the loss kernel costed (the scenario field, or fused). */
  crossEntropyKernel?: 'fused' | 'unfused';
  /** Extension: how weight gradients accumulated (the scenario field, or fused). */
  gradientAccumulation?: GradientAccumulationId;
  /** Extension, FP8 plans only: the weights were FP8 alone (true), or 16-bit with Transformer Engine's FP8 copies (false). */
  fp8Params?: boolean;
  recompute: RecomputeMode;
  /** Extension: under full recompute of only some layers, how many per stage (the scenario field of the same name). */
  recomputeLayers?: number;
  sequenceParallel: boolean;
  distributedOptimizer: boolean;
  zeroStage: number;
  schedule: ScheduleId;
  /** Extension: whether the word embedding took a layer's place in the pipeline split (the scenario field of the same name). */
  embeddingInPipelineSplit?: boolean;
  /** Extension: whether the output layer and the loss took a layer's place in the pipeline split. */
  lossInPipelineSplit?: boolean;
  /** Extension: transformer layers on each pipeline stage, first to last. */
  layersPerStage?: number[];
  /** Extension: how the collectives were costed: NCCL's closed form, or the discrete-event emulator on the topology. */
  communicationModel: 'closed-form' | 'emulated';
  /** Extension: the fat tree's leaf oversubscription (1: non-blocking); only the emulator's topology uses it. */
  oversubscription: number;
  // The switches below are the scenario's parallelism fields of the same names, defaults filled in (false each); like
  // dropout, optional here (answers before them lack them), and every answer of ours carries each (fullEstimateOkSchema).
  /** Extension: Megatron's scatter-gather of pipeline sends. */
  scatterGather?: boolean;
  /** Extension: the gradient reduction overlapped the backward pass. */
  overlapGradReduce?: boolean;
  /** Extension: tensor-parallel collectives overlapped their GEMMs (Transformer Engine's --tp-comm-overlap). */
  overlapTensorParallelComm?: boolean;
  /** Extension: pipeline sends overlapped compute (Megatron-Core's overlap_p2p_comm). */
  overlapPipelineComm?: boolean;
  /** Extension: Megatron-LM's asynchronous tensor-parallel communication in the backward of column-parallel linears. */
  asyncTensorParallelGradComm?: boolean;
  /** Extension: the token budget (training.tokens), where one was given. */
  tokens?: number;
}

/** A feasible estimate's contract fields: the stable minimum any API that serves the contract sends. */
export interface ContractEstimateOk {
  ok: true;
  stepTimeSeconds: number;
  tokensPerSecond: number;
  modelTflopsPerGpu: number;
  hardwareTflopsPerGpu: number;
  mfu: number;
  hfu: number;
  memory: MemoryJson;
  breakdown: ContractBreakdownJson;
}

/** A feasible estimate as trainplan answers it: the contract's fields and every extension (run.ts toEstimateJson). */
export interface EstimateOk extends ContractEstimateOk {
  /**
   * Extension: the peak FLOP/s per GPU that mfu and hfu are of, in TFLOP/s: the FP8 peak for an FP8 plan (as NVIDIA's DGX
   * benchmarks count it), twice the 16-bit one on Hopper, else the BF16 (or FP16) peak. Optional: answers before it lack it.
   */
  peakTflopsPerGpu?: number;
  breakdown: BreakdownJson;
  /** Extensions. */
  samplesPerSecond: number;
  modelFlopsPerStep: number;
  hardwareFlopsPerStep: number;
  parameters: number;
  resolved: ResolvedJson;
  /** Present when `training.tokens` was given. */
  timeToTrain?: { tokens: number; seconds: number; days: number; gpuHours: number };
  warnings: string[];
}

/** `Full` as a reader may receive it: `Contract`'s fields, and any of the rest (extensions an API may leave out). */
type Received<Full extends Contract, Contract> = Contract & Partial<Omit<Full, keyof Contract>>;

/** ResolvedJson as a reader may receive it: communicationModel and oversubscription, which older answers lack, optional. */
export type ReceivedResolvedJson = Received<ResolvedJson, Omit<ResolvedJson, 'communicationModel' | 'oversubscription'>>;

/**
 * A feasible estimate as a client reads it from an API (validateEstimate's type): the contract's fields, and any of
 * trainplan's extensions, which the contract lets an API leave out (another implementation, an older trainplan).
 */
export type ReceivedEstimateOk = Received<Omit<EstimateOk, 'resolved'> & { resolved: ReceivedResolvedJson }, ContractEstimateOk>
  & { breakdown: Received<BreakdownJson, ContractBreakdownJson> };

export type InfeasibleReason = 'out-of-memory' | 'indivisible' | 'invalid';

export interface FieldIssue {
  /** JSON path of the offending field, e.g. "parallelism.tensor" or "[2].model.layers". */
  path: string;
  message: string;
  /**
   * Extension: which of the planner's rules the plan breaks (packages/planner/src/check-plan.ts PlanRule, e.g.
   * "batch-indivisible"), where one raised it: a caller tells issues at one path apart without reading the prose.
   */
  rule?: string;
}

export interface EstimateInfeasible {
  ok: false;
  reason: InfeasibleReason;
  message: string;
  /** For 'out-of-memory'. */
  neededBytes?: number;
  availableBytes?: number;
  /**
   * Extension, for 'out-of-memory': the plan as resolved (the defaults it took in view), what fills the most
   * loaded GPU, and the parameter count, as a feasible estimate states them.
   */
  resolved?: ResolvedJson;
  memory?: MemoryJson;
  parameters?: number;
  /** For 'invalid' and 'indivisible': each offending field. */
  issues?: FieldIssue[];
}

export type EstimateJson = EstimateOk | EstimateInfeasible;
/** An infeasible answer as a client reads it from an API: its plan, where it has one, may lack extensions (ReceivedResolvedJson). */
export type ReceivedEstimateInfeasible = Omit<EstimateInfeasible, 'resolved'> & { resolved?: ReceivedResolvedJson };
/** One estimate as a client reads it from an API: a feasible one may lack any extension (ReceivedEstimateOk). */
export type ReceivedEstimateJson = ReceivedEstimateOk | ReceivedEstimateInfeasible;
