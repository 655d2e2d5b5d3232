/**
 * Layers per pipeline stage as a serving engine splits them: vLLM's get_pp_indices (vllm/distributed/utils.py)
 * gives each of the p stages ⌊L/p⌋ layers and spreads the r = L mod p left over one each over the stages
 * before the last, from the second-to-last backwards (`partitions[-i] += 1` for i = 2 … r + 1): the last
 * stage, which also runs the output layer and sampling, is never given one. Any L ≥ p splits, unlike
 * Megatron-Core's training split (@trainplan/model pipelineSplit), which serving engines do not use.
 */
export function servingLayerSplit(layers: number, pipeline: number): number[] {
  const each = Math.floor(layers / pipeline);
  const left = layers % pipeline;
  const last = pipeline - 1;
  return Array.from({ length: pipeline }, (_, stage) => each + (stage < last && stage >= last - left ? 1 : 0));
}
