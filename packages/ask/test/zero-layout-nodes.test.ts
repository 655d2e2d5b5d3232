import { describe, expect, it } from 'vitest';
import type { EstimateOk } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

describe('a stated TP × PP with ZeRO or the distributed optimizer and no cluster: two replicas of the layout', () => {
  it('"memory for 70B with tp 8 pp 4 zero 1 on A100 80GB" is planned on 8 nodes, DP 2, not refused on one node', () => {
    // QA: the bot's own 1 node (8 GPUs) was refused as not divisible by TP × PP = 32.
    // TP 8 × PP 4 = 32 GPUs a replica; ZeRO-1 shards over data parallelism, so 2 replicas = 64 GPUs = 8 nodes of 8.
    const q = parse('memory for 70B with tp 8 pp 4 zero 1 on A100 80GB');
    expect(q.parameters.nodes).toBe(8);
    expect(q.defaults.find((d) => d.field === 'nodes')?.text).toMatch(/^8 nodes: the GPUs of two model replicas of 32 GPUs each \(ZeRO-1 shards over data parallelism/);
    const a = ask('memory for 70B with tp 8 pp 4 zero 1 on A100 80GB', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect((a.data as EstimateOk).resolved).toMatchObject({ tensor: 8, pipeline: 4, data: 2, gpus: 64, zeroStage: 1 });
  });

  it('the distributed optimizer asked takes two replicas too (one would shard nothing)', () => {
    const a = ask('memory for 70B with tp 8 pp 4 and the distributed optimizer on A100 80GB', { publicUrl: null });
    expect((a.data as EstimateOk).resolved).toMatchObject({ data: 2, gpus: 64, distributedOptimizer: true });
  });

  it('without either, one replica as before: TP 8 × PP 4 on 4 nodes', () => {
    expect(parse('memory for 70B with tp 8 pp 4 on A100 80GB').parameters.nodes).toBe(4);
  });

  it('ZeRO with no layout keeps one node, data parallel over its 8 GPUs', () => {
    expect(parse('memory for 7b with zero 3 on a100').parameters).toMatchObject({ nodes: 1, tensor: 1 });
  });

  it('a replica that fills no whole node takes whole replicas: TP 4 × PP 3 with ZeRO-2 is 24 GPUs, 3 nodes', () => {
    // 12 GPUs a replica × 2 = 24 = 3 nodes of 8.
    expect(parse('memory for 13b with tp 4 pp 3 zero 2').parameters.nodes).toBe(3);
  });
});
