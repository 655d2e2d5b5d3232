import type { ModelShape } from '@trainplan/model';

/**
 * Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via Speculative
 * Decoding", ICML 2023; Chen et al., "Accelerating Large Language Model Decoding with Speculative
 * Sampling", 2023): a small draft model proposes γ tokens, one decode step each, and the target model
 * checks all γ + 1 positions in one forward pass, keeping the accepted draft tokens and one of its own.
 * The target's pass reads its weights and KV cache once for γ + 1 tokens a sequence: while decoding is
 * memory-bound that costs about one step, so each step yields more than one token; once the batch makes
 * it compute-bound, the γ + 1 tokens cost γ + 1 times the FLOPs and speculation loses.
 */
export interface Speculation {
  /** The draft model, run beside the target on the same GPUs (vLLM's speculative_model; TensorRT-LLM's draft-target model). */
  readonly draft: ModelShape;
  /** γ: tokens the draft proposes per step (vLLM's num_speculative_tokens). */
  readonly draftTokens: number;
  /** α: the chance the target accepts each draft token, taken as independent (Leviathan et al.'s β, §3.1). */
  readonly acceptanceRate: number;
}

/**
 * Tokens one verification step yields on average: the accepted run of draft tokens plus the target's own,
 * (1 − α^(γ+1)) / (1 − α) (Leviathan et al. 2023, eq. 1); γ + 1 when every draft token is accepted.
 */
export function tokensPerStep(draftTokens: number, acceptanceRate: number): number {
  if (acceptanceRate >= 1) return draftTokens + 1;
  return (1 - acceptanceRate ** (draftTokens + 1)) / (1 - acceptanceRate);
}

/**
 * The draft's tensor-parallel degree: the target's when the draft's heads and FFN split that many ways,
 * else 1, the draft whole on every rank (vLLM's speculative_draft_tensor_parallel_size = 1).
 */
export function draftTensor(draft: ModelShape, tensor: number): number {
  return draft.attentionHeads % tensor === 0 && draft.ffnHiddenSize % tensor === 0 ? tensor : 1;
}
