import { NCCL_TABLES } from './nccl-tables.ts';

/** One NCCL topology graph as the tuner sees it (`struct ncclTopoGraph`): channels and per-channel GB/s. */
export interface NcclGraph {
  readonly nChannels: number;
  readonly bwIntraGBps: number;
  readonly bwInterGBps: number;
}

/** Tolerance for "fits" (GB/s): 6 × 40 GB/s must fit in 240 GB/s despite floating point. */
export const FIT_TOLERANCE_GBPS = 1e-9;

/** How many channels fit in `budgetGBps` at `speedGBps` each. */
export function channelsThatFit(budgetGBps: number, speedGBps: number): number {
  return Math.floor(budgetGBps / speedGBps + FIT_TOLERANCE_GBPS);
}

/**
 * The speed search of `ncclTopoCompute` (NVIDIA/nccl src/graph/search.cc), reduced to its
 * outcome: walk the ladder from the fastest speed down, keep the solution with the most total
 * bandwidth (nChannels × speed; ties keep the faster speed), and stop stepping down once the next
 * speed is ≤ 0.49 of the best found so far. `channelsAt(speed)` says how many channels the
 * topology admits at that speed (0: none). When nothing fits NCCL falls back to one channel at
 * 0.1 GB/s ("falling back to simple order"); so do we.
 */
export function searchLadder(ladder: readonly number[], channelsAt: (speedGBps: number) => number): {
  nChannels: number;
  speedGBps: number;
} {
  let best: { nChannels: number; speedGBps: number } | undefined;
  for (const speedGBps of ladder) {
    if (best && speedGBps / best.speedGBps <= NCCL_TABLES.searchSpeedRatio.value) break;
    const nChannels = Math.min(channelsAt(speedGBps), NCCL_TABLES.maxRingChannels.value);
    if (nChannels < 1) continue;
    if (!best || nChannels * speedGBps > best.nChannels * best.speedGBps + FIT_TOLERANCE_GBPS) best = { nChannels, speedGBps };
  }
  return best ?? { nChannels: 1, speedGBps: 0.1 };
}

/**
 * `ncclTopoDupChannels` (src/graph/search.cc): double the channels and halve their bandwidth when
 * bwIntra ≥ 25 GB/s — except on Hopper and later when bwIntra < 50 with more than 4 channels.
 */
export function dupChannels(graph: { nChannels: number; speedGBps: number }, hopperOrLater: boolean): {
  nChannels: number;
  speedGBps: number;
} {
  const rule = NCCL_TABLES.dupChannels.value;
  if (graph.speedGBps < rule.minBwIntraGBps) return graph;
  if (hopperOrLater && graph.speedGBps < rule.hopperMinBwIntraGBps && graph.nChannels > rule.hopperMaxChannelsWithoutDup) {
    return graph;
  }
  const nChannels = Math.min(graph.nChannels * 2, NCCL_TABLES.maxRingChannels.value);
  const divisor = Math.ceil(nChannels / graph.nChannels);
  return { nChannels, speedGBps: graph.speedGBps / divisor };
}

/**
 * Pass 2 of the search: starting at `fromGBps`, step up the ladder while `keepGoing(current)`
 * holds and the next faster speed still `fits`. NCCL uses it to raise a tree's bwIntra (up to
 * 2 × bwInter) and an NVLS graph's bwInter (up to 2 × bwIntra).
 */
export function raiseAlongLadder(
  ladder: readonly number[],
  fromGBps: number,
  keepGoing: (currentGBps: number) => boolean,
  fits: (candidateGBps: number) => boolean,
): number {
  let current = fromGBps;
  for (;;) {
    const faster = ladder.filter((s) => s > current + FIT_TOLERANCE_GBPS);
    const next = faster[faster.length - 1];
    if (next === undefined || !keepGoing(current) || !fits(next)) return current;
    current = next;
  }
}
