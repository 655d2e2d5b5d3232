import type { ModelObjectInput, ScenarioInput } from '@trainplan/protocol';
import type { TrainingRow } from './ground-truth.ts';

/**
 * What each source states about its software, and what trainplan assumes where it is silent.
 * These are settings of the runs (which kernels and overlaps the framework of that date had), taken
 * from the source or the framework's chronology, never tuning knobs: the calibration constants are
 * per GPU generation only (packages/planner/src/calibration.ts).
 */
export type SourceId = 'narayanan21' | 'korthikanti22' | 'megatron-readme-h100' | 'dgxc-24.11' | 'bloom-prequel';

export interface SourceProfile {
  readonly id: SourceId;
  readonly title: string;
  /** Settings applied to every row of the source, and why. */
  readonly assumptions: string;
  readonly matches: (row: TrainingRow) => boolean;
  readonly network: string;
  readonly scenario: (row: TrainingRow) => Pick<ScenarioInput, 'training' | 'parallelism'> & { model: ModelObjectInput };
  /** Settings the source does not state, as lists of candidates; the fastest feasible one is used. */
  readonly unknowns: (row: TrainingRow) => Partial<Record<'microBatchSize' | 'virtualStages' | 'recompute', readonly (number | string)[]>>;
}

const gptModel = (row: TrainingRow): ModelObjectInput => ({
  name: row.model.name,
  layers: row.model.layers,
  hiddenSize: row.model.hidden,
  attentionHeads: row.model.heads,
  vocabSize: row.model.vocab ?? 51200,
  seqLength: row.model.seq,
  kvHeads: row.model.kv_heads ?? row.model.heads,
  ffnHiddenSize: row.model.ffn_hidden ?? 4 * row.model.hidden,
});

/** Interleaving factors v with L divisible by p·v (Megatron's requirement), up to `max`. */
export function interleavingChoices(layers: number, pipeline: number, max: number): number[] {
  if (pipeline <= 1) return [1];
  const out: number[] = [];
  for (let v = 2; v <= max; v++) if (layers % (pipeline * v) === 0) out.push(v);
  return out.length > 0 ? out : [1];
}

const tp = (row: TrainingRow): number => row.parallel.tp ?? 1;
const pp = (row: TrainingRow): number => row.parallel.pp ?? 1;

/**
 * The SC'21 artifact's settings for each Table 1 row, keyed by layer count (one row per model size):
 * Megatron-LM examples/sc21/run_table_1.sh sets MBS, --num-layers-per-virtual-pipeline-stage (here as
 * v = layers / (p · layers per virtual stage)) and DDP=torch|local. The paper's text omits them.
 */
const SC21_TABLE1_RUNS: Readonly<Record<number, { microBatchSize: number; layersPerVirtualStage?: number; torchDdp: boolean }>> = {
  24: { microBatchSize: 16, torchDdp: true }, // 1.7B
  30: { microBatchSize: 16, torchDdp: true }, // 3.6B
  36: { microBatchSize: 16, torchDdp: true }, // 7.5B
  40: { microBatchSize: 8, torchDdp: true }, // 18.4B
  48: { microBatchSize: 4, torchDdp: false }, // 39.1B
  60: { microBatchSize: 2, layersPerVirtualStage: 5, torchDdp: false }, // 76.1B
  80: { microBatchSize: 2, layersPerVirtualStage: 5, torchDdp: false }, // 145.6B
  96: { microBatchSize: 1, layersPerVirtualStage: 3, torchDdp: false }, // 310.1B
  105: { microBatchSize: 1, layersPerVirtualStage: 1, torchDdp: false }, // 529.6B
  128: { microBatchSize: 1, torchDdp: false }, // 1008.0B
};

function sc21Table1Run(row: TrainingRow): { microBatchSize: number; virtualStages: number; torchDdp: boolean } {
  const run = SC21_TABLE1_RUNS[row.model.layers];
  if (!run) throw new Error(`no SC'21 artifact settings for ${row.id} (${row.model.layers} layers)`);
  const perStage = row.model.layers / pp(row);
  return { microBatchSize: run.microBatchSize, virtualStages: run.layersPerVirtualStage ? perStage / run.layersPerVirtualStage : 1, torchDdp: run.torchDdp };
}

