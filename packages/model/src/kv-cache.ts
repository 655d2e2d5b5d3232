import type { Bytes } from '@trainplan/units';
import { kvWidth } from './parameters.ts';
import type { ModelShape } from './shape.ts';

/**
 * KV-cache bytes per token on one GPU: K and V of every layer the GPU holds, n_kv·d_head wide each, split over
 * tensor-parallel ranks by heads (when TP exceeds the KV heads each rank keeps one head, as Megatron and vLLM
 * replicate them), `bytesPerValue` each (1 for FP8, 2 for 16-bit). Pope et al. 2022 ("Efficiently Scaling Transformer
 * Inference") §2; GQA's n_kv heads, Ainslie et al. 2023. With tensor 1 and every layer, the model's whole cache a token.
 */
export function kvCacheBytesPerToken(input: { shape: ModelShape; tensor: number; layersOnGpu: number; bytesPerValue: number }): Bytes {
  const { shape, tensor } = input;
  const width = kvWidth(shape);
  const perRankWidth = shape.kvHeads >= tensor ? width / tensor : width / shape.kvHeads;
  return 2 * input.layersOnGpu * perRankWidth * input.bytesPerValue;
}
