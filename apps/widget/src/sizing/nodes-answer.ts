import type { EstimateJson } from '@trainplan/protocol';

export type NodesAnswer =
  | { readonly kind: 'meets'; readonly nodes: number; readonly gpus: number; readonly days: number; readonly gpuHours: number }
  | { readonly kind: 'too-slow'; readonly fastestNodes: number; readonly fastestDays: number }
  | { readonly kind: 'none'; readonly message: string };

/**
 * "How many nodes": the fewest nodes, among `estimates` of one configuration at different node
 * counts (each carrying `timeToTrain` for the token budget), that train within the deadline; when
 * none does, the fastest and its time. Days come from the estimate: tokens / (tokens per second).
 */
export function nodesAnswer(estimates: readonly EstimateJson[], deadlineDays: number): NodesAnswer {
  const ok = estimates.flatMap((e) => (e.ok && e.timeToTrain ? [e] : []));
  if (ok.length === 0) return { kind: 'none', message: 'no node count runs this configuration' };
  const sorted = [...ok].sort((a, b) => a.resolved.nodes - b.resolved.nodes);
  const first = sorted.find((e) => e.timeToTrain!.days <= deadlineDays);
  if (first) {
    return { kind: 'meets', nodes: first.resolved.nodes, gpus: first.resolved.gpus, days: first.timeToTrain!.days, gpuHours: first.timeToTrain!.gpuHours };
  }
  const fastest = ok.reduce((a, b) => (b.timeToTrain!.days < a.timeToTrain!.days ? b : a));
  return { kind: 'too-slow', fastestNodes: fastest.resolved.nodes, fastestDays: fastest.timeToTrain!.days };
}
