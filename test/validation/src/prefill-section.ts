import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { calibrationChecks, median } from './kernels-measured.ts';
import { loadMeasuredPrefill, prefillComparisons, prefillGemmRates, type PrefillComparison } from './prefill-measured.ts';
import type { ValidationSection } from './sections.ts';
import { range, ratio } from './measured-runs.ts';

const ms = (x: number): string => x.toFixed(1);

/**
 * Prompts this short or shorter read the weights for longer than their GEMMs compute: on the H200 a token's 2 FLOPs a
 * 2-byte weight meet the peak over HBM bandwidth (989 TFLOP/s over 4.8 TB/s, 206 FLOPs a byte) at about 206 tokens.
 */
const SHORT_PROMPT_TOKENS = 128;

/** What the report says of the prefills, as numbers (the tests hold the report to them). */
export interface PrefillFindings {
  readonly overPredicted: readonly number[];
  /** The GEMMs' rate over the dense 16-bit peak, from 512 tokens on, and the short prompt's weights over HBM bandwidth. */
  readonly gemmPeakLong: readonly number[];
  readonly weightsShort: readonly number[];
  /** The element-wise and other kernels' share of the prefill. */
  readonly otherShare: readonly number[];
  /** Graph over eager time: the short prompt's, and from 2,048 tokens a sequence on. */
  readonly graphOverEagerShort: readonly number[];
  readonly graphOverEagerLong: readonly number[];
  readonly worstSpread: number;
}

export function prefillFindings(rows = prefillComparisons()): PrefillFindings {
  const rates = rows.map((r) => ({ r, g: prefillGemmRates(r) }));
  return {
    overPredicted: rows.map((r) => r.measuredMs / r.predictedMs),
    gemmPeakLong: rates.filter(({ r }) => r.kase.prompt > SHORT_PROMPT_TOKENS).map(({ g }) => g.peakFraction),
    weightsShort: rates.filter(({ r }) => r.kase.prompt <= SHORT_PROMPT_TOKENS).map(({ g }) => g.weightsHbmFraction),
    otherShare: rows.map((r) => r.otherMs / r.measuredMs),
    graphOverEagerShort: rows.filter((r) => r.kase.prompt <= SHORT_PROMPT_TOKENS).map((r) => r.measuredMs / r.eagerMs),
    graphOverEagerLong: rows.filter((r) => r.kase.prompt >= 2048).map((r) => r.measuredMs / r.eagerMs),
    worstSpread: Math.max(...rows.map((r) => r.spread)),
  };
}

const label = (r: PrefillComparison): string =>
  `${r.kase.model}, ${r.kase.batch === 1 ? 'one prompt' : `${r.kase.batch} prompts`} of ${r.kase.prompt.toLocaleString('en-US')} tokens`;

