import { fabricFromSpecs, type Fabric } from '@trainplan/collectives';
import { NVLINKS, type GpuGeneration } from '@trainplan/hardware';
import { gpuById, networkById, systemById } from '@trainplan/presets';
import { GBps } from '@trainplan/units';

/** One row of a /v1/collective answer and the machine it names. */
export interface CollectiveAnswerRow {
  readonly op: string;
  readonly gpu: string;
  readonly system: string;
  readonly network: string;
  readonly ranks: number;
  /** GPUs of each system node taking part. */
  readonly gpusPerNode: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly busbwGBps: number;
  readonly algorithm: string;
}


/** PCIe x16 line rate one way by the host generation a GPU generation ships with: Gen3 (V100), Gen4 (A100), Gen5 (H100, B200). */
const PCIE_X16_LINE_GBPS: Readonly<Record<GpuGeneration, number>> = { volta: 15.75, ampere: 31.5, hopper: 63, blackwell: 63 };
/**
 * The wire rates of the machine an answer names, from the presets alone (not from the answer's
 * algorithm): NVLink per GPU (all links, one direction) and the node's NICs together. An NVLink
 * domain (GB200 NVL72) is one "node" to NCCL, as collectives-reference §3 has it.
 */
export function machineRates(row: Pick<CollectiveAnswerRow, 'gpu' | 'system' | 'network' | 'ranks' | 'gpusPerNode'>):
  { fabric: Fabric; nvlinkBytesPerSecond: number; nicsBytesPerSecond: number; ranksPerNode: number } {
  const gpu = gpuById(row.gpu);
  const system = systemById(row.system);
  const network = networkById(row.network);
  if (!gpu || !system || !network) throw new Error(`the answer names unknown presets: ${row.gpu}, ${row.system}, ${row.network}`);
  const domain = network.nvlinkDomainGpus;
  // fabricFromSpecs makes an NVLink domain one node itself, with every tray's NICs: it needs the tray's size.
  const fabric = fabricFromSpecs({ gpu, system, network, nvlink: NVLINKS[gpu.nvlink] });
  return {
    fabric,
    // A PCIe server's GPUs meet over PCIe alone (hardware IntraNodeKind 'pcie'): its x16 line rate bounds every byte between
    // them (PCI-SIG base specifications 4.0 and 5.0: 16 and 32 GT/s × 16 lanes × 128/130 = 31.5 and 63 GB/s one way).
    nvlinkBytesPerSecond: system.intraNode === 'pcie' ? GBps(PCIE_X16_LINE_GBPS[gpu.generation]) : fabric.nvlinkCount * fabric.nvlinkBandwidthPerLink,
    nicsBytesPerSecond: fabric.nicsPerNode * fabric.nicBandwidth,
    ranksPerNode: domain === undefined ? row.gpusPerNode : Math.min(row.ranks, domain),
  };
}

/**
 * The most busbw a bandwidth-optimal algorithm can reach on the machine (Patarasuk & Yuan 2009,
 * t ≥ 2(n−1)/n·S/B, restated in nccl-tests' busbw as busbw ≤ B; collectives-reference §3: per node
 * busbw ≤ min(B_intra, #NIC·B_NIC)). In-switch and in-tree reductions are the named exceptions
 * (reference §2; nccl-tests#196, #212: NVLS sends each byte once, and 2-node Tree is costed on up to
 * 2 × the inter-node rate): they get twice the limit, the most a reduction that halves the traffic
 * could reach. Hierarchical all-reduce moves less data between nodes than a flat ring: its bound
 * is derived from its own node-level traffic below. Returns bytes per second, or undefined for ops with their own bound (all-to-all).
 */
export function busBandwidthLimit(row: CollectiveAnswerRow): number | undefined {
  const { nvlinkBytesPerSecond: nvlink, nicsBytesPerSecond: nics, ranksPerNode } = machineRates(row);
  const nodes = row.ranks / ranksPerNode;
  if (row.op === 'all-to-all') return undefined;
  if (row.op === 'send-recv') return Math.max(nvlink, nics);
  // Across nodes a ring's ranks forward (m−1)/m of its traffic over NVLink and the rest through the NICs.
  const wire = nodes <= 1 ? nvlink : ranksPerNode > 1 ? Math.min((nvlink * ranksPerNode) / (ranksPerNode - 1), nics) : nics;
  const reducedInNetwork = row.algorithm === 'nvls' || row.algorithm === 'nvls-tree' || (row.algorithm === 'tree' && nodes === 2);
  if (reducedInNetwork) return 2 * wire;
  if (row.algorithm !== 'hierarchical' || nodes <= 1) return wire;
  // Hierarchical (reduce inside each node first) sends only (N−1)/N·S per node across the NICs, not
  // the flat ring's (n−1)/n·S per rank-edge: busbw, normalised by the flat (n−1)/n, may exceed the
  // NIC rate by ((n−1)/n)/((N−1)/N) (1.875× for 2 nodes of 8). Its NVLink phases (a reduce-scatter
  // and an all-gather over p ranks) bound it the same way with (p−1)/p.
  const flat = (row.ranks - 1) / row.ranks;
  return Math.min(nvlink * (flat / ((ranksPerNode - 1) / ranksPerNode)), nics * (flat / ((nodes - 1) / nodes)));
}

/**
 * All-to-all's floor: of S bytes per rank, (n − ppn)/n leave the node through NICs that ppn ranks
 * share, and (ppn − 1)/n cross NVLink (the per-rank traffic of a pairwise exchange, Thakur et al. 2005).
 */
export function allToAllFloorSeconds(row: CollectiveAnswerRow): number {
  const { nvlinkBytesPerSecond: nvlink, nicsBytesPerSecond: nics, ranksPerNode: ppn } = machineRates(row);
  const n = row.ranks;
  return Math.max((ppn * (n - ppn) / n) * row.bytes / nics, ((ppn - 1) / n) * row.bytes / nvlink);
}

export const gbpsToBytesPerSecond = (gbps: number): number => GBps(gbps);
