import { countOf, formatGrouped } from '@trainplan/units';
import { largestDivisorAtMost, withCollnet, type CommGroup, type Fabric } from '@trainplan/collectives';
import type { GpuSpec, NetworkSpec, SystemSpec } from '@trainplan/hardware';
import { defaultSystemForGpu, gpuById, GPU_IDS, NETWORKS, networkById, NETWORK_IDS, systemById, SYSTEM_IDS } from '@trainplan/presets';
import { fabricFor } from '../fabric-cache.ts';
import { machineIssues } from '../machine-checks.ts';
import { didYouMean } from '../preset-ids.ts';
import type { FieldIssue } from '../wire.ts';
import type { CollectiveRequest } from './collective-schema.ts';

export interface CollectiveMachine {
  readonly gpu: GpuSpec;
  readonly system: SystemSpec;
  readonly network: NetworkSpec;
  readonly fabric: Fabric;
  readonly nodes: number;
  /** GPUs of each system node taking part. */
  readonly gpusPerNode: number;
  /** The communicator as the collectives package sees it (an NVL72 rack is one NVLink "node"). */
  /** The communicator, with its concurrent siblings (concurrentGroupsPerNode) when asked for. */
  readonly group: CommGroup;
  /** How the group was placed where the request did not say it exactly (GPUs that leave an NVLink domain part full). */
  readonly placementNote?: string;
  /** The network's NICs per node where they outnumber the system's GPUs per node (8 NDR NICs on a 4-GPU GB200 tray). */
  readonly nicNote?: string;
}

/**
 * What was costed where a network puts more NICs on a node than the system has GPUs: the fabric takes the network's count
 * as given (two NICs per GPU of a 4-GPU GB200 tray on ndr-ib-8x), which no such node has, each GPU reaching them at most at
 * its host link (collectives host-path.ts groupHostPathGBps); said, with the system's own.
 */
function nicNote(system: SystemSpec, network: NetworkSpec): string | undefined {
  if (network.nvlinkDomainGpus !== undefined || network.nicsPerNode <= system.gpusPerNode) return undefined;
  const own = networkById(system.network);
  const ownCount = own && own.id !== network.id ? `; ${system.id}'s own network, ${own.id}, has ${own.nicsPerNode} per node` : '';
  return `${network.id} puts ${network.nicsPerNode} NICs on a node, more than the ${system.gpusPerNode} GPUs of a ${system.id} node: `
    + `costed with all ${network.nicsPerNode} (${network.nicsPerNode / system.gpusPerNode} per GPU, each GPU reaching them at most at its own PCIe link)${ownCount}`;
}

