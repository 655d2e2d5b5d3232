import { CONTRACT_EXAMPLE } from '@trainplan/protocol';

/** One kind of request in the load mix, with how often it is sent and what a valid answer is. */
export interface MixEntry {
  readonly kind: 'estimate' | 'search' | 'collective' | 'memory';
  readonly path: string;
  readonly body: string;
  /** Relative share of the requests. */
  readonly weight: number;
  /** Whether a 200 answer's parsed JSON body is a valid answer to this request. */
  readonly valid: (answer: Record<string, unknown>) => boolean;
}

const isPositive = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x > 0;
const record = (x: unknown): Record<string, unknown> => (typeof x === 'object' && x !== null ? x as Record<string, unknown> : {});

/**
 * The mix the issue names (estimate, search, collective) plus memory: mostly estimates, as a planner's
 * users send them, and a search kept small (one node, a constrained space, a candidate budget) so each
 * costs a few estimates, not the 1.2 million candidates of a full GPT-3 search.
 */
export const REQUEST_MIX: readonly MixEntry[] = [
  {
    kind: 'estimate', path: '/v1/estimate', weight: 5, body: JSON.stringify(CONTRACT_EXAMPLE),
    // The contract's answer: ok, a positive step time, 0 < MFU ≤ HFU ≤ 1.
    valid: (a) => a.ok === true && isPositive(a.stepTimeSeconds) && isPositive(a.mfu)
      && (a.mfu as number) <= (a.hfu as number) && (a.hfu as number) <= 1,
  },
  {
    kind: 'memory', path: '/v1/memory', weight: 2, body: JSON.stringify(CONTRACT_EXAMPLE),
    valid: (a) => a.ok === true && typeof a.fits === 'boolean' && isPositive(record(a.memory).totalBytes),
  },
  {
    kind: 'collective', path: '/v1/collective', weight: 2,
    body: JSON.stringify({ op: 'all-reduce', gpu: 'h100-sxm', nodes: 2, sizes: [1048576, 1073741824] }),
    // One row per size asked, each with a positive time.
    valid: (a) => a.ok === true && Array.isArray(a.rows) && a.rows.length === 2 && a.rows.every((r) => isPositive(record(r).seconds)),
  },
  {
    kind: 'search', path: '/v1/search', weight: 1,
    body: JSON.stringify({
      model: 'llama3-8b', cluster: { gpu: 'h100-sxm', nodes: 1 }, training: { globalBatchSize: 32 },
      constraints: { maxPipeline: 2, maxContext: 1, maxVirtualStages: 1, microBatchSizes: [1, 2], recompute: ['selective'] },
      top: 3, candidateBudget: 16,
    }),
    valid: (a) => a.ok === true && record(a.best).rank === 1,
  },
];

/** The mix entry for the i-th request: a fixed, interleaved round-robin by weight (deterministic, no randomness). */
export function mixEntryAt(mix: readonly MixEntry[], i: number): MixEntry {
  const total = mix.reduce((sum, e) => sum + e.weight, 0);
  let slot = i % total;
  for (const entry of mix) {
    if (slot < entry.weight) return entry;
    slot -= entry.weight;
  }
  return mix[0]!;
}
