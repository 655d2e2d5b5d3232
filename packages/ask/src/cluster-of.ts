import { defaultSystemForGpu, networkById, systemById } from '@trainplan/presets';
import type { AskParameters } from './question.ts';

/** GPUs per node of the named system, else of the GPU's usual DGX-class system. */
export function gpusPerNodeOf(p: AskParameters): number {
  if (p.gpusPerNode !== undefined) return p.gpusPerNode;
  const system = p.system === undefined ? undefined : systemById(p.system);
  if (system !== undefined) return system.gpusPerNode;
  // Eight GPUs per node when the GPU is unknown: every DGX/HGX board but GB200's tray.
  return (p.gpu === undefined ? undefined : defaultSystemForGpu(p.gpu))?.gpusPerNode ?? 8;
}

/** The GPUs the question names: stated GPUs, or nodes × GPUs per node; undefined when it names no count. */
export const clusterGpusOf = (p: AskParameters): number | undefined =>
  p.gpus ?? (p.nodes === undefined ? undefined : p.nodes * gpusPerNodeOf(p));

/**
 * GPUs in one NVLink domain of the question's machine, as the protocol resolves it (resolve.ts: the network's
 * nvlinkDomainGpus, a GB200 NVL72 rack's 72, else one node's GPUs): the search tries tensor parallelism up to twice it.
 */
export function nvlinkDomainOf(p: AskParameters): number {
  const system = p.system === undefined ? undefined : systemById(p.system);
  const network = p.network ?? system?.network ?? (p.gpu === undefined ? undefined : defaultSystemForGpu(p.gpu))?.network;
  return (network === undefined ? undefined : networkById(network)?.nvlinkDomainGpus) ?? gpusPerNodeOf(p);
}
