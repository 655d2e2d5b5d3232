import type { GpuSpec } from '@trainplan/hardware';
import type { FlopPerSecond } from '@trainplan/units';
import type { ComputeCalibration } from './calibration.ts';
import type { KernelContext } from './kernel-time.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * The 16-bit dense tensor peak: bf16's, or fp16's on a GPU without BF16 tensor cores (V100). Only fp16
 * plans take that fallback: checkPlan refuses bf16 on such a GPU (training.precision). Every GPU with
 * both states the same peak for each (packages/hardware/src/gpus.ts).
 */
export function peak16(gpu: GpuSpec): FlopPerSecond {
  return gpu.peakFlops.bf16 ?? gpu.peakFlops.fp16 ?? 0;
}

export function kernelContext(input: PlanInput, calibration: ComputeCalibration): KernelContext {
  const fp8 = input.precision === 'fp8' && input.gpu.peakFlops.fp8 !== undefined;
  return {
    gpu: input.gpu,
    calibration,
    gemmPeak: fp8 ? input.gpu.peakFlops.fp8! : peak16(input.gpu),
    gemmFraction: fp8 ? calibration.fp8GemmPeakFraction : calibration.gemmPeakFraction,
    gemmOperandBytes: fp8 ? 1 : 2,
  };
}
