import { nvlinkPeerLinks } from '@trainplan/hardware';
import type { Fabric } from './types.ts';

/**
 * Whether a node's GPUs reach each other over NVLink (through NVSwitch or a direct mesh), or over PCIe alone: a
 * PCIe-only node (`intraNode: 'pcie'`, PCIe cards in a server), or GPUs without NVLink ports (nvlinkCount 0). Every
 * model that picks an intra-node path asks this one question, so a PCIe node is costed alike everywhere: NCCL's PCI
 * latency row and bandwidth (nccl-tables.ts), PCIe links in the topology graph, no NVLS.
 */
export function gpusJoinedByNvlink(fabric: Pick<Fabric, 'intraNode' | 'nvlinkCount'>): boolean {
  switch (fabric.intraNode) {
    case 'nvswitch':
    case 'nvlink-hybrid-cube-mesh':
      return fabric.nvlinkCount > 0;
    case 'pcie':
      return false;
    default:
      return unknownKind(fabric.intraNode);
  }
}

/**
 * The node's NVLink pair table as the collectives use it (hardware nvlinkPeerLinks): null behind an NVSwitch, the
 * mesh's links on a DGX-1, all zeros on a PCIe node (or GPUs without NVLink), where every pair meets over PCIe.
 */
export function peerLinksOf(fabric: Pick<Fabric, 'intraNode' | 'nvlinkCount'>, gpusPerNode: number): Readonly<Uint8Array> | null {
  return nvlinkPeerLinks(gpusJoinedByNvlink(fabric) ? fabric.intraNode : 'pcie', gpusPerNode);
}

/** Exhaustiveness: a new IntraNodeKind fails to compile here until it is given its path. */
function unknownKind(kind: never): never {
  throw new Error(`unknown intra-node kind ${String(kind)}`);
}
