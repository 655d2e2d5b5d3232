import { pipelineSplit } from '@trainplan/model';
import {
  contextParallelLayerComm, exposedTensorParallelBackward, kernelContext, layerComputeCost, logitsCost, parallelGroups, peak16, pipelineSend, resolveCalibration,
  tensorParallelLayerComm,
} from '@trainplan/planner';
import type { Seconds } from '@trainplan/units';
import { overlapPipelineCommFor, planFor, type Candidate, type SearchBase } from './candidate.ts';
import { layerKey } from './memory-bound.ts';

/** One layer and micro-batch on one GPU, exposed communication included. */
interface LayerTimes {
  /** Forward + backward, with the exposed tensor-parallel collectives. */
  readonly base: Seconds;
  /** What full recompute adds per recomputed layer (the forward again, its collectives and ring exchanges included). */
  readonly full: Seconds;
  /** What selective recompute adds per layer (the attention core, its ring exchanges included). */
  readonly selective: Seconds;
  /** One pipeline send of a micro-batch's activations (or their gradient) across a stage boundary, when p > 1. */
  readonly send: Seconds;
  /** The output layer and loss, forward and backward, on the last stage. */
  readonly logits: Seconds;
}

/**
 * A lower bound on the step time of a candidate, in O(1) after one layer costing per (tensor,
 * context, micro-batch, sequence parallelism). It keeps the terms of the planner's step
 * (packages/planner/src/estimate.ts) that follow from the layer and one send alone: the slowest stage's m
 * micro-batches (it holds at least ⌈L/p⌉ layers, each with its exposed tensor- and context-parallel
 * communication) or the last stage's layers and output layer, the 1F1B bubble over the stages' floors
 * (Narayanan et al. SC'21 §2.2; planner pipeline-schedule.ts), and the pipeline sends. It drops the non-negative rest (the embedding, exposed data-parallel reduction,
 * optimizer step), so no candidate whose bound exceeds a plan's full estimate can beat that plan. (Without the
 * context exchange and the sends, GPT-3 175B on 192 nodes went through 1,471 full estimates; with them, 271.)
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
      const ctx = kernelContext(input, resolveCalibration(input));
      const compute = layerComputeCost(input, ctx, peak16(input.gpu));
      const logits = logitsCost(input, ctx);
      const groups = parallelGroups(input);
      const tp = tensorParallelLayerComm(input, groups);
      const tpForward = tp.forward;
      // Megatron's asynchronous backward communication, when on, hides part of the backward collectives.
      const tpBackward = exposedTensorParallelBackward(input, compute, tp);
      // Transformer Engine's overlap hides the collectives behind the GEMMs (planner stage-time.ts).
      const overlap = input.overlapTensorParallelComm;
      const exposedForward = overlap ? Math.max(0, tpForward - compute.gemmForward) : tpForward;
      const exposedBackward = overlap ? Math.max(0, tpBackward - compute.gemmBackward) : tpBackward;
      // Ring attention's K/V exchanges, hidden behind the attention block each feeds (planner stage-time.ts): their
      // placement follows TP and CP alone (Megatron's tp-cp-dp-pp rank order), so pipeline 1 and data 1 place them too.
      const cp = contextParallelLayerComm(input, groups);
      const exposedContextForward = Math.max(0, cp.forward - compute.attentionForward);
      const exposedContext = exposedContextForward + Math.max(0, cp.backward - compute.attentionBackward);
      // A send's size follows TP, CP, the micro-batch and SP; whether a boundary crosses nodes, the whole cluster
      // against one NVLink domain (planner groups.ts: stages laid out one after another).
      const crossNode = this.base.nodes * this.base.gpusPerNode > this.base.nvlinkDomainGpus;
      times = {
        base: compute.forward + compute.backward + exposedForward + exposedBackward + exposedContext,
        // A recomputed layer's attention exchanges its K and V again (planner stage-time.ts), under either recompute.
        full: compute.forward + exposedForward + exposedContextForward,
        selective: compute.attentionForward + exposedContextForward,
        send: pipelineSend({ ...input, pipeline: 2 }, { ...groups, pipelineCrossesNodes: crossNode }),
        logits: logits.forward + logits.backward,
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
    // The last stage holds its own layers and the output layer (Megatron's split: pipelineSplit's `last`), which on a large
    // vocabulary outweighs a layer (Llama 3's 128,256 words at h 8,192: 1.3 layers' FLOPs, 128,256 / 12h).
    const split = pipelineSplit(L, c.pipeline, c.pipelineSlots ?? 'layers');
    const lastLayers = split?.last ?? least;
    // A stage of n layers takes at least its layers and their recompute (with partial full recompute, N of them).
    const stageFloor = (n: number): Seconds => n * layer.base + (c.recompute === 'full' ? Math.min(n, c.recomputeLayers ?? n) : n) * extra;
    const last = stageFloor(lastLayers) + layer.logits;
    const slowest = Math.max(most * layer.base + recomputed * extra, last);
    if (c.pipeline <= 1 || split === undefined) return microBatches * slowest;
    // The 1F1B bubble is (Σt_i − max t_i)/v (planner pipeline-schedule.ts). Each stage's t_i is at least its floor f_i,
    // and for whichever stage k is slowest, Σ_{i≠k} t_i ≥ Σ_{i≠k} f_i ≥ Σf − max f: the floors' own bubble bounds it.
    const first = stageFloor(split.first);
    const middle = stageFloor(split.middle);
    const floors = first + (c.pipeline - 2) * middle + last;
    const bubble = (floors - Math.max(first, last, c.pipeline > 2 ? middle : 0)) / c.virtualStages;
    // The planner's pipeline sends (estimate.ts): overlapped only under the interleaved schedule, where the warm-up and
    // cool-down's 2(p − 1) stay exposed; otherwise every micro-batch's chunk sends, 2(v·m + p − 1).
    const overlapped = overlapPipelineCommFor(this.base.overlapPipelineComm, c);
    const sends = overlapped ? 2 * (c.pipeline - 1) : 2 * (c.virtualStages * microBatches + c.pipeline - 1);
    return microBatches * slowest + bubble + sends * layer.send;
  }
}
