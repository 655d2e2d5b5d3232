import type { AskParameters, DefaultUsed } from './question.ts';

/**
 * A question that names a ZeRO stage and Megatron's distributed optimizer both ("with zero-3 and the
 * distributed optimizer") names two ways of sharding the optimizer states over data parallelism, of
 * which a run uses one (the scenario contract takes `zeroStage` or `distributedOptimizer: true`, not
 * both). The ZeRO stage is kept, being the more specific: every stage shards the optimizer states as the
 * distributed optimizer does, and stages 2 and 3 shard more (Rajbhandari et al. 2020, Figure 1; the bytes
 * per parameter of each are packages/model's modelStateBytes). The answer says so, never silently.
 */
export function resolveSharding(p: AskParameters): DefaultUsed | undefined {
  if (p.zeroStage === undefined || p.distributedOptimizer !== true) return undefined;
  delete p.distributedOptimizer;
  const stage = `ZeRO-${p.zeroStage}`;
  const more = p.zeroStage === 1
    ? `${stage} shards the same optimizer states (it keeps 16-bit gradients, the distributed optimizer fp32 ones)`
    : `${stage} also shards the gradients${p.zeroStage === 3 ? ' and the weights' : ''}`;
  return {
    field: 'zeroStage',
    value: p.zeroStage,
    text: `${stage} used, not the distributed optimizer also asked: both shard the optimizer states over data parallelism and a run uses one; `
      + `${more}. Ask without ${stage} to plan Megatron's distributed optimizer instead`,
  };
}
