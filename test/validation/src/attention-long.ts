import { causalTileFraction, COMPUTE_CALIBRATION, flashLaunchEfficiency, peak16 } from '@trainplan/planner';
import { gpuById } from '@trainplan/presets';
import { kernelCases } from './kernel-cases.ts';
import { attentionPoints, flashBlockFit, type MeasuredKernels } from './kernels-measured.ts';
import { mean, readKernelRuns, spreadOf } from './measured-runs.ts';

/**
 * Flash attention past the sweep the launch model was fitted on (2,048–32,768 tokens): one sequence of 64k and 128k
 * tokens, 16 heads of 128, timed on the H200 by measure.py --long-attention (this repository), two runs one after the
 * other, 2026-11-29. The files are the script's output as it came back, unedited.
 */
export const LONG_ATTENTION_RUN_FILES = ['attention-long-h200.run1.json', 'attention-long-h200.run2.json'] as const;
const GPU = 'h200';

export const loadLongAttention = (): Pick<MeasuredKernels, 'environment' | 'measuredAt' | 'errors' | 'attention'>[] =>
  readKernelRuns(LONG_ATTENTION_RUN_FILES);

export interface LongAttentionPoint {
  readonly seqLength: number;
  readonly backend: 'CUDNN_ATTENTION' | 'FLASH_ATTENTION';
  /** Causal forward + backward work (layer-time.ts's count) over the runs' mean time, of the dense 16-bit peak. */
  readonly measuredFraction: number;
  /** The launch model fitted to this backend's 2k–32k rates on the H200, extrapolated: r · its launch share. */
  readonly fittedFraction: number;
  /** What the planner charges: the calibrated Hopper attention fraction times the launch share at its block cost. */
  readonly calibratedFraction: number;
  readonly causalOverFull: number;
  /** How far the two runs' causal times differ over their mean. */
  readonly spread: number;
}

const HEADS = 16;

export function longAttentionPoints(runs = loadLongAttention()): LongAttentionPoint[] {
  const gpu = gpuById(GPU)!;
  const share = (s: number, overheadTiles: number) =>
    flashLaunchEfficiency({ localTokens: s, seqLength: s, sequencesTimesHeads: HEADS, smCount: gpu.smCount, overheadTiles });
  const hopper = COMPUTE_CALIBRATION.hopper;
  return (['CUDNN_ATTENTION', 'FLASH_ATTENTION'] as const).flatMap((backend) => {
    const fit = flashBlockFit(GPU, backend);
    return kernelCases().longAttention.filter((c) => c.causal).map((c): LongAttentionPoint => {
      const time = (id: string) => runs.map((r) => r.attention.find((a) => a.id === id && a.backend === backend && a.error === undefined)!.forwardBackwardMs);
      const causal = time(c.id);
      const full = time(c.id.replace('.causal', '.full'));
      const flop = 3.5 * 4 * c.batch * c.heads * c.seqLength ** 2 * c.headDim * causalTileFraction(c.seqLength);
      return {
        seqLength: c.seqLength,
        backend,
        measuredFraction: flop / (mean(causal) * 1e-3) / peak16(gpu),
        fittedFraction: fit.fraction * share(c.seqLength, fit.overheadTiles),
        calibratedFraction: hopper.attentionPeakFraction * share(c.seqLength, hopper.attentionBlockOverheadTiles),
        causalOverFull: mean(causal) / mean(full),
        spread: spreadOf(causal),
      };
    });
  });
}

/** The H200's measured cuDNN rate at the sweep's longest length (32,768 tokens), for comparison. */
export const cudnnRateAt32k = (): number => attentionPoints(GPU).find((p) => p.backend === 'CUDNN_ATTENTION' && p.seqLength === 32768)!.causalFraction;

const signed = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The kernels section's lines on these lengths. */
export function longAttentionLines(points = longAttentionPoints()): string[] {
  const cudnn = points.filter((p) => p.backend === 'CUDNN_ATTENTION');
  const fa2 = points.filter((p) => p.backend === 'FLASH_ATTENTION');
  const overCharge = cudnn.map((p) => p.calibratedFraction / p.measuredFraction - 1);
  return [
    '### Past the fit: 64k and 128k tokens (H200, one sequence, 16 heads of 128)',
    '',
    'The launch model was fitted on 2,048 to 32,768 tokens; long-context training runs attention over far longer sequences (or their context-'
    + 'parallel chunks). Timed on the H200 by measure.py --long-attention, two runs (kernels/attention-long-h200.run1.json and .run2.json, '
    + `causal times within ${(Math.max(...points.map((p) => p.spread)) * 100).toFixed(1)}% of each other), the fit extrapolated and the planner's `
    + 'calibrated charge set against them:',
    '',
    '| tokens | kernel | measured, fraction of peak | the fit, extrapolated | trainplan (calibrated) | trainplan ÷ measured rate | causal ÷ full time |',
    '|---|---|---|---|---|---|---|',
    ...points.map((p) => `| ${p.seqLength.toLocaleString('en-US')} | ${p.backend === 'CUDNN_ATTENTION' ? 'cuDNN' : 'FlashAttention-2'} | `
      + `${p.measuredFraction.toFixed(3)} | ${p.fittedFraction.toFixed(3)} | ${p.calibratedFraction.toFixed(3)} | ${(p.calibratedFraction / p.measuredFraction).toFixed(2)} | `
      + `${p.causalOverFull.toFixed(2)} |`),
    '',
    `- cuDNN's rate stops rising past the fit: ${cudnn.map((p) => p.measuredFraction.toFixed(3)).join(' and ')} of peak at 64k and 128k, against `
    + `${cudnnRateAt32k().toFixed(3)} at 32k, where the launch model keeps approaching its long-sequence rate. So trainplan charges attention at these `
    + `lengths ${cudnn.map((p) => pct(1 - p.measuredFraction / p.calibratedFraction)).join(' and ')} less time than cuDNN takes alone (its rate `
    + `${overCharge.map(signed).join(' and ')} over the measured one): in a 128k-token step, where attention is most of the compute, `
    + 'that is a few per cent of the step too fast. Not adopted as a change: one GPU, two lengths, one kernel version; the training rows '
    + 'hold no sequence this long to check a refit against.',
    `- FlashAttention-2 through PyTorch reaches ${fa2.map((p) => p.measuredFraction.toFixed(3)).join(' and ')} there, as at 32k: cuDNN, which `
    + 'Transformer Engine runs, stays the kernel the Hopper constant describes.',
    `- Causal over full time: cuDNN ${cudnn.map((p) => p.causalOverFull.toFixed(2)).join(' and ')}, FlashAttention-2 `
    + `${fa2.map((p) => p.causalOverFull.toFixed(2)).join(' and ')}; the tiles on and below the diagonal are `
    + `${causalTileFraction(65536).toFixed(3)} and ${causalTileFraction(131072).toFixed(3)} of them.`,
  ];
}
