import { runEstimate, type EstimateJson, type EstimateOk, type ScenarioInput } from '@trainplan/protocol';
import { scalingChart, scalingPoint } from '../src/charts/scaling-chart.ts';
import { describe, expect, it } from 'vitest';
import { nodesAnswer } from '../src/sizing/nodes-answer.ts';
import { scalingNodeCounts, validNodeCounts } from '../src/sizing/node-counts.ts';

/** The scenario of the chat bot's "Open in the widget" link (Llama 3 70B on 108 nodes of H100, TP 2 · PP 9 · VP 3 · CP 4). */
const BOT_LINK: ScenarioInput = {
  model: 'llama3-70b',
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, nodes: 108, network: 'ndr-ib-8x' },
  training: { globalBatchSize: 540, microBatchSize: 1, precision: 'bf16', tokens: 2e12, dropout: false, attentionKernel: 'flash' },
  parallelism: {
    tensor: 2, pipeline: 9, embeddingInPipelineSplit: false, lossInPipelineSplit: true, virtualStages: 3, context: 4, sequenceParallel: true,
    recompute: 'none', distributedOptimizer: true, schedule: 'interleaved',
  },
};

describe('validNodeCounts', () => {
  it('lists the node counts whose data parallelism divides the batch (GPT-3 175B, t·p = 64, 8 GPUs a node)', () => {
    // d must divide 1536 = 2^9 · 3; nodes = 64·d / 8 = 8d.
    const divisors = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1536];
    expect(validNodeCounts({ globalBatchSize: 1536, microBatchSize: 1, modelParallel: 64, gpusPerNode: 8 })).toEqual(divisors.map((d) => 8 * d));
  });

  it('needs whole nodes: t·p = 2 on 8-GPU nodes needs d a multiple of 4', () => {
    expect(validNodeCounts({ globalBatchSize: 32, microBatchSize: 2, modelParallel: 2, gpusPerNode: 8 })).toEqual([1, 2, 4]);
  });

  it('is empty when the micro-batch does not divide the batch', () => {
    expect(validNodeCounts({ globalBatchSize: 10, microBatchSize: 4, modelParallel: 1, gpusPerNode: 8 })).toEqual([]);
  });
});

describe('validNodeCounts with the interleaved schedule', () => {
  // The chat bot's link: Llama 3 70B, batch 540, micro-batch 1, t·p·c = 2·9·4 = 72 on 8-GPU nodes, so nodes = 72d/8 = 9d.
  // Interleaved (v = 3): each replica's 540/d micro-batches must be a multiple of p = 9, so d divides 540/9 = 60:
  // d = 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60. d = 27 (243 nodes) divides 540 but leaves 20 micro-batches.
  const LINK = { globalBatchSize: 540, microBatchSize: 1, modelParallel: 72, gpusPerNode: 8 };
  const INTERLEAVED = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60].map((d) => 9 * d);

  it('keeps only the sizes whose micro-batches per replica are a multiple of the pipeline stages (rounds = p)', () => {
    expect(validNodeCounts({ ...LINK, rounds: 9 })).toEqual(INTERLEAVED);
    expect(validNodeCounts(LINK)).toContain(243);
    expect(validNodeCounts({ ...LINK, rounds: 9 })).not.toContain(243);
  });

  it('so the scaling curve of the 108-node scenario reaches past it to sizes that run: 180 and 540 nodes', () => {
    // 108 · 2^k for k = −3 … 3 is 13.5, 27, 54, 108, 216, 432, 864; nearest on a log scale: 18 (log2 13.5/9 = 0.58 >
    // log2 18/13.5 = 0.42), 27, 54, 108, 180 (0.26 against 270's 0.32), 540 (0.32 against 270's 0.68) and 540.
    expect(scalingNodeCounts(validNodeCounts({ ...LINK, rounds: 9 }), 108)).toEqual([18, 27, 54, 108, 180, 540]);
  });

  it('and each of those sizes runs, where 243 nodes is refused with the rule in words (the planner\'s interleave-rounds)', () => {
    const at = (nodes: number) => runEstimate({ ...BOT_LINK, cluster: { ...BOT_LINK.cluster, nodes } }) as EstimateJson;
    for (const nodes of [18, 27, 54, 108, 180, 540]) expect(at(nodes).ok, `${nodes} nodes`).toBe(true);
    const refused = scalingPoint(243, at(243));
    expect(refused.reason).toMatch(/interleaved schedule needs the micro-batches per step \(20\) in whole rounds of the 9 pipeline stages/);
    expect(scalingChart([scalingPoint(108, at(108)), refused], 108)).toContain(`Not drawn: 243 nodes (${refused.reason}).`);
  });
});

describe('scalingNodeCounts', () => {
  it('picks the valid count nearest each power-of-two multiple of the current one, and the current one', () => {
    const valid = [8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048];
    expect(scalingNodeCounts(valid, 128)).toEqual([16, 32, 64, 128, 256, 512, 1024]);
    expect(scalingNodeCounts(valid, 96, 1)).toEqual([48, 96, 192]);
  });
});

function estimate(nodes: number, days: number): EstimateOk {
  return { ok: true, resolved: { nodes, gpus: nodes * 8 }, timeToTrain: { tokens: 1, seconds: days * 86400, days, gpuHours: days * 24 * nodes * 8 } } as unknown as EstimateOk;
}

describe('nodesAnswer', () => {
  it('answers the fewest nodes that meet the deadline, whatever the order', () => {
    const list: EstimateJson[] = [estimate(64, 20), estimate(16, 80), { ok: false, reason: 'out-of-memory', message: 'x' }, estimate(32, 40)];
    expect(nodesAnswer(list, 45)).toEqual({ kind: 'meets', nodes: 32, gpus: 256, days: 40, gpuHours: 40 * 24 * 256 });
    expect(nodesAnswer(list, 20)).toMatchObject({ kind: 'meets', nodes: 64 });
  });

  it('answers the fastest when no size meets the deadline, and none when nothing runs', () => {
    expect(nodesAnswer([estimate(16, 80), estimate(32, 40)], 10)).toEqual({ kind: 'too-slow', fastestNodes: 32, fastestDays: 40 });
    expect(nodesAnswer([{ ok: false, reason: 'indivisible', message: 'x' }], 10).kind).toBe('none');
  });
});
