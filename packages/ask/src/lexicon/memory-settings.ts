import type { Scanner } from './scanner.ts';

/** "sequence parallel", "with SP", "no sequence parallelism". */
export function takeSequenceParallel(s: Scanner): boolean | undefined {
  if (s.take(/(?:\b(?:no|without)|\bw\/o)\s*(?:sequence[\s-]*parallel\w*|sp)\b/)) return false;
  if (s.take(/\bsequence[\s-]*parallel\w*|\bsp\b/)) return true;
  return undefined;
}

/** "distributed optimizer", "dist opt", "without the distributed optimizer" (Megatron's --use-distributed-optimizer). */
export function takeDistributedOptimizer(s: Scanner): boolean | undefined {
  const name = String.raw`(?:the\s+)?(?:distributed[\s-]*optimi[sz]er|dist[\s-]*opt)`;
  if (s.take(new RegExp(String.raw`(?:\b(?:no|without)|\bw\/o)\s*${name}\b`))) return false;
  if (s.take(new RegExp(String.raw`\b${name}\b`))) return true;
  return undefined;
}

/** How a ZeRO stage was named: "FSDP" is read as stage 3, and the answer says so. */
export interface ZeroStage {
  stage: 1 | 2 | 3;
  assumed?: string;
}

/**
 * "zero-3", "ZeRO stage 2", "deepspeed zero3" (Rajbhandari et al. 2020); "FSDP" is PyTorch's full sharding,
 * which shards parameters, gradients and optimizer states as ZeRO-3 does (Zhao et al. 2023).
 */
export function takeZeroStage(s: Scanner): ZeroStage | undefined {
  const zero = s.take(/\b(?:deepspeed[\s-]*)?zero[\s-]*(?:stage[\s-]*)?([1-3])\b/);
  if (zero) return { stage: Number(zero[1]) as 1 | 2 | 3 };
  if (s.take(/\b(?:pytorch[\s-]*)?fsdp2?\b|\bfully[\s-]*sharded[\s-]*data[\s-]*parallel\w*/)) {
    return { stage: 3, assumed: 'FSDP read as ZeRO-3 (parameters, gradients and optimizer states sharded over data parallelism, as its full sharding does)' };
  }
  return undefined;
}
