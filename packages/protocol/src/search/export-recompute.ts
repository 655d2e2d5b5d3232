import { slotsTaken, type PipelineSplit } from '@trainplan/model';

/**
 * Transformer layers in each model chunk of each pipeline stage, as Megatron-Core builds them (get_num_layers_to_build
 * in megatron/core/transformer/transformer_block.py): with the layers alone split, a stage's n layers make v chunks of
 * n/v (splitsIntoChunks: whole); with the embedding or the loss counted as a layer, every chunk has
 * c = slotCount / (p·v) slots, and "num_layers_to_build -= 1" on the first chunk of the first stage (the embedding) and
 * on the last chunk of the last stage (the loss), which may leave that chunk none. `chunks[i][j]`: stage i, chunk j.
 */
function chunkLayers(split: PipelineSplit, virtualStages: number): number[][] {
  const v = virtualStages;
  const p = split.stages.length;
  if (split.slots === 'layers') return split.stages.map((n) => Array.from({ length: v }, () => n / v));
  const c = split.slotCount / (p * v);
  const { embedding, loss } = slotsTaken(split.slots);
  return split.stages.map((_, i) => Array.from({ length: v }, (__, j) =>
    c - (embedding && i === 0 && j === 0 ? 1 : 0) - (loss && i === p - 1 && j === v - 1 ? 1 : 0)));
}

/**
 * Megatron's --recompute-num-layers (NeMo's activations_checkpoint_num_layers, handed to Megatron-Core's
 * recompute_num_layers) for a plan's full recompute; arguments.py declares it type=int. The planner recomputes
 * min(n, R) of a stage's n layers (stage-time.ts, plan-memory.ts; R = recomputeLayers, every layer when unset). Megatron,
 * with --recompute-method block, applies N in each model chunk (_checkpointed_forward of the chunk's TransformerBlock
 * checkpoints layer l when l < recompute_num_layers, over its own layers only), so a stage recomputes Σⱼ min(N, chunk j's
 * layers) (chunks as chunkLayers builds them):
 * - R unset: N = the fullest chunk's layers, so every chunk recomputes all of its own. Not the fullest stage's layers / v,
 *   which is fractional where the embedding and the loss each take a slot from a stage (PP 2 counting both: every stage
 *   holds v·c − 1 layers);
 * - R set (a multiple of v: checkPlan): N = R / v. With equal chunks a stage recomputes v·min(N, n/v) = min(R, n). A split
 *   counting the embedding or the loss has one chunk of c − 1 beside v − 1 of c: for N ≤ c − 1 Megatron recomputes v·N = R
 *   and the planner min(R, v·c − 1) = R; for N ≥ c, c − 1 + (v − 1)·c = v·c − 1 = n, as the planner has it.
 * Either way Megatron recomputes exactly the layers the plan costs: export-recompute.test.ts rebuilds the chunks from the
 * exported flags alone and checks it split by split.
 */
export function recomputeNumLayers(recomputeLayers: number | undefined, split: PipelineSplit, virtualStages: number): number {
  if (recomputeLayers !== undefined) return recomputeLayers / virtualStages;
  return Math.max(...chunkLayers(split, virtualStages).flat());
}
