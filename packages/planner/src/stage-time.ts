import type { Seconds } from '@trainplan/units';
import { exposedTensorParallelBackward } from './async-tensor-parallel.ts';
import type { TensorParallelLayerComm } from './comm-time.ts';
import type { LayerComputeCost } from './layer-time.ts';
import type { PlanInput } from './plan-input.ts';

/** One micro-batch's forward and backward on one pipeline stage (all its model chunks). */
export interface StageTime {
  readonly forward: Seconds;
  readonly backward: Seconds;
  readonly compute: Seconds;
  readonly recompute: Seconds;
  readonly tensorParallelComm: Seconds;
  /** Ring attention's exchanges left exposed: what outlasts the attention block each feeds. */
  readonly contextParallelComm: Seconds;
  /** Ring attention's exchanges before that overlap. */
  readonly contextParallelCommTotal: Seconds;
  readonly total: Seconds;
  /**
   * The forward pass's wall-clock time: its compute plus the TP and CP exchanges it leaves exposed. A collective on its own
   * stream (the data-parallel reduction and gathers, estimate.ts) overlaps this, not the compute alone: the exposed
   * exchanges are time the pass takes, during which the other stream keeps running.
   */
  readonly forwardWallSeconds: Seconds;
  /** The backward pass's wall-clock time: its compute and recompute plus the TP and CP exchanges it leaves exposed. forwardWallSeconds + backwardWallSeconds = total. */
  readonly backwardWallSeconds: Seconds;
}

type Pass = { readonly forward: Seconds; readonly backward: Seconds };

/**
 * Exposed communication when it overlaps a compute window: whatever outlasts the window.
 */
const exposed = (comm: Seconds, window: Seconds, overlap: boolean): Seconds => (overlap ? Math.max(0, comm - window) : comm);

export function stageTimes(args: {
  input: PlanInput; layers: readonly number[]; layer: LayerComputeCost; tp: TensorParallelLayerComm; cp: Pass; logits: Pass; embedding: Pass;
  /** Per stage: the unfused gradient accumulation after each micro-batch's backward (gradient-accumulation.ts). */
  accumulation?: readonly Seconds[];
}): StageTime[] {
  const { input, layers, layer, tp, cp } = args;
  const overlapTp = input.overlapTensorParallelComm;
  // Full recompute repeats the forward (with its tensor-parallel collectives); selective only the attention core.
  const recomputePerLayer = input.recompute === 'full' ? layer.forward : input.recompute === 'selective' ? layer.attentionForward : 0;
  const tpForward = exposed(tp.forward, layer.gemmForward, overlapTp);
  // Transformer Engine's overlap hides collectives behind every GEMM; without it, Megatron's
  // asynchronous backward communication may still hide some behind the column-parallel GEMMs.
  const tpBackward = overlapTp ? exposed(tp.backward, layer.gemmBackward, true) : exposedTensorParallelBackward(input, layer, tp);
  // Ring attention overlaps each K/V exchange with the attention block it feeds (Transformer Engine).
  const cpForward = exposed(cp.forward, layer.attentionForward, true);
  const cpBackward = exposed(cp.backward, layer.attentionBackward, true);

  return layers.map((n, i) => {
    // recomputeLayers counts a stage's recomputed layers. Megatron's --recompute-num-layers N (method block)
    // applies in each of the v model chunks (transformer_block.py: a TransformerBlock checkpoints the first N
    // of its own layers), so a stage recomputes v·min(N, n/v) = min(v·N, n): recomputeLayers is v·N, a
    // multiple of v (checkPlan), and the export writes N = recomputeLayers / v.
    const recomputed = input.recompute === 'full' ? Math.min(n, input.recomputeLayers ?? n) : input.recompute === 'selective' ? n : 0;
    let forward = n * layer.forward;
    let backward = n * layer.backward;
    if (i === 0) { forward += args.embedding.forward; backward += args.embedding.backward; }
    if (i === layers.length - 1) { forward += args.logits.forward; backward += args.logits.backward; }
    backward += args.accumulation?.[i] ?? 0;
    const recompute = recomputed * recomputePerLayer;
    const tensorParallelComm = n * (tpForward + tpBackward) + (input.recompute === 'full' ? recomputed * tpForward : 0);
    // A recomputed layer (full or selective) runs its attention forward again, ring exchanges included: the attention
    // op itself exchanges K and V with its neighbours (Transformer Engine's context-parallel attention), whichever recompute.
    const contextParallelComm = n * (cpForward + cpBackward) + recomputed * cpForward;
    const contextParallelCommTotal = n * (cp.forward + cp.backward) + recomputed * cp.forward;
    const compute = forward + backward + recompute;
    const total = compute + tensorParallelComm + contextParallelComm;
    // The forward's exposed exchanges are the layers' own; recompute and its exchanges run inside the backward pass
    // (Megatron's checkpointed forward re-runs as each layer's backward starts), so the backward is the rest of the total.
    const forwardWallSeconds = forward + n * (tpForward + cpForward);
    return {
      forward, backward, compute, recompute, tensorParallelComm, contextParallelComm, contextParallelCommTotal, total,
      forwardWallSeconds, backwardWallSeconds: total - forwardWallSeconds,
    };
  });
}
