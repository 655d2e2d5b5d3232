import {
  exposedTensorParallelBackward, kernelContext, layerComputeCost, parallelGroups, peak16, resolveCalibration, tensorParallelLayerComm,
} from '@trainplan/planner';
import type { Seconds } from '@trainplan/units';
import { planFor, type Candidate, type SearchBase } from './candidate.ts';
import { layerKey } from './memory-bound.ts';

/** One layer and micro-batch on one GPU, exposed communication included. */
interface LayerTimes {
  /** Forward + backward, with the exposed tensor-parallel collectives. */
  readonly base: Seconds;
  /** What full recompute adds per recomputed layer (the forward again, its collectives included). */
  readonly full: Seconds;
  /** What selective recompute adds per layer (the attention core). */
  readonly selective: Seconds;
}

/**
 * A lower bound on the step time of a candidate, in O(1) after one layer costing per (tensor,
 * context, micro-batch, sequence parallelism). It keeps the terms of the planner's step
 * (packages/planner/src/estimate.ts) that follow from the layer alone: the slowest stage's m
 * micro-batches (it holds at least ⌈L/p⌉ layers) and the 1F1B bubble, (p − 1)/v times the mean stage
 * (Narayanan et al. SC'21 §2.2). It drops the non-negative rest (embedding and logits, pipeline sends,
 * exposed data-parallel reduction, context-parallel exchange, optimizer step), so no candidate whose
 * bound exceeds a plan's full estimate can beat that plan.
 */
export class StepBound {
  private readonly cache = new Map<number, LayerTimes>();

  constructor(private readonly base: SearchBase) {}

  layer(t: number, c: number, mbs: number, sp: boolean): LayerTimes {
    const key = layerKey(t, c, mbs, sp);
    let times = this.cache.get(key);
    if (!times) {
      const input = planFor(this.base, {
        tensor: t, pipeline: 1, data: 1, context: c, virtualStages: 1, microBatchSize: mbs, sequenceParallel: sp, recompute: 'none', sharding: 'none',
      });
      const compute = layerComputeCost(input, kernelContext(input, resolveCalibration(input)), peak16(input.gpu));
      const tp = tensorParallelLayerComm(input, parallelGroups(input));
      const tpForward = tp.forward;
      // Megatron's asynchronous backward communication, when on, hides part of the backward collectives.
      const tpBackward = exposedTensorParallelBackward(input, compute, tp);
      // Transformer Engine's overlap hides the collectives behind the GEMMs (planner stage-time.ts).
      const overlap = input.overlapTensorParallelComm;
      const exposedForward = overlap ? Math.max(0, tpForward - compute.gemmForward) : tpForward;
      const exposedBackward = overlap ? Math.max(0, tpBackward - compute.gemmBackward) : tpBackward;
      times = {
        base: compute.forward + compute.backward + exposedForward + exposedBackward,
        full: compute.forward + exposedForward,
        selective: compute.attentionForward,
      };
      this.cache.set(key, times);
    }
    return times;
  }

  seconds(c: Candidate, microBatches: number): Seconds {
    const layer = this.layer(c.tensor, c.context, c.microBatchSize, c.sequenceParallel);
    const L = this.base.model.layers;
    const most = Math.ceil(L / c.pipeline);
    const least = Math.floor(L / c.pipeline);
    const extra = c.recompute === 'full' ? layer.full : c.recompute === 'selective' ? layer.selective : 0;
    // The slowest stage holds ⌈L/p⌉ layers; partial full recompute re-runs at most N of them.
    const recomputed = c.recompute === 'full' ? Math.min(most, c.recomputeLayers ?? most) : most;
    const slowest = most * layer.base + recomputed * extra;
    const leastRecomputed = c.recompute === 'full' ? Math.min(least, c.recomputeLayers ?? least) : least;
    const mean = (L / c.pipeline) * layer.base + leastRecomputed * extra;
    return microBatches * slowest + (c.pipeline > 1 ? ((c.pipeline - 1) / c.virtualStages) * mean : 0);
  }
}
