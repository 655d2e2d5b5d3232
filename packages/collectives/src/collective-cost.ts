import { us } from '@trainplan/units';
import { algBandwidth } from './alg-bandwidth.ts';
import { busBandwidthFactor, COLLECTIVE_OP_NAMES } from './bus-bandwidth-factor.ts';
import { hierarchicalCollectiveCost } from './hierarchical-collective-cost.ts';
import { candidateTimeUs, sizeIndex, type NcclCandidate } from './nccl-candidate.ts';
import { algorithmUnavailable, ncclCandidatesFor } from './nccl-candidates.ts';
import { ncclRuntimeTimeUs } from './nccl-runtime-model.ts';
import { ncclTopology, type NcclTopology } from './nccl-topology.ts';
import type { Algorithm, CollectiveCost, CollectiveRequest } from './types.ts';
import { assertWithinBandwidthBound } from './bandwidth-bound.ts';

function toCost(request: CollectiveRequest, candidate: NcclCandidate, timeUs: number): CollectiveCost {
  const seconds = us(timeUs);
  const algBw = algBandwidth(request.bytes, seconds);
  return {
    seconds,
    algorithm: candidate.algorithm,
    protocol: candidate.protocol,
    algBandwidth: algBw,
    busBandwidth: algBw * busBandwidthFactor(request.op, request.group.ranks),
  };
}

const ALGORITHM_NAMES: readonly (Algorithm | 'auto')[] = ['auto', 'ring', 'tree', 'nvls', 'nvls-tree', 'collnet-direct', 'collnet-chain', 'hierarchical', 'pat', 'direct'];

/** What a caller can get wrong in a request: an op or algorithm outside the types (from untyped JS or JSON), the bytes. */
function checkRequest(request: CollectiveRequest): void {
  if (!COLLECTIVE_OP_NAMES.includes(request.op)) {
    throw new RangeError(`unknown collective op '${String(request.op)}' (one of ${COLLECTIVE_OP_NAMES.join(', ')})`);
  }
  if (request.algorithm !== undefined && !ALGORITHM_NAMES.includes(request.algorithm)) {
    throw new RangeError(`unknown algorithm '${String(request.algorithm)}' (one of ${ALGORITHM_NAMES.join(', ')})`);
  }
  if (!(request.bytes >= 0) || !Number.isFinite(request.bytes)) {
    throw new RangeError(`bytes must be a finite number ≥ 0, got ${request.bytes}`);
  }
}

/**
 * Every (algorithm, protocol) pair NCCL's tuner weighs for this request, each costed as NCCL
 * predicts it (`request.algorithm` is ignored). Empty for a single rank.
 */
export function ncclCandidates(request: CollectiveRequest): CollectiveCost[] {
  checkRequest(request);
  const topology = ncclTopology(request.fabric, request.group);
  if (topology.placement.ranks === 1) return [];
  const { bytes } = request;
  const index = sizeIndex(bytes);
  return ncclCandidatesFor(topology, request.op)
    .map((candidate) => toCost(request, candidate, candidateTimeUs(candidate, bytes, index)));
}

/** NCCL's choice for a request: the candidate and the topology it was costed on (null for one rank). */
function ncclChoice(request: CollectiveRequest, algorithm: Algorithm | 'auto'): { topology: NcclTopology; best: NcclCandidate; predictedUs: number } | null {
  const topology = ncclTopology(request.fabric, request.group);
  if (algorithm !== 'auto') {
    const reason = algorithmUnavailable(topology, request.op, algorithm);
    if (reason !== null) throw new RangeError(`${algorithm} cannot run ${request.op} here: ${reason}`);
  }
  if (topology.placement.ranks === 1) return null;
  // NCCL's argmin in its candidate order: a strict `<`, so ties keep the first.
  const { bytes } = request;
  const index = sizeIndex(bytes);
  const candidates = ncclCandidatesFor(topology, request.op);
  let best: NcclCandidate | undefined;
  let bestUs = 0;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i] as NcclCandidate;
    if (algorithm !== 'auto' && candidate.algorithm !== algorithm) continue;
    const timeUs = candidateTimeUs(candidate, bytes, index);
    if (best === undefined || timeUs < bestUs) {
      best = candidate;
      bestUs = timeUs;
    }
  }
  if (!best) throw new RangeError(`no algorithm can run ${request.op} on this fabric`);
  return { topology, best, predictedUs: bestUs };
}

