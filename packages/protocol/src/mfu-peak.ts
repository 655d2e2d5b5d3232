import { gpuById } from '@trainplan/presets';
import { formatPercent } from '@trainplan/units';

/**
 * What an FP8 plan's MFU (and HFU) is measured against: the planner divides by the GPU's FP8 peak for an FP8 run
 * (packages/planner/src/estimate.ts, as NVIDIA's DGX benchmarks do), twice the 16-bit one on Hopper, so "28.2%" beside a
 * BF16 run's "42.1%" reads as FP8 doing worse when it trains faster (QA). `toSixteen` turns a share of the FP8 peak into
 * one of the 16-bit peak (FP8 peak ÷ BF16 peak, or FP16's where a GPU has no BF16, as the planner's 16-bit peak falls back).
 */
export interface Fp8Peak {
  readonly toSixteen: number;
  readonly sixteen: 'BF16' | 'FP16';
}

/**
 * The FP8 peak an MFU of this GPU preset and precision is of, or undefined where it is of the 16-bit peak (a 16-bit plan,
 * or a GPU the presets do not know, whose peaks are not to be had here).
 */
export function fp8Peak(gpu: string, precision: string): Fp8Peak | undefined {
  if (precision !== 'fp8') return undefined;
  const peaks = gpuById(gpu)?.peakFlops;
  const sixteen = peaks?.bf16 ?? peaks?.fp16;
  if (peaks?.fp8 === undefined || sixteen === undefined) return undefined;
  return { toSixteen: peaks.fp8 / sixteen, sixteen: peaks.bf16 === undefined ? 'FP16' : 'BF16' };
}

/**
 * A utilisation with its denominator where that is the FP8 peak: "28.2% of the FP8 peak (56.4% of the BF16 peak)"; else
 * "42.1%". `word` follows the percentage ("28.2% MFU of the FP8 peak …", "42.1% MFU").
 */
export function peakShareText(share: number, peak: Fp8Peak | undefined, word = ''): string {
  if (peak === undefined) return `${formatPercent(share)}${word}`;
  return `${formatPercent(share)}${word} of the FP8 peak (${formatPercent(share * peak.toSixteen)} of the ${peak.sixteen} peak)`;
}
