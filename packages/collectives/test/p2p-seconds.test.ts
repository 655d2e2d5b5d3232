import { describe, expect, it } from 'vitest';
import { GBps, MiB, us } from '@trainplan/units';
import { collectiveCost, p2pSeconds, pipelineSendSeconds } from '../src/index.ts';
import { A100_FABRIC, H100_FABRIC } from './fixtures.ts';

const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 12);

describe('point-to-point: α + bytes / bw', () => {
  it('across nodes: NCCL\'s Ring/Simple base + network hop (8.4 + 14 µs) and one HDR NIC at 24 GB/s', () => {
    close(p2pSeconds({ bytes: MiB(64), fabric: A100_FABRIC, crossNode: true }), us(22.4) + MiB(64) / GBps(24));
  });

  it('inside a node: base + NVLink hop (8.4 + 3.4 µs) and the 240 GB/s NCCL drives out of an A100', () => {
    close(p2pSeconds({ bytes: MiB(64), fabric: A100_FABRIC, crossNode: false }), us(11.8) + MiB(64) / GBps(240));
  });

  it('an NDR NIC carries 48 GB/s', () => {
    close(p2pSeconds({ bytes: MiB(48), fabric: H100_FABRIC, crossNode: true }) - us(22.4), MiB(48) / GBps(48));
  });

  it('a half share of a NIC halves the rate', () => {
    close(p2pSeconds({ bytes: MiB(12), fabric: A100_FABRIC, crossNode: true, nicShare: 0.5 }) - us(22.4), MiB(12) / GBps(12));
  });

  it('matches a two-rank send/recv collective', () => {
    const pair = { ranks: 2, ranksPerNode: 1, concurrentGroupsPerNode: 8 };
    const c = collectiveCost({ op: 'send-recv', bytes: MiB(64), group: pair, fabric: A100_FABRIC });
    close(c.seconds, p2pSeconds({ bytes: MiB(64), fabric: A100_FABRIC, crossNode: true }));
  });
});

describe('Megatron pipeline send with scatter/gather (Narayanan et al. SC\'21 §4.1; reference §5)', () => {
  const bytes = MiB(64);
  const send = (t: number, scatterGather: boolean, crossNode = true) =>
    pipelineSendSeconds({ bytes, tensorParallel: t, fabric: A100_FABRIC, crossNode, scatterGather });

  it('without it every TP rank sends the whole tensor over its NIC: α_IB + bsh·e/B_IB', () => {
    close(send(8, false), us(22.4) + bytes / GBps(24));
  });

  it('with it each rank sends 1/t over IB, then the receiver all-gathers over NVLink', () => {
    const expected = us(22.4) + bytes / 8 / GBps(24) + 7 * us(3.4) + ((7 / 8) * bytes) / GBps(240);
    close(send(8, true), expected);
  });

  it('cuts the bytes over IB 8× at t = 8 and so the time, less the NVLink all-gather', () => {
    expect(send(8, true)).toBeLessThan(send(8, false));
    const ibSaving = (1 - 1 / 8) * (bytes / GBps(24));
    const allGather = 7 * us(3.4) + ((7 / 8) * bytes) / GBps(240);
    close(send(8, false) - send(8, true), ibSaving - allGather);
  });

  it('is a plain send when t = 1', () => {
    expect(send(1, true)).toBe(send(1, false));
  });

  it('rejects a non-integer tensor-parallel size', () => {
    expect(() => send(1.5, true)).toThrow(RangeError);
  });
});
