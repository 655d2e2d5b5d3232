import { describe, expect, it } from 'vitest';
import { GiB } from '@trainplan/units';
import { collectiveCost, ncclCandidates } from '../src/index.ts';
import type { Algorithm, CollectiveCost, CollectiveOp, CollectiveRequest, CommGroup, Fabric } from '../src/index.ts';
import { sizeIndex } from '../src/nccl-candidate.ts';
import * as fixtures from './fixtures.ts';
import { log2i } from './reference/nccl-candidate.ts';
import {
  collectiveCost as referenceCost,
  ncclCandidates as referenceCandidates,
} from './reference/collective-cost.ts';

/**
 * The optimised `collectiveCost` / `ncclCandidates` (bytes-independent candidates prepared once
 * per topology and op) against the frozen pre-optimisation code in `test/reference/`: every
 * result must be bit-for-bit identical (Object.is on every number), every error the same message.
 */

const OPS: readonly CollectiveOp[] = [
  'all-reduce', 'all-gather', 'reduce-scatter', 'broadcast', 'reduce', 'all-to-all', 'send-recv',
];
const ALGORITHMS: readonly (Algorithm | 'auto')[] = [
  'auto', 'ring', 'tree', 'nvls', 'nvls-tree', 'collnet', 'hierarchical', 'pat', 'direct',
];

/** 0, then 8 B … 8 GiB by ×4, then 16 GiB. */
const GRID_SIZES: readonly number[] = [0, ...Array.from({ length: 16 }, (_, k) => 8 * 4 ** k), GiB(16)];

/** Sizes around every power of two (the tree-correction index and plateau thresholds) and a fine geometric sweep. */
const DENSE_SIZES: readonly number[] = [
  ...Array.from({ length: 36 }, (_, e) => [2 ** e - 1, 2 ** e, 2 ** e + 1, 1.5 * 2 ** e, 2 ** e - 0.5]).flat(),
  ...Array.from({ length: 500 }, (_, i) => 1.05 ** i),
];

const GROUPS: readonly CommGroup[] = [1, 8].flatMap((concurrentGroupsPerNode) => [
  ...[2, 4, 8].map((ranks) => ({ ranks, ranksPerNode: ranks, concurrentGroupsPerNode })),
  ...[16, 64, 512].flatMap((ranks) => [8, 1].map((ranksPerNode) => ({ ranks, ranksPerNode, concurrentGroupsPerNode }))),
]);

const isFabric = (x: unknown): x is Fabric => typeof x === 'object' && x !== null && 'generation' in x;
/** Every fabric fixture, plus a PCIe-only node (no NVLink: LL128 off, PCI latencies). */
const FABRICS: readonly [string, Fabric][] = [
  ...Object.entries(fixtures).filter((entry): entry is [string, Fabric] => isFabric(entry[1])),
  ['A100 over PCIe (no NVLink)', { ...fixtures.A100_FABRIC, nvlinkCount: 0, nvlinkSharp: false }],
];

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

function outcome(f: () => unknown): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

function sameCost(a: CollectiveCost, b: CollectiveCost): boolean {
  return Object.is(a.seconds, b.seconds) && a.algorithm === b.algorithm && a.protocol === b.protocol
    && Object.is(a.algBandwidth, b.algBandwidth) && Object.is(a.busBandwidth, b.busBandwidth);
}

function sameOutcome(a: Outcome, b: Outcome, list: boolean): boolean {
  if (!a.ok || !b.ok) return !a.ok && !b.ok && a.error === b.error;
  if (!list) return sameCost(a.value as CollectiveCost, b.value as CollectiveCost);
  const [x, y] = [a.value as CollectiveCost[], b.value as CollectiveCost[]];
  return x.length === y.length && x.every((cost, i) => sameCost(cost, y[i] as CollectiveCost));
}

