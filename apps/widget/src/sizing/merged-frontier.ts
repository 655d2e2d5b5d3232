import type { EstimateOk, FrontierSizeJson, NodesOkJson } from '@trainplan/protocol';

/** A searched plan as a size on the time–cost curve: its nodes, GPUs, days, seconds and GPU-hours, label and MFU. */
export const sizeOf = (nodes: number, gpus: number, time: Omit<FrontierSizeJson, 'nodes' | 'gpus' | 'label' | 'mfu' | 'pareto'>, label: string, mfu: number): FrontierSizeJson =>
  ({ nodes, gpus, days: time.days, seconds: time.seconds, gpuHours: time.gpuHours, label, mfu, pareto: false });

/** The plan Auto found on the form's nodes as a size on the curve (undefined without a token budget). */
export const ownSize = (e: EstimateOk, label: string): FrontierSizeJson | undefined =>
  (e.timeToTrain ? sizeOf(e.resolved.nodes, e.resolved.gpus, e.timeToTrain, label, e.mfu) : undefined);

/**
 * The curve with sizes searched by the other answers beside it: "how many nodes"' answer (found between powers of two,
 * it was faster than the curve's "fastest": 6,144 nodes in 49.4 days against 8,192 in 58.6) and the form's own node
 * count (beyond the largest size runNodes searches, 8,192 nodes). Every size is the best plan found at the same
 * batch, so the Pareto marks, the cheapest and the fastest are taken again over all of them.
 */
export function withSizes(curve: NodesOkJson, extra: readonly (FrontierSizeJson | undefined)[]): NodesOkJson {
  const byNodes = new Map((curve.frontier ?? []).map((s) => [s.nodes, s]));
  for (const s of extra) if (s && !byNodes.has(s.nodes)) byNodes.set(s.nodes, s);
  const sizes = [...byNodes.values()].sort((a, b) => a.nodes - b.nodes);
  const frontier = sizes.map((p) => ({ ...p, pareto: !sizes.some((q) => q.days <= p.days && q.gpuHours <= p.gpuHours && (q.days < p.days || q.gpuHours < p.gpuHours)) }));
  if (frontier.length === 0) return curve;
  const cheapest = frontier.reduce((a, b) => (b.gpuHours < a.gpuHours ? b : a));
  const fastest = frontier.reduce((a, b) => (b.days < a.days ? b : a));
  const { nodes, gpus, days, seconds, gpuHours } = cheapest;
  return { ...curve, nodes, gpus, days, seconds, gpuHours, frontier, fastest };
}