export const SOURCES: readonly SourceProfile[] = [
  {
    id: 'narayanan21',
    title: 'Narayanan et al. SC\'21 (Megatron-LM), Table 1: weak scaling 1.7B–1T on Selene',
    assumptions: 'fp16, full recompute, unfused softmax attention with dropout, unfused fp32 cross entropy, scatter-gather '
      + '(stated for all Table-1 runs). Micro-batch size, model chunks v and the data-parallel implementation as the '
      + 'paper\'s artifact runs them (Megatron-LM examples/sc21/run_table_1.sh): PyTorch DDP, which overlaps the gradient '
      + 'all-reduce with the backward pass, for the unpipelined 1.7B–18B rows; Megatron\'s local DDP (no overlap) above. '
      + 'Weight gradients accumulate by a separate add per micro-batch into the 16-bit gradient buffer (the DDP hook '
      + '`param.main_grad.add_(param.grad.data)`, or autograd under PyTorch DDP): fusing it into the GEMM came in 2022 (NVIDIA/apex#1297).',
    matches: (r) => r.id.startsWith('narayanan21'),
    network: 'hdr-ib-8x',
    scenario: (r) => {
      const run = sc21Table1Run(r);
      return {
        model: gptModel(r),
        training: {
          globalBatchSize: r.parallel.gbs!, microBatchSize: run.microBatchSize, precision: 'fp16', dropout: true,
          attentionKernel: 'unfused', crossEntropyKernel: 'unfused', gradientAccumulation: '16-bit',
        },
        parallelism: {
          tensor: tp(r), pipeline: pp(r), recompute: 'full', scatterGather: true,
          virtualStages: run.virtualStages, overlapGradReduce: run.torchDdp,
        },
      };
    },
    unknowns: () => ({}),
  },
  {
    id: 'korthikanti22',
    title: 'Korthikanti et al. 2022, Table 3 / §6: sequence parallelism and selective recompute, 22B–1T on Selene',
    assumptions: 'fp16, unfused softmax attention with dropout, unfused fp32 cross entropy, scatter-gather without sequence parallelism, no '
      + 'gradient-reduce overlap (stated for the DP run), asynchronous backward tensor-parallel communication '
      + '(Megatron-LM v3.0 default: --async-tensor-model-parallel-allreduce, and with sequence parallelism the input '
      + 're-gather under the dgrad GEMM), weight gradients accumulated inside the weight-gradient GEMM (v3.0\'s '
      + 'LinearWithGradAccumulationAndAsyncCommunication, gradient_accumulation_fusion). Everything else as the row states; micro-batch-level '
      + 'recompute (App. C) is modelled as selective recompute. Where a pipelined row does not state v (1T), the '
      + 'fastest feasible v with L divisible by p·v is used.',
    matches: (r) => r.id.startsWith('korthikanti22'),
    network: 'hdr-ib-8x',
    scenario: (r) => ({
      model: gptModel(r),
      training: {
        globalBatchSize: r.parallel.gbs!, microBatchSize: r.parallel.mbs ?? 1, precision: 'fp16', dropout: true,
        attentionKernel: 'unfused', crossEntropyKernel: 'unfused',
      },
      parallelism: {
        tensor: tp(r), pipeline: pp(r), sequenceParallel: r.parallel.sp === true,
        recompute: r.parallel.recompute?.startsWith('selective') ? 'selective' : r.parallel.recompute === 'full' ? 'full' : 'none',
        scatterGather: r.parallel.sp !== true,
        // Megatron-LM v3.0, the code of the paper: asynchronous backward TP communication is on by default.
        asyncTensorParallelGradComm: true,
      },
    }),
    // The paper states v = 3 for 175B and 530B only; where a pipelined row leaves v unstated, search it.
    unknowns: (r) => (r.parallel.vp === null && pp(r) > 1 ? { virtualStages: [1, ...interleavingChoices(r.model.layers, pp(r), 8)] } : {}),
  },
  {
    id: 'megatron-readme-h100',
    title: 'NVIDIA Megatron-LM README, "Performance Benchmarking": 1.7B–462B on H100 (2024)',
    assumptions: 'bf16, flash attention, distributed optimizer with --overlap-grad-reduce / --overlap-param-gather, '
      + '--tp-comm-overlap (so sequence parallelism when TP > 1) and overlapped pipeline sends, all stated in the README; '
      + 'Megatron-LM\'s default unfused fp32 cross entropy (--cross-entropy-loss-fusion is not among the stated flags); '
      + 'model FLOPs counted without causal halving (TFLOP/s ÷ MFU = 997 ≈ the 989 dense peak). Unstated: micro-batch size, '
      + 'recompute and v: the fastest feasible of mbs ∈ {1, 2, 4}, recompute ∈ {none, selective}, v with L divisible by p·v up to 12.',
    matches: (r) => r.id.startsWith('megatron-readme-h100') && r.tier !== 'C',
    network: 'ndr-ib-8x',
    scenario: (r) => ({
      model: gptModel(r),
      // Megatron-LM's loss is its unfused fp32 vocab-parallel cross entropy unless --cross-entropy-loss-fusion is given.
      training: { globalBatchSize: r.parallel.gbs!, precision: 'bf16', dropout: true, attentionKernel: 'flash', crossEntropyKernel: 'unfused' },
      parallelism: {
        tensor: tp(r), pipeline: pp(r), sequenceParallel: tp(r) > 1, distributedOptimizer: true,
        overlapGradReduce: true, overlapTensorParallelComm: tp(r) > 1, overlapPipelineComm: true,
      },
    }),
    unknowns: (r) => ({
      microBatchSize: [1, 2, 4], recompute: ['none', 'selective'],
      virtualStages: pp(r) > 1 ? [1, ...interleavingChoices(r.model.layers, pp(r), 12)] : [1],
    }),
  },
  {
    id: 'dgxc-24.11',
    title: 'NVIDIA DGX Cloud benchmarking recipes v24.11 (NeMo): GPT-3 175B, Llama 3.1 70B, Nemotron-4 15B on H100',
    assumptions: 'NeMo 24.11 defaults for these recipes: flash attention, fused cross entropy, sequence parallelism when TP > 1, distributed '
      + 'optimizer, FP8 weights in FP8 rows (the recipes\' fp8_params), overlapped gradient reduce, tensor-parallel comm overlap and pipeline sends, no recompute; dropout '
      + 'as the model was published (GPT-3 0.1; Llama and Nemotron none). Parallel sizes, v, CP, micro-batch as stated.',
    matches: (r) => r.id.startsWith('dgxc-24.11'),
    network: 'ndr-ib-8x',
    scenario: (r) => {
      const name = r.model.name.toLowerCase();
      const llama = name.includes('llama');
      const nemotron = name.includes('nemotron');
      const model: ModelObjectInput = {
        ...gptModel(r),
        ...(llama || nemotron ? { tiedEmbeddings: false, positionEmbedding: 'rotary', linearBias: false } : {}),
        ...(llama ? { gatedMlp: true, normalization: 'rmsnorm' } : {}),
      };
      return {
        model,
        training: {
          globalBatchSize: r.parallel.gbs!, microBatchSize: r.parallel.mbs ?? 1,
          precision: r.precision === 'FP8' ? 'fp8' : 'bf16', dropout: !(llama || nemotron), attentionKernel: 'flash',
          // NeMo 2's GPTConfig: cross_entropy_loss_fusion = True.
          crossEntropyKernel: 'fused',
          // FP8 weights, no 16-bit copy: gpt3_175b_hydra.yaml "fp8_params: true"; llama3.1/configure.sh
          // "+model.fp8_params=$FP8_ENABLED" (dgxc-benchmarking @143b90dd).
          ...(r.precision === 'FP8' && { fp8Params: true }),
        },
        parallelism: {
          tensor: tp(r), pipeline: pp(r), context: r.parallel.cp ?? 1, virtualStages: r.parallel.vp ?? 1,
          sequenceParallel: tp(r) > 1, distributedOptimizer: true, recompute: 'none',
          overlapGradReduce: true, overlapTensorParallelComm: tp(r) > 1, overlapPipelineComm: true,
        },
      };
    },
    unknowns: () => ({}),
  },
  {
    id: 'bloom-prequel',
    title: 'BigScience BLOOM (tr11-176B) prequel benchmarks on Jean Zay: Megatron-DeepSpeed, 384 A100',
    assumptions: 'Megatron-DeepSpeed of early 2022: ZeRO stage 1 (each partition\'s gradients reduced to its owner, then the weights all-gathered), full recompute ("checkpoint-activations"), unfused '
      + 'softmax attention with dropout, unfused fp32 cross entropy, synchronous tensor-parallel collectives, DeepSpeed\'s non-interleaved pipeline, '
      + 'no overlap; pipeline sends split across the tensor-parallel ranks and re-gathered by the receiver, as Megatron\'s scatter-gather '
      + '(DeepSpeed PipelineEngine: is_pipe_partitioned = is_grad_partitioned = is_model_parallel); '
      + 'ALiBi positions, tied embeddings; 4 × 100 Gb/s Omni-Path per node. fp16 rows accumulate 16-bit gradients by autograd\'s '
      + 'separate add per micro-batch; from 02-28, DeepSpeed\'s new BF16 optimizer adds them into an unsharded fp32 buffer each '
      + 'micro-batch and reduces that fp32 buffer (chronicles-prequel: "accumulate gradients in fp32 ... a bit slower"; '
      + 'engine._bf16_reduce_grads all-reduces it, which trainplan costs as ZeRO-1\'s reduce-scatter: the extra half is under 1% of '
      + 'a step). Everything else as the row states.',
    matches: (r) => r.id.startsWith('bloom-prequel'),
    network: 'omnipath-4x',
    scenario: (r) => ({
      model: { ...gptModel(r), positionEmbedding: 'alibi' },
      training: {
        globalBatchSize: r.parallel.gbs!, microBatchSize: r.parallel.mbs ?? 1,
        precision: r.precision?.startsWith('bf16') ? 'bf16' : 'fp16', dropout: true, attentionKernel: 'unfused', crossEntropyKernel: 'unfused',
        gradientAccumulation: r.precision === 'bf16-optimizer' ? 'fp32' : '16-bit',
      },
      parallelism: { tensor: tp(r), pipeline: pp(r), recompute: 'full', zeroStage: 1, scatterGather: true },
    }),
    unknowns: () => ({}),
  },
];
