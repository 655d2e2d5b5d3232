import { fabricFromSpecs, type Fabric } from '@trainplan/collectives';
import { NVLINKS, type GpuSpec, type NetworkSpec, type SystemSpec } from '@trainplan/hardware';

/**
 * One Fabric object per (GPU, system, network, node size): the collectives package memoises NCCL's
 * graphs per fabric object, so reusing it makes repeated estimates of one machine cheap. Presets are
 * immutable, so the cache never goes stale; its size is bounded by the preset catalogue.
 * `gpusPerNode` is the node size the caller plans with; on an NVLink-domain network (GB200 NVL72) it is
 * not used: the domain (72) is what collectives see as one "node", and fabricFromSpecs derives it, and
 * the domain's NICs, from the network and the system's 4-GPU tray. A node of fewer GPUs than the system's keeps
 * only the NICs its GPUs reach (`nodeNetwork`).
 */
const fabrics = new Map<string, Fabric>();

export function fabricFor(gpu: GpuSpec, system: SystemSpec, network: NetworkSpec, gpusPerNode: number): Fabric {
  const key = `${gpu.id}|${system.id}|${network.id}|${network.nvlinkDomainGpus ?? gpusPerNode}`;
  let fabric = fabrics.get(key);
  if (!fabric) {
    // An NVLink-domain fabric sizes its "node" itself (fabricFromSpecs: the domain, with every tray's NICs),
    // which needs the system's own tray size; other fabrics take the node size asked for.
    const node = network.nvlinkDomainGpus !== undefined ? system : { ...system, gpusPerNode };
    fabric = fabricFromSpecs({ gpu, system: node, network: nodeNetwork(network, system, node.gpusPerNode), nvlink: NVLINKS[gpu.nvlink] });
    fabrics.set(key, fabric);
  }
  return fabric;
}

/**
 * The network as a node of `gpusPerNode` of the system's GPUs sees it: a network preset counts the NICs of a whole
 * system node, one PCIe switch's NICs per GPU or pair of GPUs (DGX: one per GPU; DGX-1: one per two), so the first
 * `gpusPerNode` GPUs reach ⌈nicsPerNode × gpusPerNode / system GPUs⌉ of them — 1 GPU of a DGX H100 one NDR NIC,
 * not eight (the collective command's placement, collectives group-placement.ts, reaches the same count).
 */
function nodeNetwork(network: NetworkSpec, system: SystemSpec, gpusPerNode: number): NetworkSpec {
  if (gpusPerNode >= system.gpusPerNode) return network;
  return { ...network, nicsPerNode: Math.ceil((network.nicsPerNode * gpusPerNode) / system.gpusPerNode) };
}
