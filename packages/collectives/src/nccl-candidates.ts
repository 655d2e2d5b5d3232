import { directModel } from './direct-model.ts';
import type { NcclCandidate } from './nccl-candidate.ts';
import { collnetUnavailable, ncclCollnetModel } from './nccl-collnet-model.ts';
import { ncclNvlsModel, nvlsUnavailable } from './nccl-nvls-model.ts';
import { ncclPatModel, patUnavailable } from './nccl-pat-model.ts';
import { ncclRingModel } from './nccl-ring-model.ts';
import type { NcclTopology } from './nccl-topology.ts';
import { ncclTreeModel } from './nccl-tree-model.ts';
import type { Algorithm, CollectiveOp } from './types.ts';

/**
 * The algorithms the tuner weighs for each op, in NCCL's `NCCL_ALGO_*` order (ties keep the first). CollNet offers
 * candidates only on a fabric that enables it (Fabric.collnet; nccl-collnet-model.ts).
 */
const ALGORITHMS_BY_OP: Readonly<Record<CollectiveOp, readonly Algorithm[]>> = {
  'all-reduce': ['tree', 'ring', 'collnet-direct', 'collnet-chain', 'nvls', 'nvls-tree'],
  'all-gather': ['ring', 'nvls', 'pat'],
  'reduce-scatter': ['ring', 'nvls', 'pat'],
  broadcast: ['ring'],
  reduce: ['ring'],
  'all-to-all': ['direct'],
  'send-recv': ['direct'],
};

/**
 * Why `algorithm` cannot run `op` on this topology, or null when it can. CollNet is disabled unless the fabric enables
 * it, as NCCL leaves it by default (NCCL_COLLNET_ENABLE=0) even with SHARP switches.
 */
export function algorithmUnavailable(topology: NcclTopology, op: CollectiveOp, algorithm: Algorithm): string | null {
  switch (algorithm) {
    case 'nvls':
    case 'nvls-tree':
      return nvlsUnavailable(topology, op, algorithm);
    case 'pat':
      return patUnavailable(topology, op);
    case 'collnet-direct':
    case 'collnet-chain':
      return collnetUnavailable(topology, op, algorithm);
    case 'hierarchical':
      return op === 'all-reduce' ? null : 'the hierarchical algorithm implements all-reduce only';
    case 'ring':
    case 'tree':
    case 'direct':
      return ALGORITHMS_BY_OP[op].includes(algorithm) ? null : `${algorithm} does not implement ${op} in NCCL`;
    default:
      return `unknown algorithm '${String(algorithm)}'`;
  }
}

/**
 * Memo of candidates per (topology, op): a topology is immutable and itself memoised per (fabric,
 * group), and a candidate does not depend on the size, so the models run once per pair. Keyed
 * weakly on the topology, so nothing outlives the caller's fabric.
 */
const memo = new WeakMap<NcclTopology, Map<CollectiveOp, readonly NcclCandidate[]>>();

/**
 * Every enabled (algorithm, protocol) NCCL's tuner would weigh for `op` on this topology, in
 * NCCL's order; `candidateTimeUs` costs one for a size. Shared: never mutate the result.
 */
export function ncclCandidatesFor(topology: NcclTopology, op: CollectiveOp): readonly NcclCandidate[] {
  let byOp = memo.get(topology);
  if (!byOp) memo.set(topology, (byOp = new Map()));
  let candidates = byOp.get(op);
  if (!candidates) byOp.set(op, (candidates = buildCandidates(topology, op)));
  return candidates;
}

function buildCandidates(topology: NcclTopology, op: CollectiveOp): NcclCandidate[] {
  return ALGORITHMS_BY_OP[op].flatMap((algorithm): NcclCandidate[] => {
    switch (algorithm) {
      case 'tree':
        return ncclTreeModel(topology);
      case 'ring':
        return ncclRingModel(topology, op);
      case 'nvls':
      case 'nvls-tree':
        return ncclNvlsModel(topology, op, algorithm);
      case 'collnet-direct':
      case 'collnet-chain':
        return ncclCollnetModel(topology, op, algorithm);
      case 'pat':
        return ncclPatModel(topology, op);
      case 'direct':
        return directModel(topology, op);
      default:
        return [];
    }
  });
}
