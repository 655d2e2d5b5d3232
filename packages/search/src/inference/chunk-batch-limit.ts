import { countOf, formatGrouped } from '@trainplan/units';
import type { InferenceShape } from './inference-shape.ts';
import { cachedPrefixTokens } from './prefix-cache.ts';
import { tokensPerStep } from './speculative.ts';

/** The most sequences a continuous-batching replica keeps running when its prompts are prefilled in chunks, and why. */
export interface ChunkBatchLimit {
  /** The largest batch whose prompts the chunk budget admits as fast as its sequences finish. */
  readonly sequences: number;
  readonly chunkTokens: number;
  /** Prompt tokens prefilled per sequence: the prompt past its cached prefix (prefix-cache.ts). */
  readonly newPromptTokens: number;
  readonly cached: boolean;
  /** Iterations one prompt's prefill takes: ⌈new prompt tokens / chunk⌉. */
  readonly chunks: number;
  /** Iterations a sequence holds its slot: its chunks, the last of which yields its first token, then the steps decoding the rest (slotIterations). */
  readonly slotIterations: number;
  /** Micro-batches in flight, each with its own chunk budget: the pipeline depth. */
  readonly microBatches: number;
}

/**
 * Iterations a sequence holds its slot (vLLM's max_num_seqs counts running sequences, prefilling or decoding): its
 * c prefill iterations, the last of which yields its first token (the prompt's logits), then the O − 1 decode steps
 * of the rest: O + c − 1. Unchunked (c = 1) that is O, the prefill iteration counting as the first token's.
 * `outputSteps` is O over the tokens a step yields (speculative decoding).
 */
export const slotIterations = (outputSteps: number, chunks: number): number => outputSteps + chunks - 1;

/**
 * The largest batch that chunked prefill can keep running (Sarathi-Serve, Agrawal et al., OSDI 2024: each iteration
 * carries at most its token budget of prefill, the chunk; vLLM's chunked prefill, max_num_batched_tokens
 * less the running decodes). In steady state b slots each held L = O + c − 1 iterations admit b/L prompts an
 * iteration (Little's law), b/(L·k) on each of the k micro-batches, whose iterations each prefill at most `chunk` of
 * their P' new tokens: b·P'/(L·k) ≤ chunk, so b ≤ k·L·chunk/P'. A batch past it cannot be kept full: its prompts
 * arrive faster than their chunks can be prefilled, so slots wait on the chunk budget and it serves no more than the
 * batch at the limit (a model that fused more than a chunk into an iteration would credit it with more). Prompts are
 * packed into the budget as both engines pack them (a prompt's last chunk shares its iteration with the next's
 * first), so a P' that is not a multiple of the chunk gets the token form, not the coarser 1/c prompts an iteration.
 * A micro-batch of one sequence never exceeds its budget (one prompt, one chunk an iteration), so up to k always
 * run. With k = 1, P' = 6,144, O = 512 and a 512-token chunk: c = 12, L = 523, b ≤ 523·512/6,144 = 43.6, i.e. 43:
 * the O·k·chunk/P' = 42.7 decoding that a count of decoding sequences alone gives, and the one slot prefilling beside them.
 * Undefined where no chunk is given (whole prompts, any number an iteration: TensorRT-LLM's default) or for static batching.
 */
export function chunkBatchLimit(shape: Omit<InferenceShape, 'batch'>): ChunkBatchLimit | undefined {
  const chunk = shape.prefillChunkTokens;
  if (shape.batching !== 'continuous' || chunk === undefined) return undefined;
  const cached = shape.sharedPrefixTokens === undefined ? 0 : cachedPrefixTokens(shape.sharedPrefixTokens, shape.promptTokens);
  const newPromptTokens = shape.promptTokens - cached;
  const chunks = Math.ceil(newPromptTokens / chunk);
  const spec = shape.speculative;
  const outputSteps = spec === undefined ? shape.outputTokens : shape.outputTokens / tokensPerStep(spec.draftTokens, spec.acceptanceRate);
  const life = slotIterations(outputSteps, chunks);
  const k = shape.pipeline;
  return {
    sequences: Math.max(k, Math.floor((k * life * chunk) / newPromptTokens)),
    chunkTokens: chunk, newPromptTokens, cached: cached > 0, chunks, slotIterations: life, microBatches: k,
  };
}

