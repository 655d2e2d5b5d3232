import { nvlinkPeerLinks } from '@trainplan/hardware';
import type { Fabric } from './types.ts';

type NodeWiring = Pick<Fabric, 'intraNode' | 'nvlinkCount' | 'gpusPerNode'>;

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
    case 'nvlink-full-mesh':
      return fabric.nvlinkCount > 0;
    case 'pcie':
      return false;
    default:
      return unknownKind(fabric.intraNode);
  }
}

/**
 * The node's NVLink pair table as the collectives use it (hardware nvlinkPeerLinks): null behind an NVSwitch, the
 * mesh's links on a DGX-1 or a full mesh (quad GH200: 6 per pair), all zeros on a PCIe node (or GPUs without NVLink),
 * where every pair meets over PCIe.
 */
export function peerLinksOf(fabric: NodeWiring, gpusPerNode: number = fabric.gpusPerNode): Readonly<Uint8Array> | null {
  const intraNode = gpusJoinedByNvlink(fabric) ? fabric.intraNode : 'pcie';
  return nvlinkPeerLinks({ intraNode, gpusPerNode, nvlinkCount: fabric.nvlinkCount });
}

/**
 * NVLinks each GPU of a group on local GPUs 0 … peers has to the group's other `peers` GPUs (the fewest over the
 * group), as Megatron places a tensor-parallel group: all of its links behind an NVSwitch, whatever the group; on a
 * full mesh `peers` × the pair's links (a quad GH200's 6, 12, 18 for 1, 2, 3 peers); on a PCIe node none. On DGX-1's
 * hybrid cube-mesh it stays all of a GPU's links, as every model took it before the full mesh: its pairs hold 0–2
 * links, and which GPUs a group or a pipeline neighbour takes there is not modelled.
 */
export function nvlinksToPeers(fabric: NodeWiring, peers: number): number {
  if (!gpusJoinedByNvlink(fabric)) return 0;
  if (fabric.intraNode !== 'nvlink-full-mesh') return fabric.nvlinkCount;
  const table = peerLinksOf(fabric) as Readonly<Uint8Array>;
  const g = fabric.gpusPerNode;
  const group = Math.min(g, Math.max(1, peers + 1));
  let fewest = Number.POSITIVE_INFINITY;
  for (let a = 0; a < group; a++) {
    let sum = 0;
    for (let b = 0; b < group; b++) sum += table[a * g + b] as number;
    fewest = Math.min(fewest, sum);
  }
  return fewest;
}

/** Exhaustiveness: a new IntraNodeKind fails to compile here until it is given its path. */
function unknownKind(kind: never): never {
  throw new Error(`unknown intra-node kind ${String(kind)}`);
}
