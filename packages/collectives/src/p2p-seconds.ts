import type { Bytes, Seconds } from '@trainplan/units';
import { toGBps, us } from '@trainplan/units';
import { checkFiniteNonNegative } from './alpha-beta-options.ts';
import { effectiveIntraBandwidthGBps, effectiveNicBandwidthGBps } from './effective-bandwidth.ts';
import { gpusJoinedByNvlink, nvlinksToPeers } from './gpus-joined-by-nvlink.ts';
import { NCCL_TABLES } from './nccl-tables.ts';
import type { Fabric } from './types.ts';

/**
 * What NCCL drives out of one GPU to `peers` others of its node (default one), in NCCL's units: NVLink links ×
 * NCCL's per-link figure (src/graph/topo.h) — all of a GPU's links behind an NVSwitch, on a full mesh only those to
 * the peers (a quad GH200: 6 × 20.6 to one peer, 120 GB/s as the search fits it) — or on a PCIe node NCCL's figure for
 * the GPU's PCIe x16 link (24 GB/s Gen4, 48 Gen5), each through the channels × speed its search fits
 * (effective-bandwidth.ts).
 */
export function intraNodeGBps(fabric: Fabric, peers = 1): number {
  const T = NCCL_TABLES;
  const gbps = gpusJoinedByNvlink(fabric)
    ? nvlinksToPeers(fabric, peers) * T.nvlinkBandwidthPerLinkGBps.value[fabric.generation]
    : T.pciBandwidthGBps.value[fabric.generation];
  return effectiveIntraBandwidthGBps(gbps, fabric.generation);
}

/**
 * α of one point-to-point message as NCCL's model prices a single Ring/Simple step: the base
 * latency plus one hop, NVLink (3.4 µs), PCIe (5.7 µs) or network (14 µs) (src/tuning/cost_model.cc).
 * `fabric.networkLatency` is not added: NCCL's IB plugin reports 0 extra latency and its
 * hwLatencies already include the wire.
 */
function p2pAlphaSeconds(fabric: Fabric, crossNode: boolean): Seconds {
  const hw = NCCL_TABLES.hwLatencyUs.value;
  const hop = crossNode ? hw.net.ring.Simple : hw[gpusJoinedByNvlink(fabric) ? 'nvlink' : 'pci'].ring.Simple;
  return us(NCCL_TABLES.baseLatencyUs.value.ring.Simple + hop);
}

/**
 * One point-to-point send: α + bytes / bw, over NVLink inside a node (the rate NCCL drives out of
 * one GPU: 240 GB/s A100, 360 H100; over PCIe on a PCIe node: 24 Gen4, 48 Gen5) or over one NIC across
 * nodes (24 GB/s HDR, 48 NDR).
 * `nicShare` (default 1) is the fraction of a NIC this sender gets when GPUs share NICs.
 */
export function p2pSeconds(options: {
  readonly bytes: Bytes;
  readonly fabric: Fabric;
  readonly crossNode: boolean;
  readonly nicShare?: number;
}): Seconds {
  const { bytes, fabric, crossNode, nicShare = 1 } = options;
  // As the α-β functions check theirs (alpha-beta-options.ts): an infinite size is a programmer error, not a cost.
  checkFiniteNonNegative('bytes', bytes);
  if (!(nicShare > 0 && nicShare <= 1)) throw new RangeError(`nicShare must be a fraction in (0, 1], got ${nicShare}`);
  const gbps = crossNode
    ? effectiveNicBandwidthGBps(toGBps(fabric.nicBandwidth), fabric.generation, nicShare)
    : intraNodeGBps(fabric);
  return p2pAlphaSeconds(fabric, crossNode) + us(bytes / (1000 * gbps));
}

/**
 * The share of a NIC each GPU gets when every GPU of a node sends across nodes at once (a pipeline boundary, a context
 * ring): the node's NICs over its GPUs, at most one (a GPU cannot aggregate several NICs, nccl-tests#267).
 */
export const nicShareWhenAllSend = (fabric: Pick<Fabric, 'nicsPerNode' | 'gpusPerNode'>): number => Math.min(1, fabric.nicsPerNode / fabric.gpusPerNode);
