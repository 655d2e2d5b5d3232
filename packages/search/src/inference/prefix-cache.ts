import { KV_BLOCK_TOKENS } from './continuous-batching.ts';

/**
 * Prefix caching under continuous batching: every prompt opens with the same tokens (a system prompt,
 * few-shot examples, a shared document), whose KV blocks the engine keeps and maps into each new
 * sequence instead of prefilling them again: vLLM's automatic prefix caching (blocks hashed by their
 * tokens and every token before them), SGLang's RadixAttention (Zheng et al., "SGLang", NeurIPS 2024),
 * TensorRT-LLM's KV cache reuse. In steady state the shared blocks stay resident, so every prompt hits.
 *
 * Only whole blocks are shared (vLLM hashes full blocks; a partial last block is the sequence's own), and
 * an engine computes at least the prompt's last token, whose logits give the first output token (vLLM
 * recomputes it when the whole prompt hits). So the cached tokens are the shared prefix rounded down to
 * whole KV blocks, at most P − 1.
 */
export function cachedPrefixTokens(sharedPrefixTokens: number, promptTokens: number): number {
  const wholeBlocks = Math.floor(sharedPrefixTokens / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS;
  return Math.max(0, Math.min(wholeBlocks, promptTokens - 1));
}

/**
 * The share of a prompt's causal attention work left when its first N tokens are cached: token i attends
 * over its i predecessors, so the whole prompt does Σ i ≈ P²/2 and the new tokens N … P − 1 do (P² − N²)/2
 * of it, against keys that span the whole prompt (the cached ones read from the paged KV cache).
 */
export function uncachedAttentionFraction(promptTokens: number, cachedTokens: number): number {
  return 1 - (cachedTokens / promptTokens) ** 2;
}