/** Compares both implementations on every request; returns the first mismatches (empty when identical). */
function mismatches(requests: Iterable<[string, CollectiveRequest]>, withCandidates: boolean): string[] {
  const found: string[] = [];
  for (const [name, request] of requests) {
    const checks: [string, () => unknown, () => unknown, boolean][] = [
      ['collectiveCost', () => collectiveCost(request), () => referenceCost(request), false],
    ];
    if (withCandidates && request.algorithm === 'auto') {
      checks.push(['ncclCandidates', () => ncclCandidates(request), () => referenceCandidates(request), true]);
    }
    for (const [fn, optimised, reference, list] of checks) {
      const [got, want] = [outcome(optimised), outcome(reference)];
      if (!sameOutcome(got, want, list) && found.length < 20) {
        found.push(`${fn} ${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
  }
  return found;
}

/** The reference's candidates for a request, none when it throws. */
function referenceList(request: CollectiveRequest): readonly CollectiveCost[] {
  const result = outcome(() => referenceCandidates(request));
  return result.ok ? (result.value as CollectiveCost[]) : [];
}

function* grid(ops: readonly CollectiveOp[], sizes: readonly number[], algorithms: readonly (Algorithm | 'auto')[]) {
  for (const [fabricName, fabric] of FABRICS) {
    for (const group of GROUPS) {
      for (const op of ops) {
        for (const bytes of sizes) {
          for (const algorithm of algorithms) {
            const name = `${fabricName} ${op} ${bytes} B ${JSON.stringify(group)} ${algorithm}`;
            yield [name, { op, bytes, group, fabric, algorithm }] as [string, CollectiveRequest];
          }
        }
      }
    }
  }
}

describe('optimised collectiveCost and ncclCandidates equal the pre-optimisation reference exactly', () => {
  it('covers every fabric fixture', () => {
    expect(FABRICS.length).toBeGreaterThanOrEqual(6);
  });

  it('every op × 8 B…16 GiB (×4) × group × fabric × forced algorithm', () => {
    expect(mismatches(grid(OPS, GRID_SIZES, ALGORITHMS), true)).toEqual([]);
  });

  it('auto choice around every power of two and on a fine size sweep', () => {
    expect(mismatches(grid(['all-reduce', 'all-gather', 'reduce-scatter'], DENSE_SIZES, ['auto']), false)).toEqual([]);
  });

  it('the grid exercises every (algorithm, protocol) the model can pick', () => {
    const seen = new Set<string>();
    for (const [, request] of grid(OPS, [GiB(1)], ['auto'])) {
      for (const c of referenceList(request)) seen.add(`${c.algorithm}/${c.protocol}`);
    }
    expect([...seen].sort()).toEqual([
      'direct/Simple', 'nvls-tree/Simple', 'nvls/Simple', 'pat/Simple', 'ring/LL', 'ring/LL128', 'ring/Simple',
      'tree/LL', 'tree/LL128', 'tree/Simple',
    ]);
  });

  it('sizeIndex (clz32) equals the reference log2i(⌊bytes/64⌋) for every ⌊bytes/64⌋ < 2^24 and around every 2^k', () => {
    const bad: number[] = [];
    const check = (bytes: number) => {
      if (sizeIndex(bytes) !== log2i(Math.floor(bytes / 64)) && bad.length < 10) bad.push(bytes);
    };
    for (let n = 0; n < 2 ** 24; n++) check(64 * n);
    for (let k = 0; k <= 60; k++) {
      for (const bytes of [2 ** k - 1, 2 ** k, 2 ** k + 1, 64 * (2 ** k - 1), 64 * 2 ** k, 64 * 2 ** k - 0.5]) check(bytes);
    }
    for (const bytes of [0, 0.5, 63.999, 127.5, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE]) check(bytes);
    expect(bad).toEqual([]);
  });

  it('rejects bad sizes with the same errors', () => {
    const requests = [-1, Number.NaN, Number.POSITIVE_INFINITY].map((bytes): [string, CollectiveRequest] =>
      [`${bytes} B`, { op: 'all-reduce', bytes, group: { ranks: 8, ranksPerNode: 8 }, fabric: fixtures.H100_FABRIC }]);
    expect(mismatches(requests, true)).toEqual([]);
  });
});
