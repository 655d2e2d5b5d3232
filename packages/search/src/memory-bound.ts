import { activationBytesPerLayer, inFlightOnStage, layersPerStage, modelStateBytes, SLOT_INDEX, stageParameters, type PipelineSlots, type StateSharding } from '@trainplan/model';
import { fp8WeightCopiesPerGpu, heldGradientBytes, savedLinearInputBytes } from '@trainplan/planner';
import type { Bytes } from '@trainplan/units';
import type { SearchBase } from './candidate.ts';

/** A numeric cache key for (tensor, context, micro-batch, sequence parallelism): no string per lookup. */
export const layerKey = (t: number, c: number, mbs: number, sp: boolean): number => ((t * 4096 + c) * 1_048_576 + mbs) * 2 + (sp ? 1 : 0);

/**
 * A closed-form lower bound on the memory of the most loaded GPU, built from the same terms the
 * planner sums (packages/planner/src/plan-memory.ts; model reference §3): model states per stage
 * (Megatron's 18 B/param, 16 under fp16, the distributed optimizer's 6 + 12/d, ZeRO; the planner's
 * gradient width; FP8's cast weight copies) and the activations stored for the micro-batches in flight (Korthikanti et al.
 * 2022, Table 2; 1F1B holds min(p − i, m) on stage i, Narayanan SC'21 §2.2; interleaving as inFlightOnStage). It leaves out only
 * non-negative terms (the embedding extras, the recompute working set, the runtime reserve,
 * fragmentation, the optimizer step's fp32 gradient copy), so a candidate it rejects cannot fit; the
 * full estimate decides the rest.
 */
export class MemoryBound {
  private readonly stageParams = new Map<number, { first: number; second: number; last: number; firstLayers: number; secondLayers: number; lastLayers: number }>();
  private readonly perLayer = new Map<number, { stored: Bytes; full: Bytes }>();

  /** Gradient bytes per parameter by sharding mode, as the planner holds them (fixed for a search). */
  private readonly gradientBytes: Record<StateSharding, number>;
  /** FP8 weight copies of one layer at t = 1, by sharding mode (0 unless FP8). */
  private readonly fp8CopiesPerLayer: Record<StateSharding, number>;

  constructor(private readonly base: SearchBase) {
    const width = (sharding: StateSharding) => heldGradientBytes({ sharding, precision: base.precision, gradientAccumulation: base.gradientAccumulation });
    this.gradientBytes = {
      none: width('none'), 'distributed-optimizer': width('distributed-optimizer'), 'zero-1': width('zero-1'), 'zero-2': width('zero-2'), 'zero-3': width('zero-3'),
    };
    const copies = (sharding: StateSharding) => fp8WeightCopiesPerGpu({ precision: base.precision, fp8Params: base.fp8Params, sharding, model: base.model, tensor: 1 }, 1);
    this.fp8CopiesPerLayer = {
      none: copies('none'), 'distributed-optimizer': copies('distributed-optimizer'), 'zero-1': copies('zero-1'), 'zero-2': copies('zero-2'), 'zero-3': copies('zero-3'),
    };
  }

  /**
   * The first, second and last stage's parameters per GPU and layer counts, for (t, p, slots). The second stands
   * for the middle ones: Megatron's uneven split makes the first and last the lightest (96 layers on 25
   * stages: 2, 4 × 23, 2), and the second holds one micro-batch fewer than the first.
   */
  stages(t: number, p: number, slots: PipelineSlots = 'layers') {
    const key = (t * 100_000 + p) * 4 + SLOT_INDEX[slots];
    let s = this.stageParams.get(key);
    if (!s) {
      const layers = layersPerStage(this.base.model.layers, p, slots);
      const params = stageParameters({ shape: this.base.model, tensorParallel: t, layersPerStage: layers });
      s = { first: params[0]!, second: params[Math.min(1, p - 1)]!, last: params[p - 1]!, firstLayers: layers[0]!, secondLayers: layers[Math.min(1, p - 1)]!, lastLayers: layers[p - 1]! };
      this.stageParams.set(key, s);
    }
    return s;
  }

  /** Stored bytes per layer and micro-batch under the recompute mode, and without recompute. */
  layerBytes(t: number, c: number, mbs: number, sp: boolean, recompute: 'none' | 'selective' | 'full') {
    const key = layerKey(t, c, mbs, sp) * 3 + (recompute === 'none' ? 0 : recompute === 'selective' ? 1 : 2);
    let v = this.perLayer.get(key);
    if (!v) {
      const act = {
        shape: this.base.model, microBatchSize: mbs, seqLength: this.base.seqLength, tensorParallel: t, contextParallel: c,
        sequenceParallel: sp, recompute, attentionKernel: this.base.attentionKernel, dropout: this.base.dropout,
        linearInputBytes: savedLinearInputBytes(this.base.precision),
      };
      v = { stored: activationBytesPerLayer(act), full: activationBytesPerLayer({ ...act, recompute: 'none' }) };
      this.perLayer.set(key, v);
    }
    return v;
  }

  /**
   * The bound for one candidate: max over the first, second and last stage of states + stored activations.
   * `recomputedLayers` counts layers per stage that keep only their input (all of them for 'full').
   * Positional and allocation-free: the enumeration calls it for every leaf of the space.
   */
  bytes(
    t: number, p: number, c: number, d: number, v: number, mbs: number, sp: boolean, microBatches: number,
    recompute: 'none' | 'selective' | 'full', sharding: StateSharding, recomputedLayers?: number, slots: PipelineSlots = 'layers',
  ): Bytes {
    const s = this.stages(t, p, slots);
    const per = this.layerBytes(t, c, mbs, sp, recompute);
    // The search plans v > 1 as interleaved 1F1B, else 1F1B (planFor).
    const schedule = v > 1 ? 'interleaved' : '1f1b';
    // Sharded states divide over the ranks that hold the same weights: data × context (planner's weightReplicas).
    const replicas = c * d;
    const first = this.stage(t, s.first, s.firstLayers, inFlightOnStage(schedule, p, microBatches, v, 0), per, recompute, sharding, replicas, recomputedLayers);
    if (p === 1) return first;
    const last = this.stage(t, s.last, s.lastLayers, inFlightOnStage(schedule, p, microBatches, v, p - 1), per, recompute, sharding, replicas, recomputedLayers);
    if (p === 2) return Math.max(first, last);
    const second = this.stage(t, s.second, s.secondLayers, inFlightOnStage(schedule, p, microBatches, v, 1), per, recompute, sharding, replicas, recomputedLayers);
    return Math.max(first, second, last);
  }

  private stage(
    t: number, params: number, layers: number, held: number, per: { stored: Bytes; full: Bytes }, recompute: 'none' | 'selective' | 'full',
    sharding: StateSharding, replicas: number, recomputedLayers: number | undefined,
  ): Bytes {
    const st = modelStateBytes({ parameters: params, sharding, dataParallel: replicas, gradientBytes: this.gradientBytes[sharding] });
    const recomputed = recompute === 'full' ? Math.min(layers, recomputedLayers ?? layers) : 0;
    const acts = held * (recomputed * per.stored + (layers - recomputed) * (recompute === 'full' ? per.full : per.stored));
    return st.weights + (layers * this.fp8CopiesPerLayer[sharding]) / t + st.gradients + st.optimizer + acts;
  }
}
