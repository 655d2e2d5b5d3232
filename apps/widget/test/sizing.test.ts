import type { EstimateJson, EstimateOk } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { nodesAnswer } from '../src/sizing/nodes-answer.ts';
import { scalingNodeCounts, validNodeCounts } from '../src/sizing/node-counts.ts';

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
