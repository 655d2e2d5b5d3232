import type { Bytes } from '@trainplan/units';
import { NCCL_TABLES, type ByNodeCount } from './nccl-tables.ts';
import type { Algorithm, CollectiveOp, Protocol } from './types.ts';

/**
 * One (algorithm, protocol) pair with NCCL's predicted latency and algorithm bandwidth. Everything
 * that does not depend on the size is computed once per (topology, op); the two size-dependent
 * corrections are kept as lookups that `candidateTimeUs` applies.
 */
export interface NcclCandidate {
  readonly algorithm: Algorithm;
  readonly protocol: Protocol;
  readonly latencyUs: number;
  /** Algorithm bandwidth in GB/s, before any size-dependent correction. */
  readonly algBandwidthGBps: number;
  /**
   * The tree correction (`treeCorrectionFactor`) already applied: algorithm bandwidth in GB/s by
   * `sizeIndex(bytes)`; past the last entry `algBandwidthGBps` holds. Empty when not corrected.
   */
  readonly algBandwidthBySizeGBps: readonly number[];
  /** Ring/Simple multi-node plateau: `latencyUs` once bytes / `perBytes` ≥ the table's minimum; null when off. */
  readonly plateau: { readonly perBytes: number; readonly latencyUs: number } | null;
  /**
   * Algorithm bandwidth in GB/s before a cap that bounds the whole launch rather than each channel: the
   * multi-node LL cap (`llMaxBw`, whose row NCCL picks by CPU vendor: a host-side limit). A launch of fewer
   * channels runs them at their own rate under that cap (`ncclRuntimeTimeUs`). Equal to `algBandwidthGBps`
   * where no such cap binds.
   */
  readonly uncappedAlgBandwidthGBps: number;
}

/** A candidate whose cost does not depend on the size beyond bytes / bandwidth (one object shape for all). */
export function candidate(
  algorithm: Algorithm, protocol: Protocol, latencyUs: number, algBandwidthGBps: number,
  algBandwidthBySizeGBps: readonly number[] = [], plateau: NcclCandidate['plateau'] = null,
  uncappedAlgBandwidthGBps: number = algBandwidthGBps,
): NcclCandidate {
  return { algorithm, protocol, latencyUs, algBandwidthGBps, algBandwidthBySizeGBps, plateau, uncappedAlgBandwidthGBps };
}

const PLATEAU_MIN_BYTES = NCCL_TABLES.ringPlateau.value.minBytesPerChannelPerRank;

/**
 * `ncclTuningGetTime` (src/tuning/tuning_general.cc) for one operation: lat + bytes / (1000 · bw) µs,
 * with the size-dependent corrections; `index` is `sizeIndex(bytes)`.
 */
export function candidateTimeUs(c: NcclCandidate, bytes: Bytes, index: number): number {
  return candidateLatencyUs(c, bytes) + bytes / (1000 * candidateAlgBandwidthGBps(c, index));
}

/** The latency NCCL's model charges at this size: the Ring/Simple plateau's once it applies. */
export function candidateLatencyUs(c: NcclCandidate, bytes: Bytes): number {
  const plateau = c.plateau;
  return plateau !== null && bytes / plateau.perBytes >= PLATEAU_MIN_BYTES ? plateau.latencyUs : c.latencyUs;
}

/** The algorithm bandwidth (GB/s) NCCL's model uses at `sizeIndex(bytes)`, tree correction applied. */
export function candidateAlgBandwidthGBps(c: NcclCandidate, index: number): number {
  const bySize = c.algBandwidthBySizeGBps;
  return index < bySize.length ? (bySize[index] as number) : c.algBandwidthGBps;
}

/** Ring steps per op (src/tuning/tuning_general.cc ncclTuningGetNsteps). */
export function ringSteps(op: CollectiveOp, ranks: number): number {
  if (op === 'all-reduce') return 2 * (ranks - 1);
  if (op === 'all-gather' || op === 'reduce-scatter') return ranks - 1;
  return ranks;
}

/** Column of the per-channel tables: 1 node, 2 nodes, ≥ 3 nodes (`index2`). */
export function byNodes(row: ByNodeCount, nodes: number): number {
  return row[nodes <= 2 ? nodes - 1 : 2] ?? row[2];
}

/** NCCL's integer log2 (`log2i`): floor(log2 n), 0 for n < 2. */
export function log2i(n: number): number {
  return n < 2 ? 0 : Math.floor(Math.log2(n));
}

/**
 * The tree correction's index, `logSize = log2i(⌊bytes / 64⌋)` (src/tuning/tree.cc): by count of
 * leading zeros below 2^31 (equal to `log2i` there, test/nccl-candidate.test.ts checks), else `log2i`.
 */
export function sizeIndex(bytes: Bytes): number {
  const n = Math.floor(bytes / 64);
  if (n < 2) return 0;
  return n < 0x80000000 ? 31 - Math.clz32(n) : log2i(n);
}

export const PROTOCOLS: readonly Protocol[] = ['LL', 'LL128', 'Simple'];
