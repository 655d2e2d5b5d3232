import type { Bytes, Count } from '@trainplan/units';

/**
 * How optimizer state, gradients and weights are sharded across the d data-parallel ranks.
 * - 'none': Megatron mixed precision with Adam, 18 B/param: 16-bit weights 2 + fp32 gradient
 *   accumulation 4 + fp32 master weights, momentum and variance 12 (Korthikanti 2022 §2;
 *   model reference §3).
 * - 'distributed-optimizer': Megatron's distributed optimizer, 6 + 12/d B/param.
 * - 'zero-1' … 'zero-3': DeepSpeed ZeRO (Rajbhandari et al. 2020), 16 B/param (2 + 2 + 12): stage 1
 *   shards the 12, stage 2 also the gradients, stage 3 also the weights.
 */
export type StateSharding = 'none' | 'distributed-optimizer' | 'zero-1' | 'zero-2' | 'zero-3';

export interface ModelStateBytes {
  readonly weights: Bytes;
  readonly gradients: Bytes;
  readonly optimizer: Bytes;
}

const WEIGHT_BYTES = 2;
const MEGATRON_GRADIENT_BYTES = 4;
const ZERO_GRADIENT_BYTES = 2;
const ADAM_STATE_BYTES = 12;

/**
 * `gradientBytes` replaces the sharding mode's own gradient-buffer size per parameter (4 for Megatron,
 * 2 for ZeRO) when the framework accumulates elsewhere, e.g. DeepSpeed's BF16 optimizer: 16-bit
 * gradients plus an unsharded fp32 accumulation buffer, 2 + 4 (bigscience tr11 chronicles-prequel:
 * "The additional memory usage is 4bytes x params and it's not sharded across gpus").
 */
export function modelStateBytes(input: { parameters: Count; sharding: StateSharding; dataParallel: number; gradientBytes?: number }): ModelStateBytes {
  const { parameters: n, dataParallel: d } = input;
  const zeroGradients = (input.gradientBytes ?? ZERO_GRADIENT_BYTES) * n;
  const megatronGradients = (input.gradientBytes ?? MEGATRON_GRADIENT_BYTES) * n;
  switch (input.sharding) {
    case 'none':
      return { weights: WEIGHT_BYTES * n, gradients: megatronGradients, optimizer: ADAM_STATE_BYTES * n };
    case 'distributed-optimizer':
      return { weights: WEIGHT_BYTES * n, gradients: megatronGradients, optimizer: (ADAM_STATE_BYTES * n) / d };
    case 'zero-1':
      return { weights: WEIGHT_BYTES * n, gradients: zeroGradients, optimizer: (ADAM_STATE_BYTES * n) / d };
    case 'zero-2':
      return { weights: WEIGHT_BYTES * n, gradients: zeroGradients / d, optimizer: (ADAM_STATE_BYTES * n) / d };
    case 'zero-3':
      return { weights: (WEIGHT_BYTES * n) / d, gradients: zeroGradients / d, optimizer: (ADAM_STATE_BYTES * n) / d };
  }
}

/** Bytes per parameter for a sharding mode, e.g. 18 for 'none' and 6 + 12/d for the distributed optimizer. */
export function bytesPerParameter(sharding: StateSharding, dataParallel: number): number {
  const s = modelStateBytes({ parameters: 1, sharding, dataParallel });
  return s.weights + s.gradients + s.optimizer;
}