export const prefillSection: ValidationSection = {
  name: 'prefill',
  run() {
    const runs = loadMeasuredPrefill();
    const rows = prefillComparisons(runs);
    const f = prefillFindings(rows);
    const env = runs[0]!.environment;
    const hopper = COMPUTE_CALIBRATION.hopper;
    const gemmAlone = calibrationChecks('h200').find((c) => c.constant === 'gemmPeakFraction')!.measured;
    const prompts = rows.map((r) => r.kase.prompt);
    // The shortest prompt past SHORT_PROMPT_TOKENS: where the GEMMs' rate is quoted from.
    const fromTokens = Math.min(...prompts.filter((p) => p > SHORT_PROMPT_TOKENS));
    const markdown = [
      '## Prefills on one H200 (test/validation/kernels/decode.py --prefill)',
      '',
      `The time to first token of Llama 3 8B and Llama 2 7B, measured whole on one ${env.name} (PyTorch ${env.torch}, CUDA ${env.cuda}, `
      + `${runs[0]!.measuredAt.slice(0, 10)}) in bf16 with the decode steps' model code: every prompt token through every layer at once, causal `
      + 'attention through scaled_dot_product_attention (cuDNN\'s fused kernel, the query heads grouped natively over their KV heads), the K and V '
      + 'written into the cache, the last token\'s logits; replayed from a CUDA graph and run eagerly, one more eager run profiled by kind. Two '
      + `runs, one after the other (their prefills differ by at most ${(f.worstSpread * 100).toFixed(1)}%); the table gives their mean. The raw `
      + 'output is kernels/prefill-h200.run1.json and kernels/prefill-h200.run2.json. The prediction is `trainplan inference`\'s first token for a '
      + 'static batch of these prompts on one GPU: the planner\'s forward layer (GEMMs against the tensor peak with tile and wave quantisation, '
      + `flash attention per thread block, element-wise traffic) at the calibrated Hopper constants (GEMM ${hopper.gemmPeakFraction}, attention `
      + `${hopper.attentionPeakFraction}, HBM ${hopper.hbmFraction}, ${(hopper.kernelOverhead * 1e6).toFixed(0)} µs a kernel), over every layer, and `
      + 'the last tokens\' logits (the output layer\'s weights read once more).',
      '',
      '| model, prompts | measured, graph (ms) | eager (ms) | predicted (ms) | measured ÷ predicted | GEMMs (ms) | GEMMs, of the 16-bit peak | attention (ms) | the rest (ms) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${label(r)} | ${ms(r.measuredMs)} | ${ms(r.eagerMs)} | ${ms(r.predictedMs)} | ${ratio(r.measuredMs / r.predictedMs)} | `
        + `${ms(r.gemmMs)} | ${ratio(prefillGemmRates(r).peakFraction)} | ${ms(r.attentionMs)} | ${ms(r.otherMs)} |`),
      '',
      `- Measured ÷ predicted ${ratio(median(f.overPredicted))} at the median (${range(f.overPredicted)}): trainplan's first token is later than `
      + 'these prefills on every row, as it charges the whole training layers above more than they take alone: its constants were fitted '
      + 'on multi-GPU training steps, which run more beside their kernels than a prefill does.',
      `- From ${fromTokens.toLocaleString('en-US')} tokens on the GEMMs run at ${range(f.gemmPeakLong)} of the dense 16-bit peak, above the plan GEMMs' median alone `
      + `(${ratio(gemmAlone)}, kernels section) and the calibrated ${hopper.gemmPeakFraction}. A prompt of ${SHORT_PROMPT_TOKENS} tokens reads the `
      + `weights for longer than it multiplies them: its GEMMs stream them at ${range(f.weightsShort)} of HBM bandwidth, as the planner's `
      + 'roofline charges (the larger of operand traffic and tensor-core time, kernel-time.ts).',
      `- The rest, PyTorch's unfused element-wise kernels (RMSNorm as eight ops, SiLU · up over fc1's two halves, the residuals, the cache writes), is `
      + `${range(f.otherShare)} of each prefill; a serving engine fuses them, so a serving engine's prefill would be faster still than measured here.`,
      `- Launches: the short prompt replays from its CUDA graph in ${range(f.graphOverEagerShort)} of its eager time, the host launching each `
      + `kernel being most of the difference; from 2,048 tokens a sequence the two are within ${((1 - Math.min(...f.graphOverEagerLong)) * 100).toFixed(0)}%, `
      + 'the GEMMs long enough to hide them.',
    ];
    return {
      markdown,
      readme: [
        `- Whole-model prefills on that H200 (\`test/validation/kernels/decode.py --prefill\`: Llama 3 8B and Llama 2 7B, prompts of `
        + `${Math.min(...prompts).toLocaleString('en-US')} to ${Math.max(...prompts).toLocaleString('en-US')} tokens): measured ÷ trainplan's first `
        + `token ${ratio(median(f.overPredicted))} (${range(f.overPredicted)}), conservative on every row; the GEMMs reach ${range(f.gemmPeakLong)} of `
        + `the 16-bit peak from ${fromTokens.toLocaleString('en-US')} tokens.`,
      ],
      summary: [`prefills (H200)        ${rows.length} prefills  measured ÷ predicted ${ratio(median(f.overPredicted))} (${range(f.overPredicted)})  `
        + `GEMMs at ${range(f.gemmPeakLong)} of peak`],
    };
  },
};
