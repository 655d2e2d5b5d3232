/**
 * The compute-optimal model for a training compute C, in closed form. Training costs C ≈ 6·N·D FLOPs for N parameters and
 * D tokens: 2 a parameter a token forward, 4 backward (Kaplan et al. 2020, arXiv:2001.08361, §2.1; the 6·T·P of
 * ../shared/docs/model-reference.md §2's time to train). Chinchilla's compute-optimal models train on D ≈ 20·N tokens
 * (Hoffmann et al. 2022, arXiv:2203.15556, Table 3: 1B on 20.2B tokens, 67B on 1.5T; its approaches 1–3 scale N and D
 * about equally with C, Table 2). So C = 6·N·(r·N) with r tokens a parameter: N = √(C / 6r), D = r·N.
 */

/** Training FLOPs a parameter a token: forward 2, backward 4 (Kaplan et al. 2020, §2.1). */
export const TRAINING_FLOPS_PER_PARAMETER_TOKEN = 6;

/** A model size, the tokens it trains on, and the compute C = 6·N·D they take. */
export interface ComputeOptimalSize {
  parameters: number;
  tokens: number;
  flops: number;
}

/** N = √(C / 6r) and D = r·N for a compute of `flops` at `tokensPerParameter` (Chinchilla's 20). */
export function computeOptimalSize(flops: number, tokensPerParameter: number): ComputeOptimalSize {
  const parameters = Math.sqrt(flops / (TRAINING_FLOPS_PER_PARAMETER_TOKEN * tokensPerParameter));
  return { parameters, tokens: tokensPerParameter * parameters, flops };
}

/**
 * The compute a plan spends, in 6ND terms: 6 × the model's parameters × the tokens the budget buys it. Not the plan's model
 * FLOPs (its GPU-hours × peak × MFU), which also count attention's products over the sequence as Megatron counts them
 * (training-flops.ts) and 6ND leaves out: sized on those, N trained on 20·N tokens would cost more than the budget.
 */
export const sixNdFlops = (parameters: number, tokens: number): number => TRAINING_FLOPS_PER_PARAMETER_TOKEN * parameters * tokens;
