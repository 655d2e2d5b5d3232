import type { EstimateOk, SearchResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';
import { shardingOf } from '../src/sharding.ts';

describe('a ZeRO stage and the distributed optimizer asked together', () => {
  it('keeps the ZeRO stage and says so: the parameters hold one sharding, the stated facts both', () => {
    const q = parse('how many nodes for 175B with zero-3 and the distributed optimizer');
    expect(q.stated).toMatchObject({ zeroStage: 3, distributedOptimizer: true });
    expect(q.parameters.zeroStage).toBe(3);
    expect(q.parameters.distributedOptimizer).toBeUndefined();
    expect(q.defaults.map((d) => d.text)).toContain(
      'ZeRO-3 used, not the distributed optimizer also asked: both shard the optimizer states over data parallelism and a run uses one; '
      + 'ZeRO-3 also shards the gradients and the weights. Ask without ZeRO-3 to plan Megatron\'s distributed optimizer instead',
    );
  });

  it('ZeRO-1 is said to shard the same optimizer states', () => {
    const q = parse('best config for gpt3-13b on 8 nodes with zero-1 and distributed optimizer');
    expect(q.defaults.find((d) => d.field === 'zeroStage')?.text).toMatch(/^ZeRO-1 used, .*ZeRO-1 shards the same optimizer states \(it keeps 16-bit gradients, the distributed optimizer fp32 ones\)/);
  });

  it('the searched plan is ZeRO\'s, with the reading among the assumptions', () => {
    const a = ask('best config for gpt3-13b on 8 nodes with zero-2 and the distributed optimizer');
    expect(a.ok).toBe(true);
    const e = (a.data as Extract<SearchResponseJson, { ok: true }>).best.estimate;
    expect(e.resolved).toMatchObject({ zeroStage: 2, distributedOptimizer: false });
    expect(a.assumptions.join(' ')).toMatch(/ZeRO-2 used, not the distributed optimizer also asked/);
  });

  it('a fixed layout is estimated with ZeRO, not refused by the contract ("give either zeroStage or distributedOptimizer")', () => {
    const a = ask('memory for llama2-7b with zero-3 and the distributed optimizer');
    expect(a.ok).toBe(true);
    expect((a.data as EstimateOk).resolved.zeroStage).toBe(3);
    expect(a.scenario?.parallelism?.distributedOptimizer).toBeUndefined();
    expect(a.assumptions.join(' ')).toMatch(/ZeRO-3 used/);
  });

  it('"without the distributed optimizer" agrees with a ZeRO stage: nothing to say', () => {
    const q = parse('memory for 70B with zero-3 and without the distributed optimizer');
    expect(q.parameters).toMatchObject({ zeroStage: 3, distributedOptimizer: false });
    expect(q.defaults.some((d) => /used, not the distributed optimizer/.test(d.text))).toBe(false);
  });
});

describe('shardingOf: the one sharding a question\'s facts hold', () => {
  it.each([
    [{}, undefined],
    [{ distributedOptimizer: true }, 'distributed-optimizer'],
    [{ distributedOptimizer: false }, 'none'],
    [{ zeroStage: 2 }, 'zero-2'],
    // Both named: the ZeRO stage, whichever way the distributed optimizer was asked.
    [{ zeroStage: 3, distributedOptimizer: true }, 'zero-3'],
    [{ zeroStage: 1, distributedOptimizer: false }, 'zero-1'],
  ] as const)('%j → %s', (facts, sharding) => {
    expect(shardingOf(facts)).toBe(sharding);
  });
});
