import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { gpuById } from '@trainplan/presets';
import { decodeComparisons, loadMeasuredDecode, streamingFractions, type DecodeComparison } from './decode-measured.ts';
import { median } from './kernels-measured.ts';
import type { ValidationSection } from './sections.ts';
import { MEASURED_GPU, measuredGpuHbmBandwidth, range, ratio } from './measured-runs.ts';

const gb = (bytes: number): string => (bytes / 1e9).toFixed(2);
const ms = (x: number): string => x.toFixed(2);

/**
 * Whether a step's attention launch has a sequence-and-KV-head pair for each of the GPU's SMs (132 on the H200): with
 * fewer, the kernel's blocks leave SMs idle unless it splits the cache.
 */
const fillsGpu = (r: DecodeComparison): boolean => r.kase.batch * r.kase.kvHeads >= gpuById(MEASURED_GPU)!.smCount;
/** The batch at which the GEMMs leave the few-row kernels (nvjet's 128 × 8 and 128 × 32 tiles) for wider ones. */
const WIDE_BATCH = 128;

/** What the report says of the decode steps, as numbers (the tests hold the report to them). */
export interface DecodeFindings {
  readonly overPredicted: readonly number[];
  /** The GEMMs' weight streaming as a fraction of HBM bandwidth, below WIDE_BATCH and at it. */
  readonly weightsNarrow: readonly number[];
  readonly weightsWide: readonly number[];
  /** Attention's KV-cache streaming where its launch fills the GPU (fillsGpu), and where it does not: Llama 3 8B's and Llama 2 7B's. */
  readonly kvCacheFull: readonly number[];
  readonly kvCacheFewGqa: readonly number[];
  readonly kvCacheFewMha: readonly number[];
  /** The rest (element-wise kernels, norms, the KV writes): measured ms a step, and what the model charges beyond its reads. */
  readonly otherMs: readonly number[];
  readonly modelFixedMs: readonly number[];
  readonly kernels: readonly number[];
  /** The profiled kernels' sum over the graph's step. */
  readonly kernelShareOfStep: readonly number[];
  /** Graph over eager time at batch 1, and the most the eager steps differ between the runs. */
  readonly graphOverEagerBatch1: readonly number[];
  /** With RMSNorm and SiLU · up fused (decode.py --fused): measured ÷ predicted, the rest (ms) and the kernels a step. */
  readonly fusedOverPredicted: readonly number[];
  readonly fusedOtherMs: readonly number[];
  readonly fusedKernels: readonly number[];
  /** Fused measured ÷ predicted of the weights-bound steps (batch 1, 1,024 tokens), unfused and fused. */
  readonly lightestUnfused: readonly number[];
  readonly lightestFused: readonly number[];
  readonly worstEagerSpread: number;
  readonly worstSpread: number;
}

/** The model's step less its HBM reads at the calibrated fraction: the kernels' fixed costs it charges (memory-bound steps). */
const modelFixedMs = (r: DecodeComparison): number =>
  r.predictedMs - ((r.weightBytes + r.kvCacheBytes) / (COMPUTE_CALIBRATION.hopper.hbmFraction * measuredGpuHbmBandwidth())) * 1e3;

/** The steps the weights bound most: one sequence at the shorter context. */
const lightest = (r: DecodeComparison): boolean => r.kase.batch === 1 && r.kase.context === 1024;

