import type { Algorithm } from './types.ts';

/**
 * Whether an algorithm reduces in the switches, not in the GPUs the bandwidth bound counts (bandwidth-bound.ts): NVLS
 * inside the NVSwitch (each GPU sends its data once: 480 GB/s busbw on an H100's 450 GB/s wire), NVLSTree inheriting it,
 * CollNet in the InfiniBand switches (SHARP).
 */
export const reducesInNetwork = (algorithm: Algorithm): boolean =>
  algorithm === 'nvls' || algorithm === 'nvls-tree' || algorithm.startsWith('collnet');
