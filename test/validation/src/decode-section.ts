import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { decodeComparisons, loadMeasuredDecode, streamingFit, type DecodeComparison } from './decode-measured.ts';
import { median } from './kernels-measured.ts';
import type { ValidationSection } from './sections.ts';

const gb = (bytes: number): string => (bytes / 1e9).toFixed(2);
const ms = (x: number): string => x.toFixed(2);
const ratio = (x: number): string => x.toFixed(2);
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** What the report says of the decode steps, as numbers (the tests hold the report to them). */
export interface DecodeFindings {
  readonly overPredicted: readonly number[];
  /** Per model: the cache's and the weights' streaming fractions (streamingFit). */
  readonly fits: readonly { readonly model: string; readonly kvFraction: number; readonly weightFraction: number; readonly noCacheMs: number; readonly points: number }[];
  /** Eager over graph time, at batch 1 and at the largest batch. */
  readonly eagerOverGraphBatch1: readonly number[];
  readonly worstSpread: number;
}

export function decodeFindings(rows = decodeComparisons()): DecodeFindings {
  const models = [...new Set(rows.map((r) => r.kase.model))];
  return {
    overPredicted: rows.map((r) => r.measuredMs / r.predictedMs),
    fits: models.map((model) => ({ model, ...streamingFit(rows.filter((r) => r.kase.model === model)) })),
    eagerOverGraphBatch1: rows.filter((r) => r.kase.batch === 1).map((r) => r.eagerMs / r.measuredMs),
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
    const markdown = [
      '## Decode steps on one H200 (test/validation/kernels/decode.py)',
      '',
      `Whole-model decode steps of Llama 3 8B (8 KV heads) and Llama 2 7B (a KV head per query head), run on one ${env.name} `
      + `(PyTorch ${env.torch}, CUDA ${env.cuda}, ${runs[0]!.measuredAt.slice(0, 10)}) in bf16: every sequence of the batch gets one token through `
      + 'every layer and the logits, each layer reading its own weights and KV cache, the step replayed from a CUDA graph as vLLM and TensorRT-LLM '
      + 'replay theirs. Attention over the cache is PyTorch\'s scaled_dot_product_attention, the linears cuBLAS through F.linear: PyTorch\'s '
      + `kernels, not a serving engine's. Two runs, one after the other (they differ by at most ${(f.worstSpread * 100).toFixed(1)}%); the table `
      + 'gives their mean. The raw output is kernels/decode-h200.json and kernels/decode-h200.run2.json. The prediction is `trainplan inference` '
      + 'with static batching on one GPU at the row\'s batch, a prompt of one token under the context and 2 output tokens, so the decode step\'s '
      + `mean context is the row's: each layer's weights and KV cache read at ${hbm} of the datasheet's HBM bandwidth (the Hopper calibration's), `
      + 'against its FLOPs, plus 2 µs a kernel.',
      '',
      '| model, batch, context | weights (GB) | KV cache (GB) | measured, graph (ms) | eager (ms) | predicted (ms) | measured ÷ predicted |',
      '|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${label(r)} | ${gb(r.weightBytes)} | ${gb(r.kvCacheBytes)} | ${ms(r.measuredMs)} | ${ms(r.eagerMs)} | ${ms(r.predictedMs)} | `
        + `${ratio(r.measuredMs / r.predictedMs)} |`),
      '',
      `- Measured ÷ predicted ${ratio(median(f.overPredicted))} at the median (${range(f.overPredicted)}): trainplan's step is short where the `
      + 'weights dominate and long where the KV cache does, because the two stream at different rates here and the model charges one.',
      ...f.fits.map((x) => `- ${x.model}, batches of 8 and more (${x.points} steps) fitted to a + b · KV bytes: the cache streams at `
        + `${ratio(x.kvFraction)} of HBM bandwidth, against the ${hbm} charged; without a cache a step takes ${ms(x.noCacheMs)} ms, its weights `
        + `at no less than ${ratio(x.weightFraction)} of HBM bandwidth (the kernels' fixed costs are in that time too).`),
      `- At batch 1 the cache costs more than its bytes: Llama 3 8B's step grows ${ms(rows.find((r) => r.kase.id === 'llama3-8b.b1.c4096')!.measuredMs - rows.find((r) => r.kase.id === 'llama3-8b.b1.c1024')!.measuredMs)} ms `
      + 'from 1,024 to 4,096 tokens of context for 0.4 GB more cache: scaled_dot_product_attention runs one sequence on a thread block per KV '
      + 'head (8 here), and does not split the cache over more, as flash-decoding (Dao et al. 2023) and the serving engines\' decode kernels do.',
      `- The weights stream slower here than in a serving engine: on the NVIDIA NIM (TensorRT-LLM) rows of the serving section above, concurrency 1's `
      + `time per token, which is the FP8 weights streaming, is within a few per cent of the model at ${hbm}, and PyTorch's bf16 GEMMs on a few rows reach `
      + `${ratio(Math.min(...f.fits.map((x) => x.weightFraction)))}–${ratio(Math.max(...f.fits.map((x) => x.weightFraction)))} here. trainplan keeps one HBM `
      + `fraction for both: at the cache's measured ${range(f.fits.map((x) => x.kvFraction))} it charges a KV byte `
      + `${range(f.fits.map((x) => x.kvFraction / hbm))}× the time it takes here, so a long-context batch's step comes out long, and no engine's `
      + 'decode kernels could be run here to fit a second constant on.',
      `- Replayed from a CUDA graph a batch-1 step takes ${range(f.eagerOverGraphBatch1.map((x) => 1 / x))} of its eager time: eager PyTorch launches `
      + 'each small kernel from the host, which the serving model\'s 2 µs per kernel leaves out as the engines do.',
    ];
    return {
      markdown,
      readme: [
        `- Whole-model decode steps on that H200 (\`test/validation/kernels/decode.py\`: Llama 3 8B and Llama 2 7B, batches 1–128, 1,024 and `
        + `4,096 tokens of context, CUDA graphs): measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)}); the KV cache `
        + `streams at ${range(f.fits.map((x) => x.kvFraction))} of HBM bandwidth, PyTorch's small-batch GEMMs at about `
        + `${ratio(median(f.fits.map((x) => x.weightFraction)))}, where the model charges both ${hbm}.`,
      ],
      summary: [`decode steps (H200)    ${rows.length} steps  measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)})  `
        + `KV streams at ${f.fits.map((x) => ratio(x.kvFraction)).join('/')} of HBM`],
    };
  },
};