export function decodeFindings(rows = decodeComparisons()): DecodeFindings {
  const streams = rows.map((r) => ({ r, s: streamingFractions(r) }));
  return {
    overPredicted: rows.map((r) => r.measuredMs / r.predictedMs),
    weightsNarrow: streams.filter(({ r }) => r.kase.batch < WIDE_BATCH).map(({ s }) => s.weights),
    weightsWide: streams.filter(({ r }) => r.kase.batch >= WIDE_BATCH).map(({ s }) => s.weights),
    kvCacheFull: streams.filter(({ r }) => fillsGpu(r)).map(({ s }) => s.kvCache),
    kvCacheFewGqa: streams.filter(({ r }) => !fillsGpu(r) && r.kase.kvHeads < r.kase.heads).map(({ s }) => s.kvCache),
    kvCacheFewMha: streams.filter(({ r }) => !fillsGpu(r) && r.kase.kvHeads === r.kase.heads).map(({ s }) => s.kvCache),
    otherMs: rows.map((r) => r.otherMs),
    modelFixedMs: rows.filter((r) => r.memoryBound).map(modelFixedMs),
    kernels: rows.map((r) => r.kernels),
    kernelShareOfStep: rows.map((r) => (r.gemmMs + r.attentionMs + r.otherMs) / r.measuredMs),
    graphOverEagerBatch1: rows.filter((r) => r.kase.batch === 1).map((r) => r.measuredMs / r.eagerMs),
    fusedOverPredicted: rows.map((r) => r.fusedMs / r.predictedMs),
    fusedOtherMs: rows.map((r) => r.fusedOtherMs),
    fusedKernels: rows.map((r) => r.fusedKernels),
    lightestUnfused: rows.filter(lightest).map((r) => r.measuredMs / r.predictedMs),
    lightestFused: rows.filter(lightest).map((r) => r.fusedMs / r.predictedMs),
    worstEagerSpread: Math.max(...rows.map((r) => r.eagerSpread)),
    worstSpread: Math.max(...rows.map((r) => r.spread)),
  };
}

const label = (r: DecodeComparison): string => `${r.kase.model}, batch ${r.kase.batch}, ${r.kase.context.toLocaleString('en-US')} tokens`;

