import { widestShape } from './inference-messages.ts';
import { slot, type Slots } from './inference-remedy-terms.ts';
import { field, type Retry, type Served } from './inference-retry.ts';
import { fewestGpus, fewestShape, holding, type FewestGpus, type Holding } from './fewest-gpus.ts';
import { countsRemedy } from './inference-counts-remedy.ts';
import { grouped, name, shapeText } from './inference-remedy-words.ts';

/**
 * Batches asked for (`batches`) that no shape holds, where some shape serves without them: the shape that holds the
 * largest batch.
 */
function mostBatches(request: Record<string, unknown>, retry: Retry): Holding | undefined {
  if (request.batches === undefined) return undefined;
  const shapes = (retry({ drop: ['batches'] })?.byShape ?? []).filter((s): s is Holding => s.ok);
  return shapes.reduce<Holding | undefined>((m, s) => (m === undefined || s.largestBatch.maxBatch > m.largestBatch.maxBatch ? s : m), undefined);
}

/**
 * Prompt chunks tried where a prompt's activations in one forward pass are what overflows: 8,192 tokens, then 2,048,
 * vLLM's default max_num_batched_tokens for its OpenAI server (vllm/engine/arg_utils.py: 8,192 on GPUs of 70 GB and
 * more other than the A100, 2,048 on the others).
 */
const PREFILL_CHUNKS = [8192, 2048];

/**
 * A prompt prefilled in chunks (Sarathi-Serve, OSDI 2024; vLLM's chunked prefill) where no shape holds it whole: an
 * iteration then holds one chunk's activations, not the whole prompt's (QA: Llama 3 8B with a 4M-token prompt needs
 * 106 GiB of activations on an H100 in one pass, 212 MiB in chunks of 8,192). The largest chunk that lets a shape hold
 * it at batch 1, and that shape, checked by asking again; undefined where the request already prefills in chunks that
 * small or none helps.
 */
function chunkThatHolds(request: Record<string, unknown>, retry: Retry): { chunk: number; shape: Holding } | undefined {
  const asked = field(request, 'prefillChunkTokens');
  for (const chunk of PREFILL_CHUNKS.filter((c) => asked === undefined || c < asked)) {
    const shape = fewestShape(holding(retry, { set: { batching: 'continuous', prefillChunkTokens: chunk } }));
    if (shape !== undefined) return { chunk, shape };
  }
  return undefined;
}

/** The change memoryRemedy names first where it is one of these three. */
export type MemoryFix = { readonly batches: Holding } | { readonly chunk: number; readonly shape: Holding } | { readonly counts: FewestGpus };

/**
 * The first of these that serves where no shape holds the model for memory, each checked by asking again: batches asked
 * for that fit; a prompt prefilled in chunks; with `gpus` given, more GPUs (the fewest that serve, fewest-gpus.ts).
 * Undefined where none applies (memoryRemedy then offers memory held back, FP8 weights or another GPU).
 */
export function memoryFix(request: Record<string, unknown>, retry: Retry): MemoryFix | undefined {
  const batches = mostBatches(request, retry);
  if (batches !== undefined) return { batches };
  const chunked = chunkThatHolds(request, retry);
  if (chunked !== undefined) return chunked;
  const counts = field(request, 'gpus') === undefined ? undefined : fewestGpus(request, retry);
  return counts === undefined ? undefined : { counts };
}

/**
 * What lets some shape hold the model when none does for memory, each checked by asking again: memoryFix's change (batches
 * that fit, chunked prefill, or the fewest GPUs that serve, with FP8 weights beside them); else, with memory held back, all
 * of it; else FP8 weights where they make it fit; else (nothing checked helps) GPUs with more memory.
 */
export function memoryRemedy(request: Record<string, unknown>, t: Slots, retry: Retry): string {
  const fix = memoryFix(request, retry);
  if (fix !== undefined && 'batches' in fix) {
    return `to serve it, ask for batches that fit in memory (batches): at most ${grouped(fix.batches.largestBatch.maxBatch)}, on ${shapeText(fix.batches)}; each shape's largest is given with it`;
  }
  if (fix !== undefined && 'chunk' in fix) {
    const ask = slot(t, { field: 'batching', value: 'continuous' }, { field: 'prefillChunkTokens', value: fix.chunk });
    return `to serve it, prefill the prompt in chunks (${ask}): ${shapeText(fix.shape)} then holds it, one chunk's activations at a time`;
  }
  // FP8 weights where the GPU runs them and they fit the GPUs given: offered beside more GPUs, as they need none.
  const fp8 = request.precision === 'fp8' ? undefined : fewestShape(holding(retry, { set: { precision: 'fp8' } }));
  const fp8Text = fp8 === undefined ? undefined : `FP8 weights (${name(t, 'precision', 'fp8')}): ${shapeText(fp8)} holds them`;
  if (fix !== undefined) return `${countsRemedy(fix.counts, t, request)}${fp8Text === undefined ? '' : `; or try ${fp8Text}`}`;
  // Memory held back (vLLM's --gpu-memory-utilization): all of it may be enough.
  const held = field(request, 'gpuMemoryUtilization');
  const whole = held === undefined || held >= 1 ? undefined : fewestShape(holding(retry, { drop: ['gpuMemoryUtilization'] }));
  if (whole !== undefined) {
    return `to serve it, raise ${name(t, 'gpuMemoryUtilization')}: with all of each GPU's memory, ${shapeText(whole)} holds it`;
  }
  if (fp8Text !== undefined) return `to serve it, try ${fp8Text}`;
  return `to serve it, give GPUs with more memory (${name(t, 'cluster.gpu')})`;
}

/** The widest shape the GPUs given allow runs out of memory: the failures memoryRemedy answers. */
export function outOfMemory(a: Served): boolean {
  const widest = widestShape(a.byShape);
  return widest !== undefined && !widest.ok && widest.reason === 'out-of-memory';
}