const n = (x: number) => formatGrouped(x);

/**
 * Why the chunk limits the batch, in words: "an iteration prefills at most 512 prompt tokens, and a sequence holds its
 * slot for 523 iterations (its 6,144-token prompt in 12 chunks, then 511 more decoding)"; "… tokens a micro-batch" with PP.
 */
export function chunkLimitWhy(limit: ChunkBatchLimit, perMicroBatch = limit.microBatches > 1): string {
  const prompt = limit.cached ? `the ${n(limit.newPromptTokens)} tokens of its prompt past the cached prefix` : `its ${n(limit.newPromptTokens)}-token prompt`;
  const perIteration = perMicroBatch ? ' a micro-batch' : '';
  return `an iteration prefills at most ${n(limit.chunkTokens)} prompt tokens${perIteration}, and a sequence holds its slot for `
    + `${n(limit.slotIterations)} iterations (${prompt} in ${n(limit.chunks)} ${limit.chunks === 1 ? 'chunk' : 'chunks'}, `
    + `then ${n(limit.slotIterations - limit.chunks)} more decoding)`;
}

/** A shape whose batch the chunk holds: below what fits in memory (planInference's default batches), or below batches asked for (left out). */
export interface ChunkBound {
  readonly tensor: number;
  readonly pipeline: number;
  readonly limit: ChunkBatchLimit;
  /** Batches asked for past the limit, left out of the shape's points. */
  readonly leftOut: readonly number[];
}

/**
 * The chunk's limit said where it holds a batch, in one warning, its sequences per pipeline depth (the limit grows
 * with the micro-batches, not with TP): "a prefill chunk of 512 tokens keeps at most 43 sequences running on PP 1,
 * fewer than fit in memory: an iteration prefills … (its 6,144-token prompt in 12 chunks, then 511 more decoding), so
 * with more slots prompts arrive faster than their chunks are prefilled; larger batches are not planned (a larger
 * prefillChunkTokens lifts the limit)". Batches asked for past it are named instead ("… were left out: 64, 80 on TP 1 · PP 1").
 */
export function chunkLimitWarnings(bounds: readonly ChunkBound[]): string[] {
  if (bounds.length === 0) return [];
  const byDepth = new Map(bounds.map((b) => [b.pipeline, b.limit]));
  const depths = [...byDepth.entries()].sort(([a], [b]) => a - b);
  // The first names its noun, singular for one ("at most 1 sequence running on PP 1, 3 on PP 2").
  const each = depths.map(([p, l], i) => `${i === 0 ? `${countOf(l.sequences, 'sequence')} running` : n(l.sequences)} on PP ${p}`);
  const perDepth = each.length === 1 ? each[0] : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
  const first = depths[0]![1];
  const asked = bounds.filter((b) => b.leftOut.length > 0);
  const which = asked.length === 0 ? ', fewer than fit in memory' : '';
  const outcome = asked.length === 0 ? 'larger batches are not planned'
    : `batches asked for past it were left out: ${asked.map((b) => `${[...b.leftOut].sort((x, y) => x - y).map(n).join(', ')} on TP ${b.tensor} · PP ${b.pipeline}`).join('; ')}`;
  return [`a prefill chunk of ${n(first.chunkTokens)} tokens keeps at most ${perDepth}${which}: ${chunkLimitWhy(first, depths.some(([p]) => p > 1))}, `
    + `so with more slots prompts arrive faster than their chunks are prefilled; ${outcome} (a larger prefillChunkTokens lifts the limit)`];
}
