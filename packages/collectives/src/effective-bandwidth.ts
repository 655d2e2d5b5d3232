import type { GpuGeneration } from '@trainplan/hardware';
import { channelsThatFit, searchLadder } from './nccl-graph-search.ts';
import { NCCL_TABLES } from './nccl-tables.ts';

/**
 * What NCCL actually drives through one NIC of line rate `nicGBps`: the fastest speed of the
 * inter-node ladder that fits (src/graph/search.cc) — 24 of HDR's 25 GB/s, 48 of NDR's 50, the
 * per-NIC figures NVIDIA quotes (nccl-tests#160, #290). A fractional share of a NIC scales it.
 */
export function effectiveNicBandwidthGBps(nicGBps: number, generation: GpuGeneration, nicShare = 1): number {
  const budget = nicGBps * Math.min(1, nicShare);
  const { nChannels, speedGBps } = searchLadder(NCCL_TABLES.speedLadderGBps.value.inter[generation],
    (speed) => channelsThatFit(budget, speed));
  return nChannels * speedGBps;
}

/**
 * What NCCL drives out of one GPU over NVLink (or PCIe) in a ring: channels × speed of the
 * intra-node search — 240 GB/s on A100, 360 on H100 (collectives-reference §1 "Channels").
 */
export function effectiveIntraBandwidthGBps(intraGBps: number, generation: GpuGeneration): number {
  const { nChannels, speedGBps } = searchLadder(NCCL_TABLES.speedLadderGBps.value.intra[generation],
    (speed) => channelsThatFit(intraGBps, speed));
  return nChannels * speedGBps;
}
