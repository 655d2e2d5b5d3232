import { readFileSync } from 'node:fs';
import { gpuById } from '@trainplan/presets';

/**
 * What the sections built on kernels/*.json share: reading a script's output files as they came back from the GPU, the
 * mean of two runs and how far they differ, and ratios printed as the report prints them.
 */
/** The GPU the decode, prefill and optimizer runs were measured on (each file's `environment`). */
export const MEASURED_GPU = 'h200';

/** Its datasheet HBM bandwidth (@trainplan/presets), bytes per second: what the sections' streaming fractions are of. */
export const measuredGpuHbmBandwidth = (): number => gpuById(MEASURED_GPU)!.hbmBandwidth;

export const readKernelRuns = <T>(files: readonly string[]): T[] =>
  files.map((f) => JSON.parse(readFileSync(new URL(`../kernels/${f}`, import.meta.url), 'utf8')) as T);

export const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The runs' difference over their mean. */
export const spreadOf = (xs: readonly number[]): number => (Math.max(...xs) - Math.min(...xs)) / mean(xs);

export const ratio = (x: number): string => x.toFixed(2);

/** The least and the most of some ratios, to two decimals: one figure where they print alike. */
export const range = (xs: readonly number[]): string => {
  const [low, high] = [Math.min(...xs).toFixed(2), Math.max(...xs).toFixed(2)];
  return low === high ? low : `${low}–${high}`;
};
