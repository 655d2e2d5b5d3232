import type { NetworkSpec, SystemSpec } from '@trainplan/hardware';
import { SYSTEMS } from '@trainplan/presets';
import type { FieldIssue } from './wire.ts';

/**
 * What a machine description may not ask of its presets: more GPUs per node than the system's NVLink
 * domain holds (trainplan prices every GPU of a node at NVLink speed), or an NVLink-domain fabric
 * (GB200 NVL72) under a GPU whose systems are not built on it. Paths are prefixed for the caller's schema
 * (`cluster.` for a scenario, nothing for a collective request).
 */
export function machineIssues(input: {
  system: SystemSpec; network: NetworkSpec; gpusPerNode: number; prefix: string;
}): FieldIssue[] {
  const { system, network, gpusPerNode, prefix } = input;
  const issues: FieldIssue[] = [];
  if (gpusPerNode > system.gpusPerNode) {
    issues.push({
      path: `${prefix}gpusPerNode`,
      message: `${system.id} has ${system.gpusPerNode} GPUs per node, asked for ${gpusPerNode} (a node's GPUs are priced at its NVLink speed)`,
    });
  }
  if (network.nvlinkDomainGpus !== undefined && network.id !== system.network) {
    const built = Object.values(SYSTEMS).filter((s) => s.network === network.id).map((s) => `${s.id} (${s.gpu})`);
    issues.push({
      path: `${prefix}network`,
      message: `${network.id} is the NVLink domain of ${built.join(', ')}; ${system.gpu} GPUs are not built into it`,
    });
  }
  return issues;
}
