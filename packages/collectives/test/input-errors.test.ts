import { describe, expect, it } from 'vitest';
import {
  algBandwidth, busBandwidth, busBandwidthFactor, collectiveCost, hierarchicalAllReduce, lowerBoundAllReduceSeconds,
  p2pSeconds, pipelineSendSeconds, ringAllReduce,
} from '../src/index.ts';
import type { CollectiveOp, CollectiveRequest } from '../src/index.ts';
import { A100_FABRIC, H100_FABRIC } from './fixtures.ts';

const hier = {
  bytes: 1e9, gpusPerNode: 8, nodes: 4,
  alphaIntraSeconds: 1e-6, betaIntraSecondsPerByte: 1e-12, alphaInterSeconds: 5e-6, betaInterSecondsPerByte: 1e-11,
};
const bad = [Number.NaN, -1, Number.POSITIVE_INFINITY] as const;

describe('library functions refuse NaN, negative and infinite quantities with a RangeError', () => {
  it.each(bad)('hierarchicalAllReduce: bytes or any α/β of %d', (value) => {
    for (const key of ['bytes', 'alphaIntraSeconds', 'betaIntraSecondsPerByte', 'alphaInterSeconds', 'betaInterSecondsPerByte'] as const) {
      expect(() => hierarchicalAllReduce({ ...hier, [key]: value })).toThrow(RangeError);
    }
  });

  it.each(bad)('lowerBoundAllReduceSeconds: bytes or β of %d', (value) => {
    expect(() => lowerBoundAllReduceSeconds({ bytes: value, ranks: 8, betaSecondsPerByte: 1e-11 })).toThrow(RangeError);
    expect(() => lowerBoundAllReduceSeconds({ bytes: 1e9, ranks: 8, betaSecondsPerByte: value })).toThrow(RangeError);
  });

  it('the α-β functions refuse infinite bytes, α and β, naming the argument', () => {
    const options = { bytes: 1e9, ranks: 8, alphaSeconds: 1e-6, betaSecondsPerByte: 1e-11 };
    expect(() => ringAllReduce({ ...options, bytes: Number.POSITIVE_INFINITY })).toThrow(/bytes must be a finite number ≥ 0, got Infinity/);
    expect(() => ringAllReduce({ ...options, alphaSeconds: Number.POSITIVE_INFINITY })).toThrow(/alphaSeconds/);
    expect(() => ringAllReduce({ ...options, betaSecondsPerByte: Number.NaN })).toThrow(/betaSecondsPerByte/);
  });

  it.each(bad)('algBandwidth and busBandwidth: bytes or seconds of %d', (value) => {
    expect(() => algBandwidth(value, 1)).toThrow(RangeError);
    expect(() => algBandwidth(1e9, value)).toThrow(RangeError);
    expect(() => busBandwidth({ op: 'all-reduce', ranks: 8, bytes: value, seconds: 1 })).toThrow(RangeError);
    expect(() => busBandwidth({ op: 'all-reduce', ranks: 8, bytes: 1e9, seconds: value })).toThrow(RangeError);
  });

  // QA 2026-11-29: pipelineSendSeconds divided by t before checking (−100 B at t = 8 was refused as "got −12.5"), and
  // p2pSeconds answered Infinity for infinite bytes where the α-β functions refuse them.
  it.each(bad)('p2pSeconds and pipelineSendSeconds: bytes of %d, refused with the value passed', (value) => {
    const send = { fabric: A100_FABRIC, crossNode: true };
    expect(() => p2pSeconds({ ...send, bytes: value })).toThrow(`bytes must be a finite number ≥ 0, got ${value}`);
    for (const scatterGather of [true, false]) {
      expect(() => pipelineSendSeconds({ ...send, bytes: value, tensorParallel: 8, scatterGather })).toThrow(`bytes must be a finite number ≥ 0, got ${value}`);
    }
  });

  it.each([...bad, 0, 1.5])('p2pSeconds: a NIC share of %d is no fraction of a NIC, inside a node or across', (nicShare) => {
    for (const crossNode of [true, false]) {
      expect(() => p2pSeconds({ bytes: 1e6, fabric: A100_FABRIC, crossNode, nicShare })).toThrow(/nicShare must be a fraction in \(0, 1\]/);
    }
  });

  it('busBandwidthFactor of an unknown op names the ops it knows', () => {
    expect(() => busBandwidthFactor('foo' as CollectiveOp, 8)).toThrow(/unknown collective op 'foo' \(one of all-reduce, /);
  });
});

describe('collectiveCost refuses a request outside its types with a message that says what is wrong', () => {
  const request = (extra: Partial<Record<keyof CollectiveRequest, unknown>>) =>
    ({ op: 'all-reduce', bytes: 1e6, group: { ranks: 8, ranksPerNode: 8 }, fabric: H100_FABRIC, ...extra }) as CollectiveRequest;

  it('an unknown op', () => {
    expect(() => collectiveCost(request({ op: 'all-reduse' }))).toThrow(/unknown collective op 'all-reduse' \(one of all-reduce/);
  });

  it('an unknown algorithm', () => {
    expect(() => collectiveCost(request({ algorithm: 'foo' }))).toThrow(/unknown algorithm 'foo' \(one of auto, ring/);
  });

  it('100 one-GPU groups on an 8-GPU node', () => {
    expect(() => collectiveCost(request({ group: { ranks: 16, ranksPerNode: 1, concurrentGroupsPerNode: 100 } })))
      .toThrow(/100 concurrent groups of 1 GPU per node need 100 GPUs per node; a node has 8/);
  });

  it('groups that overlap evenly still cost (two 8-rank groups on the same 8 GPUs split their NVLink)', () => {
    expect(collectiveCost(request({ group: { ranks: 8, ranksPerNode: 8, concurrentGroupsPerNode: 2 } })).seconds).toBeGreaterThan(0);
  });
});
