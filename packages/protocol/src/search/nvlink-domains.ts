/**
 * A nodes answer's NVLink domains in words, as the CLI, the widget and the chat bot say them: "57 NVLink
 * domains of 72 GPUs, the last holding 64" for 4,096 GB200 GPUs. A GB200 NVL72 rack is one such domain
 * (18 trays of 4 GPUs; NVIDIA DGX SuperPOD GB200 reference architecture), and racks are what is bought.
 */
export function nvlinkDomainsText(gpus: number, domains: { readonly count: number; readonly gpusEach: number }): string {
  const last = gpus - (domains.count - 1) * domains.gpusEach;
  const counted = `${domains.count.toLocaleString('en-US')} NVLink domain${domains.count === 1 ? '' : 's'} of ${domains.gpusEach} GPUs`;
  if (last === domains.gpusEach) return counted;
  return domains.count === 1 ? `${counted}, holding ${last}` : `${counted}, the last holding ${last}`;
}
