import { KV_BLOCK_TOKENS, type InferencePointJson, type InferenceResponseJson } from '@trainplan/protocol';
import { countOf, formatBytes } from '@trainplan/units';

/**
 * A serving point's memory per GPU in words: weights and KV cache, with the draft's share of each when it
 * speculates and, with a shared prefix, the KV cache a request holds of its own apart from the prefix's.
 */

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * "199 MiB per request on each GPU" ("… on average per request on each GPU, paged" under continuous batching), and with a shared prefix "…, plus 160
 * MiB for the 4,096-token shared prefix, held once".
 * The protocol gives the prefix's cached part per GPU (sharedKvCacheBytesPerGpu, inside kvCacheBytesPerGpu): the rest is
 * the requests' own, never the prefix spread over them.
 */
function perRequestText(x: InferencePointJson): string {
  const shared = x.sharedKvCacheBytesPerGpu ?? 0;
  // Continuous batching pages the cache: a request holds its prompt and the tokens generated so far, on average about half
  // its output (search's pagedTokensPerSequence), less than a full context, which static batching reserves. Said so, as a
  // KV cache size answer's full-context share stands beside it (QA: 45.2 MiB here, 50.0 MiB there, neither labelled).
  const paged = x.batching === 'continuous';
  const perRequest = `${formatBytes((x.kvCacheBytesPerGpu - shared) / x.batch)} ${paged ? 'on average ' : ''}per request on each GPU${paged ? ', paged' : ''}`;
  const prefix = x.sharedPrefixTokens;
  const cached = x.cachedPrefixTokens;
  if (prefix === undefined || cached === undefined) return perRequest;
  // Only whole KV blocks are shared: a prefix shorter than one is each request's own.
  if (cached === 0) return `${perRequest}; the ${n(prefix)}-token shared prefix is shorter than a ${KV_BLOCK_TOKENS}-token KV block, so none of it is cached`;
  const what = cached === prefix ? `the ${n(prefix)}-token shared prefix` : `the ${n(prefix)}-token shared prefix's ${n(cached)} cached tokens`;
  return `${perRequest}, plus ${formatBytes(shared)} for ${what}, held once`;
}

/**
 * A point's memory per GPU: "79.6 GiB of 79.6 GiB: weights 16.4 GiB, KV cache 61.2 GiB (90.0 MiB per request on
 * each GPU, …)"; speculating, the draft's share of each: "weights 33.4 GiB (the draft's 589 MiB), KV cache 44.0 GiB
 * (the draft's 4.00 GiB; 199 MiB per request on each GPU)".
 */
export function memoryText(x: InferencePointJson): string {
  const perRequest = perRequestText(x);
  const spec = x.speculation;
  const whole = `${formatBytes(x.totalBytesPerGpu)} of ${formatBytes(x.capacityBytes)}`;
  if (spec === undefined) return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)}, KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (${perRequest})`;
  return `${whole}: weights ${formatBytes(x.weightsBytesPerGpu)} (the draft's ${formatBytes(spec.draftWeightsBytesPerGpu)}), `
    + `KV cache ${formatBytes(x.kvCacheBytesPerGpu)} (the draft's ${formatBytes(spec.draftKvCacheBytesPerGpu)}; ${perRequest})`;
}

/** Words of a question that asks how much memory serving takes ("how much GPU memory does 70B need for inference"). */
export const ASKS_MEMORY = /\bhow much\b[^?]*\b(?:memory|vram|hbm)\b|\b(?:memory|vram|hbm)\b[^?]*\b(?:needs?|needed|required|takes?)\b/i;

type Answered = Extract<InferenceResponseJson, { ok: true }>;

/**
 * A memory question's lead: the fewest GPUs that hold the model with room for requests (of the TP × PP shapes tried,
 * the one of fewest GPUs that serves at all, the larger batch on a tie) and how its memory splits: "the smallest
 * replica that holds it is TP 2 · PP 1 (2 GPUs): weights 65.7 GiB per GPU; the rest, 13.9 GiB, a KV cache for up
 * to 43 concurrent requests (320 MiB per request on each GPU)", with that replica's shape. Undefined when no shape serves.
 */
export function memoryLead(result: Answered): { text: string; tensor: number; pipeline: number } | undefined {
  const serving = result.byShape.flatMap((s) => (s.ok ? [{ gpus: s.tensor * s.pipeline, tensor: s.tensor, pipeline: s.pipeline, x: s.largestBatch }] : []));
  const smallest = serving.sort((a, b) => a.gpus - b.gpus || b.x.batch - a.x.batch)[0];
  if (smallest === undefined) return undefined;
  const { x, tensor, pipeline } = smallest;
  const text = `the smallest replica that holds it is TP ${tensor} · PP ${pipeline} (${countOf(smallest.gpus, 'GPU')}): weights `
    + `${formatBytes(x.weightsBytesPerGpu)} per GPU; the rest, ${formatBytes(x.kvCacheBytesPerGpu)}, a KV cache for up to `
    + `${countOf(x.batch, 'concurrent request')} (${perRequestText(x)})`;
  return { text, tensor, pipeline };
}