export const decodeSection: ValidationSection = {
  name: 'decode',
  run() {
    const runs = loadMeasuredDecode();
    const rows = decodeComparisons(runs);
    const f = decodeFindings(rows);
    const env = runs[0]!.environment;
    const hbm = COMPUTE_CALIBRATION.hopper.hbmFraction;
    const stream = (r: DecodeComparison) => streamingFractions(r);
    const markdown = [
      '## Decode steps on one H200 (test/validation/kernels/decode.py)',
      '',
      `Whole-model decode steps of Llama 3 8B (8 KV heads) and Llama 2 7B (a KV head per query head), run on one ${env.name} `
      + `(PyTorch ${env.torch}, CUDA ${env.cuda}, ${runs[0]!.measuredAt.slice(0, 10)}) in bf16: every sequence of the batch gets one token through `
      + 'every layer and the logits, each layer reading its own weights and KV cache, the step replayed from a CUDA graph as vLLM and TensorRT-LLM '
      + 'replay theirs. The linears are cuBLAS through F.linear, attention over the cache PyTorch\'s scaled_dot_product_attention (cuDNN\'s '
      + 'kernel here), RMSNorm and the residuals plain PyTorch ops: PyTorch\'s kernels, not a serving engine\'s. One more eager step runs under '
      + `torch.profiler for its kernels by kind. Two runs, one after the other (their graph steps differ by at most ${(f.worstSpread * 100).toFixed(1)}%); the table `
      + 'gives their mean. The raw output is kernels/decode-h200.json and kernels/decode-h200.run2.json. The prediction is `trainplan inference` '
      + 'with static batching on one GPU at the row\'s batch, a prompt of one token under the context and 2 output tokens, so the decode step\'s '
      + `mean context is the row's: each layer's weights and KV cache read at ${hbm} of the datasheet's HBM bandwidth (the Hopper calibration's), `
      + 'against its FLOPs, plus a fixed cost per kernel.',
      '',
      '| model, batch, context | weights (GB) | KV cache (GB) | measured, graph (ms) | predicted (ms) | measured ÷ predicted | GEMMs (ms) | weights at, of HBM | attention (ms) | KV cache at, of HBM | the rest (ms) | fused, graph (ms) | fused ÷ predicted | the rest, fused (ms) |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${label(r)} | ${gb(r.weightBytes)} | ${gb(r.kvCacheBytes)} | ${ms(r.measuredMs)} | ${ms(r.predictedMs)} | `
        + `${ratio(r.measuredMs / r.predictedMs)} | ${ms(r.gemmMs)} | ${ratio(stream(r).weights)} | ${ms(r.attentionMs)} | ${ratio(stream(r).kvCache)} | ${ms(r.otherMs)} | `
        + `${ms(r.fusedMs)} | ${ratio(r.fusedMs / r.predictedMs)} | ${ms(r.fusedOtherMs)} |`),
      '',
      `- Measured ÷ predicted ${ratio(median(f.overPredicted))} at the median (${range(f.overPredicted)}): short where the weights dominate, long `
      + 'where the KV cache does.',
      `- The weights: the GEMMs stream them at ${range(f.weightsNarrow)} of HBM bandwidth below batch ${WIDE_BATCH} (cuBLAS's few-row kernels) `
      + `and ${range(f.weightsWide)} at ${WIDE_BATCH}, around the ${hbm} trainplan charges.`,
      `- The KV cache: where the launch has a sequence and KV head for each of the ${gpuById(MEASURED_GPU)!.smCount} SMs, attention streams it at `
      + `${range(f.kvCacheFull)} of HBM bandwidth, faster than the ${hbm} charged, so the KV-heavy steps come out long. With fewer it depends on `
      + `the kernel: Llama 2 7B's, one query a KV head, is split over the cache (cuDNN's lean reduction) and reaches ${range(f.kvCacheFewMha)}; `
      + 'Llama 3 8B\'s, whose four query heads a KV head the harness packs as four query rows, goes to a cuDNN kernel that does not split it, '
      + `${range(f.kvCacheFewGqa)}. Serving engines' decode kernels split it (flash-decoding, Dao et al. 2023), as the model assumes.`,
      `- The rest: RMSNorm as eight PyTorch ops, the residual adds, SiLU · up, the KV writes: ${Math.min(...f.kernels)}–${Math.max(...f.kernels)} kernels and `
      + `${range(f.otherMs)} ms a step, where the model charges ${ms(median(f.modelFixedMs))} ms beyond its reads (a fixed cost for each of a layer's `
      + 'kernels, as fused engines launch them). That is the weights-bound steps\' miss, and it is PyTorch\'s: run again with RMSNorm and SiLU · up '
      + `each compiled into one kernel (decode.py --fused, two runs, files kernels/decode-h200.fused.run1.json and .run2.json), as serving engines fuse `
      + `them, a step runs ${Math.min(...f.fusedKernels)}–${Math.max(...f.fusedKernels)} kernels and the rest takes ${range(f.fusedOtherMs)} ms; the `
      + `steps of one sequence at 1,024 tokens, whose bytes are nearly all weights, go from ${range(f.lightestUnfused)} to ${range(f.lightestFused)} `
      + `of the prediction, and all steps' median from `
      + `${ratio(median(f.overPredicted))} to ${ratio(median(f.fusedOverPredicted))} (${range(f.fusedOverPredicted)}).`,
      `- The profiled kernels fill ${range(f.kernelShareOfStep)} of the graph's step: replayed from a CUDA graph the GPU runs them back to back. `
      + `Eager, a batch-1 step takes ${range(f.graphOverEagerBatch1.map((x) => 1 / x))}× as long (the runs' eager steps differ by up to `
      + `${(f.worstEagerSpread * 100).toFixed(0)}%): the host launching each kernel, which the engines' graphs leave out as the model does.`,
      `- Not adopted: a second HBM fraction for the KV cache. It would need a serving engine's decode kernels to fit on, and none could be `
      + 'run here; the NVIDIA NIM rows of the serving section are the engine-measured check.',
    ];
    return {
      markdown,
      readme: [
        `- Whole-model decode steps on that H200 (\`test/validation/kernels/decode.py\`: Llama 3 8B and Llama 2 7B, batches 1–128, 1,024 and `
        + `4,096 tokens of context, CUDA graphs, kernels profiled): measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)}); `
        + `the GEMMs stream the weights at ${range([...f.weightsNarrow, ...f.weightsWide])} of HBM bandwidth and attention the KV cache at `
        + `${range(f.kvCacheFull)}, where the model charges both ${hbm}; PyTorch's unfused element-wise kernels add ${range(f.otherMs)} ms a step; with RMSNorm and SiLU · up fused, as engines run them, `
        + `measured ÷ predicted ${ratio(median(f.fusedOverPredicted))} (${range(f.fusedOverPredicted)}).`,
      ],
      summary: [`decode steps (H200)    ${rows.length} steps  measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)})  `
        + `weights at ${range([...f.weightsNarrow, ...f.weightsWide])}, KV at ${range(f.kvCacheFull)} of HBM`],
    };
  },
};
