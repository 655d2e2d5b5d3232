import { gpuById } from '@trainplan/presets';
import { defaultPrecision, type NodesResponseJson } from '@trainplan/protocol';
import { hours, TFLOPS } from '@trainplan/units';
import { DEFAULT_GPU } from '../defaults.ts';
import type { AskParameters } from '../question.ts';

/**
 * The FLOPs a plan spends as its MFU counts them, beside the 6·N·D a compute-optimal size is read with (chinchilla-size.ts):
 * MFU counts attention's products over the sequence too, as Megatron counts them (training-flops.ts), which 6ND leaves out.
 */

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/** The GPU's peak FLOP/s at the precision asked or its default (BF16 where it runs it). */
export function peakOf(gpu: string, precision: AskParameters['precision']): number {
  const spec = gpuById(gpu) ?? gpuById(DEFAULT_GPU)!;
  return spec.peakFlops[precision ?? defaultPrecision(spec)] ?? spec.peakFlops.bf16 ?? spec.peakFlops.fp16 ?? 0;
}

/** A plan's model FLOPs: its GPU-hours (on the wall clock at its uptime) × the peak its MFU is of × the MFU; with that peak. */
export function planModelFlops(data: NodesOk): { flops: number; peak: number } {
  const e = data.configuration.estimate;
  const peak = e.peakTflopsPerGpu === undefined ? peakOf(e.resolved.gpu, e.resolved.precision) : TFLOPS(e.peakTflopsPerGpu);
  return { flops: hours(data.gpuHours * (data.uptime ?? 1)) * peak * e.mfu, peak };
}

/** How far apart two sizes are, as said beside them: |a / b − 1| ("0.9%"). */
export const apart = (a: number, b: number): number => Math.abs(a / b - 1);
