// PRE-OPTIMISATION REFERENCE — verbatim snapshot of src/nccl-candidate.ts at commit 8660b11, before the
// collectiveCost speed-up (size-independent candidates memoised per topology and op, numeric
// topology memo key). Used only by test/equivalence.test.ts, to prove the optimised
// `collectiveCost` / `ncclCandidates` give identical results. Only the import paths of modules
// not snapshotted here were rewritten (to ../../src/). Do not edit.
import type { Bytes } from '@trainplan/units';
import type { ByNodeCount } from '../../src/nccl-tables.ts';
import type { Algorithm, CollectiveOp, Protocol } from '../../src/types.ts';

/** One (algorithm, protocol) pair with NCCL's predicted latency and algorithm bandwidth for a size. */
export interface NcclCandidate {
  readonly algorithm: Algorithm;
  readonly protocol: Protocol;
  readonly latencyUs: number;
  /** Algorithm bandwidth in GB/s, size-dependent corrections already applied. */
  readonly algBandwidthGBps: number;
}

/** `ncclTuningGetTime` (src/tuning/tuning_general.cc) for one operation: lat + bytes / (1000 · bw) µs. */
export function candidateTimeUs(candidate: NcclCandidate, bytes: Bytes): number {
  return candidate.latencyUs + bytes / (1000 * candidate.algBandwidthGBps);
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

export const PROTOCOLS: readonly Protocol[] = ['LL', 'LL128', 'Simple'];
