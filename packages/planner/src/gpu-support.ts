import type { GpuSpec } from '@trainplan/hardware';
import type { AttentionKernel } from '@trainplan/model';
import type { TrainingPrecision } from './plan-input.ts';

/**
 * What a GPU generation can run, and the defaults that follow for a scenario that leaves them out.
 *
 * FlashAttention needs Ampere or newer: FlashAttention-2 "currently supports Ampere, Ada, or Hopper GPUs"
 * (Dao-AILab/flash-attention README), FlashAttention-1 Turing and Ampere, and Transformer Engine's fused
 * attention sm80+. Volta (V100) runs Megatron's unfused softmax attention.
 */
export const runsFlashAttention = (gpu: GpuSpec): boolean => gpu.generation !== 'volta';

/** Flash attention where the GPU runs it, else the unfused softmax attention. */
export const defaultAttentionKernel = (gpu: GpuSpec): AttentionKernel => (runsFlashAttention(gpu) ? 'flash' : 'unfused');

/** Whether the GPU has BF16 tensor cores: Volta has FP16 ones only. */
export const runsBf16 = (gpu: GpuSpec): boolean => gpu.peakFlops.bf16 !== undefined;

/** BF16 mixed precision where the GPU has BF16 tensor cores, else FP16 with loss scaling (Volta). */
export const defaultPrecision = (gpu: GpuSpec): TrainingPrecision => (runsBf16(gpu) ? 'bf16' : 'fp16');
