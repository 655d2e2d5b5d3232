import type { Seconds } from '@trainplan/units';
import { exposedTensorParallelBackward } from './async-tensor-parallel.ts';
import { resolveCalibration } from './calibration.ts';
import { tensorParallelLayerComm } from './comm-time.ts';
import { parallelGroups } from './groups.ts';
import { kernelContext, peak16 } from './kernel-context.ts';
import { layerComputeCost } from './layer-time.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * One transformer layer's forward and backward for one micro-batch, communication included, and
 * what each recompute mode adds: the quantities of Korthikanti et al. 2022, Table 4.
 */
export interface LayerProfile {
  readonly forwardSeconds: Seconds;
  readonly backwardSeconds: Seconds;
  /** Extra time full recompute adds to the backward pass (the forward again, collectives included). */
  readonly fullRecomputeSeconds: Seconds;
  /** Extra time selective recompute adds (the attention core only). */
  readonly selectiveRecomputeSeconds: Seconds;
}

export function layerProfile(input: PlanInput): LayerProfile {
  const ctx = kernelContext(input, resolveCalibration(input));
  const layer = layerComputeCost(input, ctx, peak16(input.gpu));
  const tp = tensorParallelLayerComm(input, parallelGroups(input));
  const forwardSeconds = layer.forward + tp.forward;
  return {
    forwardSeconds,
    // Megatron's asynchronous backward communication, when on, hides part of the backward collectives.
    backwardSeconds: layer.backward + exposedTensorParallelBackward(input, layer, tp),
    fullRecomputeSeconds: forwardSeconds,
    selectiveRecomputeSeconds: layer.attentionForward,
  };
}