/** Preset ids → specs and the communicator; every unknown id or impossible count is an issue. */
export function resolveCollectiveMachine(
  request: CollectiveRequest,
): { ok: true; value: CollectiveMachine } | { ok: false; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  let system: SystemSpec | undefined;
  let gpu: GpuSpec | undefined;
  if (request.system !== undefined) {
    system = systemById(request.system);
    if (!system) {
      const other = gpuById(request.system) ? `; "${request.system}" is a GPU: give it as gpu` : '';
      issues.push({ path: 'system', message: `unknown system "${request.system}"${other ? '' : didYouMean(request.system, SYSTEM_IDS)}; known: ${SYSTEM_IDS.join(', ')}${other}` });
    }
    gpu = system ? gpuById(system.gpu) : undefined;
  } else if (request.gpu !== undefined) {
    gpu = gpuById(request.gpu);
    // Estimates take a system id as their GPU; here a system is its own field, and the message says so.
    if (!gpu) {
      const other = systemById(request.gpu) ? `; "${request.gpu}" is a system: give it as system` : '';
      issues.push({ path: 'gpu', message: `unknown GPU "${request.gpu}"${other ? '' : didYouMean(request.gpu, GPU_IDS)}; known: ${GPU_IDS.join(', ')}${other}` });
    }
    system = gpu ? defaultSystemForGpu(gpu.id) : undefined;
  }
  const networkId = request.network ?? system?.network;
  const network = networkId === undefined ? undefined : networkById(networkId);
  if (networkId !== undefined && !network) {
    issues.push({ path: 'network', message: `unknown network "${networkId}"${didYouMean(networkId, NETWORK_IDS)}; known: ${NETWORK_IDS.join(', ')}` });
  }
  if (!gpu || !system || !network) return { ok: false, issues };
  const gpusPerNode = request.gpusPerNode ?? system.gpusPerNode;
  issues.push(...machineIssues({ system, network, gpusPerNode, prefix: '' }));
  if (request.collnet === true && !network.inNetworkReduction) {
    const sharp = Object.values(NETWORKS).filter((n) => n.inNetworkReduction).map((n) => n.id);
    issues.push({ path: 'collnet', message: `CollNet needs in-network reduction (InfiniBand SHARP), which ${network.id} has not; networks with it: ${sharp.join(', ')}` });
  }
  const machineFabric = fabricFor(gpu, system, network, system.gpusPerNode);
  const fabric = request.collnet === true && network.inNetworkReduction ? withCollnet(machineFabric) : machineFabric;
  const ranks = request.nodes * gpusPerNode;
  // NVLink domains (GB200 NVL72): whole trays inside one domain are one "node" to NCCL.
  const domain = network.nvlinkDomainGpus;
  let ranksPerNode = gpusPerNode;
  let placementNote: string | undefined;
  if (domain !== undefined) {
    if (request.nodes * gpusPerNode > domain && gpusPerNode !== system.gpusPerNode) {
      issues.push({ path: 'gpusPerNode', message: `across NVLink domains use whole nodes (${system.gpusPerNode} GPUs)` });
    }
    ranksPerNode = Math.min(ranks, domain);
    if (ranks > domain && ranks % domain !== 0) {
      // A last domain only part full, as `trainplan nodes` may answer for GB200 (8,192 GPUs: 113 racks of 72 and one of
      // 56). NCCL's tuner takes a symmetric placement, so the group is costed as the planner costs such a group
      // (planner/groups.ts): the largest even split that fits a domain, 64 per domain over 128.
      ranksPerNode = largestDivisorAtMost(ranks, domain);
      placementNote = `${countOf(ranks, 'GPU')} do not fill whole ${domain}-GPU NVLink domains (${Math.floor(ranks / domain)} full, one holding ${ranks % domain}): `
        + `costed as ${formatGrouped(ranks / ranksPerNode)} domains of ${ranksPerNode}, the largest even split, as training plans cost such a group`;
    }
  }
  const concurrent = request.concurrentGroups ?? 1;
  if (domain !== undefined && concurrent > 1 && concurrent * ranksPerNode > domain) {
    issues.push({
      path: 'concurrentGroups',
      message: `${concurrent} groups of ${ranksPerNode} GPU${ranksPerNode === 1 ? '' : 's'} in one ${domain}-GPU NVLink domain need ${concurrent * ranksPerNode} GPUs there`,
    });
  } else if (concurrent > 1 && concurrent * gpusPerNode > system.gpusPerNode) {
    issues.push({
      path: 'concurrentGroups',
      message: `${concurrent} groups of ${gpusPerNode} GPU${gpusPerNode === 1 ? '' : 's'} per node need ${concurrent * gpusPerNode} GPUs per node; ${system.id} has ${system.gpusPerNode}`,
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  const group: CommGroup = { ranks, ranksPerNode, ...(concurrent > 1 && { concurrentGroupsPerNode: concurrent }) };
  const nics = nicNote(system, network);
  return {
    ok: true,
    value: {
      gpu, system, network, fabric, nodes: request.nodes, gpusPerNode, group,
      ...(placementNote !== undefined && { placementNote }), ...(nics !== undefined && { nicNote: nics }),
    },
  };
}

