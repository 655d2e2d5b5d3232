import type { ComputeCalibration } from '@trainplan/planner';
import { COMPUTE_CALIBRATION } from '@trainplan/planner';
import { calibrationChecks } from './kernels-measured.ts';
import { scoreAll, summarise, type CalibrationOverrides } from './score.ts';

/**
 * `npm run calibrate`: a coordinate search of the compute calibration constants of one GPU
 * generation, minimising the step-time MAPE over that generation's tier A/B rows. It prints the
 * best constants; copying them into packages/planner/src/calibration.ts is a reviewed change.
 */
const generation = (process.argv[2] ?? 'ampere') as keyof typeof COMPUTE_CALIBRATION;
const gpuFor = { ampere: 'a100-80gb', hopper: 'h100-sxm' } as Record<string, string>;
const keys: (keyof ComputeCalibration)[] = ['gemmPeakFraction', 'attentionPeakFraction', 'hbmFraction', 'kernelOverhead', 'fp8GemmPeakFraction'];
const steps: Record<string, number[]> = {
  gemmPeakFraction: [-0.04, -0.02, -0.01, 0.01, 0.02, 0.04],
  attentionPeakFraction: [-0.08, -0.04, -0.02, 0.02, 0.04, 0.08],
  hbmFraction: [-0.1, -0.05, 0.05, 0.1],
  kernelOverhead: [-2e-6, -1e-6, 1e-6, 2e-6, 4e-6],
  fp8GemmPeakFraction: [-0.04, -0.02, 0.02, 0.04],
};

/** Physically plausible ranges: the fit may not leave them (an HBM fraction of 0.4 would fit noise, not physics). */
const BOUNDS: Record<string, [number, number]> = {
  gemmPeakFraction: [0.5, 0.92],
  attentionPeakFraction: [0.3, 0.75],
  hbmFraction: [0.7, 0.92],
  kernelOverhead: [2e-6, 10e-6],
  fp8GemmPeakFraction: [0.3, 0.8],
};

/**
 * Where kernels were measured on the generation's GPU (kernels-measured.ts: Hopper, on an H100), no fraction may exceed
 * what its kernel reaches alone: the fit may charge a step more than its kernels, never less.
 */
if (generation === 'hopper') {
  for (const check of calibrationChecks()) {
    const range = BOUNDS[check.constant];
    if (range && check.constant !== 'kernelOverhead') range[1] = Math.min(range[1], check.measured);
  }
}

let current: ComputeCalibration = { ...COMPUTE_CALIBRATION[generation] };
const score = (c: ComputeCalibration): number => {
  const overrides: CalibrationOverrides = { [generation]: c };
  const rows = scoreAll(overrides).filter((r) => r.estimate.resolved.gpu === gpuFor[generation]);
  return summarise(rows).overall.mape;
};
let best = score(current);
console.log(`start ${JSON.stringify(current)} MAPE ${(best * 100).toFixed(2)}%`);
for (let round = 0; round < 4; round++) {
  let improved = false;
  for (const key of keys) {
    for (const delta of steps[key] ?? []) {
      const trial = { ...current, [key]: current[key] + delta };
      const [lo, hi] = BOUNDS[key]!;
      if (trial[key] < lo - 1e-12 || trial[key] > hi + 1e-12) continue;
      const s = score(trial);
      if (s < best - 1e-5) { best = s; current = trial; improved = true; }
    }
  }
  console.log(`round ${round + 1}: ${JSON.stringify(current)} MAPE ${(best * 100).toFixed(2)}%`);
  if (!improved) break;
}
