/** vLLM's default KV block: 16 tokens (PagedAttention, Kwon et al. 2023 §4.2; `block_size` in vLLM's cache config). */
export const KV_BLOCK_TOKENS = 16;
