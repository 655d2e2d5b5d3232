import { KV_BLOCK_TOKENS } from './kv-block.ts';

/**
 * Prefix caching under continuous batching: every prompt opens with the same tokens (a system prompt,
 * few-shot examples, a shared document), whose KV blocks the engine keeps and maps into each new
 * sequence instead of prefilling them again: vLLM's automatic prefix caching (blocks hashed by their
 * tokens and every token before them), SGLang's RadixAttention (Zheng et al., "SGLang", NeurIPS 2024),
 * TensorRT-LLM's KV cache reuse. In steady state the shared blocks stay resident, so every prompt hits.
 *
 * Only whole blocks are shared (vLLM hashes full blocks; a partial last block is the sequence's own), and
 * an engine computes at least the prompt's last token, whose logits give the first output token. vLLM v1
 * looks for a cache hit within the first P − 1 tokens only (vllm/v1/core/kv_cache_manager.py,
 * get_computed_blocks: max_cache_hit_length = num_tokens − 1, "this can trigger recomputation of an entire
 * block, rather than just the single last token, because allocate_slots() requires num_computed_tokens to
 * be block-size aligned"), and takes whole blocks of it. So the cached tokens are the shared prefix, at
 * most P − 1, rounded down to whole KV blocks: a prompt wholly shared recomputes its whole last block.
 */
export function cachedPrefixTokens(sharedPrefixTokens: number, promptTokens: number): number {
  const hittable = Math.max(0, Math.min(sharedPrefixTokens, promptTokens - 1));
  return Math.floor(hittable / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS;
}

/**
 * The share of a prompt's causal attention work left when its first N tokens are cached: token i attends
 * over its i predecessors, so the whole prompt does Σ i ≈ P²/2 and the new tokens N … P − 1 do (P² − N²)/2
 * of it, against keys that span the whole prompt (the cached ones read from the paged KV cache).
 */
export function uncachedAttentionFraction(promptTokens: number, cachedTokens: number): number {
  return 1 - (cachedTokens / promptTokens) ** 2;
}
