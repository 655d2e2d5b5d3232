// PRE-OPTIMISATION REFERENCE — verbatim snapshot of src/collective-cost.ts at commit 8660b11, before the
// collectiveCost speed-up (size-independent candidates memoised per topology and op, numeric
// topology memo key). Used only by test/equivalence.test.ts, to prove the optimised
// `collectiveCost` / `ncclCandidates` give identical results. Only the import paths of modules
// not snapshotted here were rewritten (to ../../src/). Do not edit.
import { us } from '@trainplan/units';
import { algBandwidth } from '../../src/alg-bandwidth.ts';
import { busBandwidthFactor } from '../../src/bus-bandwidth-factor.ts';
import { hierarchicalCollectiveCost } from '../../src/hierarchical-collective-cost.ts';
import { candidateTimeUs, type NcclCandidate } from './nccl-candidate.ts';
import { algorithmUnavailable, ncclCandidatesFor } from './nccl-candidates.ts';
import { ncclTopology } from './nccl-topology.ts';
import type { CollectiveCost, CollectiveRequest } from '../../src/types.ts';

function toCost(request: CollectiveRequest, candidate: NcclCandidate): CollectiveCost {
  const seconds = us(candidateTimeUs(candidate, request.bytes));
  const algBw = algBandwidth(request.bytes, seconds);
  return {
    seconds,
    algorithm: candidate.algorithm,
    protocol: candidate.protocol,
    algBandwidth: algBw,
    busBandwidth: algBw * busBandwidthFactor(request.op, request.group.ranks),
  };
}

function checkBytes(request: CollectiveRequest): void {
  if (!(request.bytes >= 0) || !Number.isFinite(request.bytes)) {
    throw new RangeError(`bytes must be a finite number ≥ 0, got ${request.bytes}`);
  }
}

/**
 * Every (algorithm, protocol) pair NCCL's tuner weighs for this request, each costed as NCCL
 * predicts it (`request.algorithm` is ignored). Empty for a single rank.
 */
export function ncclCandidates(request: CollectiveRequest): CollectiveCost[] {
  checkBytes(request);
  const topology = ncclTopology(request.fabric, request.group);
  if (topology.placement.ranks === 1) return [];
  return ncclCandidatesFor(topology, request.op, request.bytes).map((c) => toCost(request, c));
}

/**
 * The time of one collective as NCCL v2.30.x predicts it (collectives-reference §1;
 * constants in `NCCL_TABLES`). `algorithm: 'auto'` (the default) takes NCCL's argmin over every
 * enabled (algorithm, protocol); a named algorithm is forced and only the protocol is chosen,
 * and a RangeError says why when it cannot run (e.g. NVLS without NVLink SHARP). 'hierarchical'
 * composes intra-node reduce-scatter, per-rail inter-node all-reduce and intra-node all-gather.
 * One rank moves nothing: 0 s, reported as Ring/Simple (Direct for all-to-all and send/recv, or the
 * forced algorithm), as NCCL does for nRanks ≤ 1.
 */
export function collectiveCost(request: CollectiveRequest): CollectiveCost {
  checkBytes(request);
  const algorithm = request.algorithm ?? 'auto';
  if (algorithm === 'hierarchical') {
    if (request.op !== 'all-reduce') throw new RangeError('the hierarchical algorithm implements all-reduce only');
    return hierarchicalCollectiveCost(request, collectiveCost);
  }
  const topology = ncclTopology(request.fabric, request.group);
  if (algorithm !== 'auto') {
    const reason = algorithmUnavailable(topology, request.op, algorithm);
    if (reason !== null) throw new RangeError(`${algorithm} cannot run ${request.op} here: ${reason}`);
  }
  if (topology.placement.ranks === 1) {
    const idle = algorithm !== 'auto' ? algorithm
      : request.op === 'all-to-all' || request.op === 'send-recv' ? 'direct' : 'ring';
    return { seconds: 0, algorithm: idle, protocol: 'Simple', algBandwidth: 0, busBandwidth: 0 };
  }
  const candidates = ncclCandidatesFor(topology, request.op, request.bytes)
    .filter((c) => algorithm === 'auto' || c.algorithm === algorithm);
  let best: NcclCandidate | undefined;
  for (const candidate of candidates) {
    if (!best || candidateTimeUs(candidate, request.bytes) < candidateTimeUs(best, request.bytes)) best = candidate;
  }
  if (!best) throw new RangeError(`no algorithm can run ${request.op} on this fabric`);
  return toCost(request, best);
}
