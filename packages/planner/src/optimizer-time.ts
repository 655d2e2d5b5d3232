import type { Seconds } from '@trainplan/units';
import { elementwiseSeconds, type KernelContext } from './kernel-time.ts';
import { weightReplicas } from './groups.ts';
import type { PlanInput } from './plan-input.ts';

/**
 * Bytes Adam moves per parameter it updates (Megatron's fused multi-tensor Adam): read the fp32
 * gradient, master weight, momentum and variance (16), write the last three (12) and the 16-bit
 * weight (2), plus one more read of the gradient for the global-norm clip (4).
 */
const ADAM_BYTES_PER_PARAMETER = 34;

/** The optimizer step: memory-bound over the parameters this GPU updates. */
export function optimizerStepSeconds(input: PlanInput, ctx: KernelContext, parameters: number): Seconds {
  const sharded = input.sharding !== 'none';
  const updated = sharded ? parameters / weightReplicas(input) : parameters;
  return elementwiseSeconds(ctx, ADAM_BYTES_PER_PARAMETER * updated);
}
