import type { GpuSpec } from '@trainplan/hardware';
import type { Fabric } from '@trainplan/collectives';
import type { ComputeCalibration } from './calibration.ts';
import type { AttentionKernel, ModelShape, PipelineSchedule, PipelineSlots, RecomputeMode, StateSharding } from '@trainplan/model';

export type TrainingPrecision = 'fp16' | 'bf16' | 'fp8';

/**
 * How weight gradients accumulate across micro-batches (gradient-accumulation.ts): 'fused' inside the
 * weight-gradient GEMM (Megatron's gradient_accumulation_fusion, Transformer Engine) into the framework's
 * main-gradient buffer; 'fused-16-bit' the same into a 16-bit buffer, which the data-parallel reduction sends
 * at 2 bytes (Megatron-Core grad_reduce_in_fp32 False, --grad-reduce-in-bf16; NeMo's performance recipes);
 * or a separate add per parameter per micro-batch into a 16-bit ('16-bit') or fp32 ('fp32') buffer.
 */
export type GradientAccumulation = 'fused' | 'fused-16-bit' | '16-bit' | 'fp32';

/**
 * A fully resolved training plan: the model, the machine and the parallel strategy, every default
 * already applied (the protocol package turns a contract scenario into this).
 */
export interface PlanInput {
  readonly model: ModelShape;
  readonly gpu: GpuSpec;
  readonly fabric: Fabric;
  readonly nodes: number;
  readonly gpusPerNode: number;
  /** GPUs sharing one NVLink fabric: gpusPerNode, or 72 for a GB200 NVL72 rack of 4-GPU trays. */
  readonly nvlinkDomainGpus: number;

  readonly globalBatchSize: number;
  readonly microBatchSize: number;
  readonly seqLength: number;
  readonly precision: TrainingPrecision;
  /** Token budget for time-to-train (optional). */
  readonly tokens?: number;
  /** Hidden/attention dropout on (costs masks and element-wise traffic). */
  readonly dropout: boolean;

  readonly tensor: number;
  readonly pipeline: number;
  readonly data: number;
  readonly context: number;
  readonly virtualStages: number;
  /**
   * What takes a layer's place when the layers are split over the stages: the layers alone (default), or
   * the embedding and/or the loss counted as one each (Megatron-Core's --account-for-embedding-in-pipeline-split
   * and --account-for-loss-in-pipeline-split; @trainplan/model pipeline-split.ts).
   */
  readonly pipelineSlots?: PipelineSlots;
  readonly schedule: PipelineSchedule;
  readonly sequenceParallel: boolean;
  readonly recompute: RecomputeMode;
  /** With full recompute: layers per pipeline stage that are recomputed (default: all). */
  readonly recomputeLayers?: number;
  readonly sharding: StateSharding;
  readonly attentionKernel: AttentionKernel;
  /**
   * The loss over the vocabulary: 'fused' (default; Megatron-Core's fused cross entropy, which NeMo
   * turns on) or 'unfused' (Megatron-LM's vocab-parallel cross entropy in fp32, its default): layer-time.ts.
   */
  readonly crossEntropyKernel?: 'fused' | 'unfused';
  /** How weight gradients accumulate across micro-batches; default 'fused'. */
  readonly gradientAccumulation?: GradientAccumulation;
  /**
   * With FP8, the weights themselves are FP8 (Megatron's --fp8-param-gather, NeMo's fp8_params): no 16-bit
   * copy beside Transformer Engine's FP8 ones (plan-memory.ts), and the sharded optimizer all-gathers the weight
   * matrices in FP8 (comm-time.ts gatheredBytesPerParameter). Default false, Megatron's default.
   */
  readonly fp8Params?: boolean;
  /** Megatron's scatter-gather of pipeline sends (SC'21 §4.1); not used with sequence parallelism. */
  readonly scatterGather: boolean;
  /** Overlap the data-parallel gradient reduction with the last micro-batch's backward pass. */
  readonly overlapGradReduce: boolean;
  /** Overlap tensor-parallel collectives with the adjacent GEMMs (Transformer Engine userbuffers). */
  readonly overlapTensorParallelComm: boolean;
  /**
   * Megatron-LM's asynchronous tensor-parallel communication in the backward of column-parallel
   * linears (`--async-tensor-model-parallel-allreduce`, on by default since late 2021): each one's
   * gradient all-reduce (or reduce-scatter, and the input re-gather with sequence parallelism)
   * runs under its own weight-gradient (input-gradient) GEMM (async-tensor-parallel.ts). Default off.
   */
  readonly asyncTensorParallelGradComm?: boolean;
  /** Overlap pipeline sends with compute (Megatron-Core interleaved schedule). */
  readonly overlapPipelineComm: boolean;
  /**
   * How collectives are costed: NCCL's closed-form model ('closed-form', the default) or the
   * discrete-event emulator over the topology graph ('emulated'), where concurrent groups share
   * NICs and the spine (packages/collectives/src/emulator).
   */
  readonly communicationModel?: 'closed-form' | 'emulated';
  /** Fat-tree leaf oversubscription the emulator uses (1, the default, is non-blocking). */
  readonly oversubscription?: number;
  /** Replace some of the GPU generation's calibration constants (what-if studies, the calibration fit). */
  readonly calibration?: Partial<ComputeCalibration>;
}
