import type { Precision } from '@trainplan/hardware';
import { formatGrouped, formatNumber, toGBps, toTFLOPS, toUs, type BytesPerSecond, type FlopPerSecond, type Seconds } from '@trainplan/units';

/**
 * The figures a preset's summary (preset-summary.ts) and `trainplan presets` show, each in one unit whatever its size,
 * so that a figure reads against the same figure of the preset above it (QA: "989 TFLOP/s" above "2.25 PFLOP/s",
 * "900 GB/s" above "1.55 TB/s", "990 ns" above "1.00 µs"), and grouped by thousands ("1,000 W", "2,250 TFLOP/s").
 */

/** A peak in TFLOP/s, the unit datasheets quote: "989", "2,250", "19.5". */
export const tflops = (f: FlopPerSecond): string => formatGrouped(toTFLOPS(f));
export const tflopsText = (f: FlopPerSecond): string => `${tflops(f)} TFLOP/s`;

/** A bandwidth in GB/s: "900 GB/s", "1,555 GB/s" (the A100 datasheet's own figure, which "1.56 TB/s" rounded), "12.5 GB/s". */
export const gbpsText = (r: BytesPerSecond): string => `${formatGrouped(toGBps(r))} GB/s`;

/** Power in watts: "700 W", "1,000 W". */
export const wattsText = (w: number): string => `${formatGrouped(w)} W`;

/** A network's latency in µs to two figures: the presets' 870 ns, 990 ns, 1 µs and 2 µs read "0.87", "0.99", "1.0" and "2.0 µs". */
export const latencyText = (s: Seconds): string => `${formatNumber(toUs(s), 2)} µs`;

/** A precision as datasheets write it. */
export const PRECISION_NAMES: Readonly<Record<Precision, string>> = { fp8: 'FP8', bf16: 'BF16', fp16: 'FP16', tf32: 'TF32', fp32: 'FP32' };

/** "Hopper", from the generation id "hopper". */
export const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
