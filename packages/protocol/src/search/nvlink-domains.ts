import { placedDomainGpus } from '@trainplan/planner';

/** A nodes answer's NVLink domains: how many, their GPUs, and those the plan uses in each where it places them in segments. */
export interface NvlinkDomainsJson {
  readonly count: number;
  readonly gpusEach: number;
  readonly gpusUsedEach?: number;
}

/**
 * The NVLink domains (GB200 NVL72 racks) a plan of `gpus` fills, ⌈gpus / domain⌉, and where the planner places it in
 * equal segments of each rather than filling them in turn (placedDomainGpus: 128 GPUs with 32-GPU data-parallel
 * groups are two racks of 64), the GPUs it uses in each.
 */
export function nvlinkDomainsOf(gpus: number, layout: { readonly tensor: number; readonly context: number; readonly data: number }, domain: number, tray: number): NvlinkDomainsJson {
  const used = placedDomainGpus({ nvlinkDomainGpus: domain, gpusPerNode: tray, nodes: gpus / tray, ...layout });
  return { count: Math.ceil(gpus / domain), gpusEach: domain, ...(used !== domain && { gpusUsedEach: used }) };
}

/**
 * A nodes answer's NVLink domains in words, as the CLI, the widget and the chat bot say them: "57 NVLink
 * domains of 72 GPUs, the last holding 64" for 4,096 GB200 GPUs, "2 NVLink domains of 72 GPUs, 64 used in each"
 * for 128 placed in segments. A GB200 NVL72 rack is one such domain (18 trays of 4 GPUs; NVIDIA DGX SuperPOD
 * GB200 reference architecture), and racks are what is bought.
 */
export function nvlinkDomainsText(gpus: number, domains: NvlinkDomainsJson): string {
  const counted = `${domains.count.toLocaleString('en-US')} NVLink domain${domains.count === 1 ? '' : 's'} of ${domains.gpusEach} GPUs`;
  if (domains.gpusUsedEach !== undefined) return `${counted}, ${domains.gpusUsedEach} used in each`;
  const last = gpus - (domains.count - 1) * domains.gpusEach;
  if (last === domains.gpusEach) return counted;
  return domains.count === 1 ? `${counted}, holding ${last}` : `${counted}, the last holding ${last}`;
}
