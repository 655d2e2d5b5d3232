import type { StateSharding } from '@trainplan/model';
import type { AskParameters, DefaultUsed } from './question.ts';

/**
 * The one way a run shards its optimizer states, as the question's facts decide it. A question that names a
 * ZeRO stage and Megatron's distributed optimizer both ("with zero-3 and the distributed optimizer") names two
 * ways of sharding the optimizer states over data parallelism, of which a run uses one (the scenario contract
 * takes `zeroStage` or `distributedOptimizer: true`, not both). The ZeRO stage wins, being the more specific:
 * every stage shards the optimizer states as the distributed optimizer does, and stages 2 and 3 shard more
 * (Rajbhandari et al. 2020, Figure 1; the bytes per parameter of each are packages/model's modelStateBytes).
 * Undefined when the question names neither. The only place the precedence is decided: parse's resolveSharding
 * and the search's constraints both read it.
 */
export function shardingOf(p: Pick<AskParameters, 'zeroStage' | 'distributedOptimizer'>): StateSharding | undefined {
  if (p.zeroStage !== undefined) return `zero-${p.zeroStage}`;
  if (p.distributedOptimizer !== undefined) return p.distributedOptimizer ? 'distributed-optimizer' : 'none';
  return undefined;
}

/**
 * Drops the distributed optimizer when the question asked for it and shardingOf chose a ZeRO stage over it,
 * so the parameters hold the one sharding planned; the answer says so, never silently.
 */
export function resolveSharding(p: AskParameters): DefaultUsed | undefined {
  // Asked for beside a ZeRO stage, which shardingOf chooses over it (with none it chooses the distributed optimizer).
  if (p.distributedOptimizer !== true || p.zeroStage === undefined) return undefined;
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