/** One rank moves nothing: 0 s, reported as Ring/Simple (Direct for all-to-all and send/recv, or the forced algorithm). */
function idleCost(request: CollectiveRequest, algorithm: Algorithm | 'auto'): CollectiveCost {
  const idle = algorithm !== 'auto' ? algorithm
    : request.op === 'all-to-all' || request.op === 'send-recv' ? 'direct' : 'ring';
  return { seconds: 0, algorithm: idle, protocol: 'Simple', algBandwidth: 0, busBandwidth: 0 };
}

/**
 * The time of one collective as NCCL v2.30.x's tuner predicts it (collectives-reference §1;
 * constants in `NCCL_TABLES`): the argmin over every enabled (algorithm, protocol), or over the
 * protocols of a forced algorithm, with NCCL's predicted time. This is what NCCL decides with;
 * `collectiveCost` is what it then takes.
 */
export function ncclPredictedCost(request: CollectiveRequest): CollectiveCost {
  checkRequest(request);
  const algorithm = request.algorithm ?? 'auto';
  if (algorithm === 'hierarchical') {
    if (request.op !== 'all-reduce') throw new RangeError('the hierarchical algorithm implements all-reduce only');
    return hierarchicalCollectiveCost(request, ncclPredictedCost).cost;
  }
  const choice = ncclChoice(request, algorithm);
  return choice === null ? idleCost(request, algorithm) : toCost(request, choice.best, choice.predictedUs);
}

/**
 * The time of one collective on NCCL v2.30.x: NCCL's tuner picks (algorithm, protocol) as in
 * `ncclPredictedCost` — `algorithm: 'auto'` (the default) takes its argmin over every enabled
 * pair; a named algorithm is forced and only the protocol is chosen, and a RangeError says why
 * when it cannot run (e.g. NVLS without NVLink SHARP) — and the choice is then costed as NCCL
 * runs it (`ncclRuntimeTimeUs`: channels launched for the size, NVLS chunk pipeline, the hops of a
 * broadcast or reduce chain, where the tuner charges one). The tuner
 * ignores what happens after selection (collectives-reference §1 "After selection"), so its pick can
 * run slower than another pair, and a larger message can finish sooner than a smaller one where the
 * pick changes; that is NCCL's behaviour, kept: on the one measured sweep where the tuner's pick and
 * the fastest pair as run differ (8 × H100, 64 KiB all-reduce), the pick is the one measured.
 * 'hierarchical' composes intra-node reduce-scatter, per-rail inter-node all-reduce and
 * intra-node all-gather. One rank moves nothing: 0 s, reported as Ring/Simple (Direct for
 * all-to-all and send/recv, or the forced algorithm), as NCCL does for nRanks ≤ 1.
 */
export function collectiveCost(request: CollectiveRequest): CollectiveCost {
  checkRequest(request);
  const algorithm = request.algorithm ?? 'auto';
  if (algorithm === 'hierarchical') {
    if (request.op !== 'all-reduce') throw new RangeError('the hierarchical algorithm implements all-reduce only');
    const hierarchical = hierarchicalCollectiveCost(request, collectiveCost);
    // As its inter-node step alone is let past the bound when it reduces in the network (CollNet, SHARP), so is the whole.
    return hierarchical.reducesInNetwork ? hierarchical.cost : assertWithinBandwidthBound(request, hierarchical.cost);
  }
  const choice = ncclChoice(request, algorithm);
  if (choice === null) return idleCost(request, algorithm);
  const { bytes } = request;
  const timeUs = ncclRuntimeTimeUs(choice.topology, request.op, choice.best, bytes, sizeIndex(bytes));
  return assertWithinBandwidthBound(request, toCost(request, choice.best, timeUs), choice.topology);
}
