import { describe, expect, it } from 'vitest';
import { planInference, type InferenceSearch } from '@trainplan/search';
import { fewestGpus } from '../../src/search/fewest-gpus.ts';
import { retryInference } from '../../src/search/inference-retry.ts';
import { resolveSearch } from '../../src/search/resolve-search.ts';

/**
 * fewestGpus, the one search behind every surface's "fewest GPUs that serve", checked against the planner itself
 * (@trainplan/search's planInference on the machine runInference resolves, with none of the protocol's JSON or the Retry the
 * search asks through): the count it finds has a plan within the request's bounds, and no count below it has one.
 */

/** The planner on a model and GPU, as runInference resolves them for serving (one node, no training switches). */
function planner(model: string, gpu: string) {
  const r = resolveSearch({
    model, cluster: { gpu }, training: { globalBatchSize: 1, dropout: false },
    settings: { scatterGather: false, overlapGradReduce: false, overlapTensorParallelComm: false, overlapPipelineComm: false },
  }, { nodes: 1 });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const base = r.value.base;
  return (search: InferenceSearch) => planInference(base, search);
}

/** A serving request: a 2,048-token prompt and 512 generated tokens, continuous batching, as the bot and the CLI's examples ask. */
interface Ask { readonly model: string; readonly gpu: string; readonly maxDecodeSecondsPerToken?: number; readonly maxPrefillSeconds?: number; readonly batches?: number[] }
const lengths = { promptTokens: 2048, outputTokens: 512, batching: 'continuous' } as const;
const requestOf = ({ model, gpu, ...rest }: Ask) => ({ model, cluster: { gpu }, ...lengths, ...rest });
/** Whether the planner plans `gpus` GPUs within the request's bounds (what makes the CLI exit 0). */
const plannerServes = (ask: Ask, gpus: number): boolean => {
  const { model, gpu, ...bounds } = ask;
  return planner(model, gpu)({ ...lengths, ...bounds, gpus }).best !== undefined;
};

describe('fewestGpus: the count found serves, and one fewer does not, by the planner itself', () => {
  it.each<[string, Ask]>([
    // 70.6B × 2 bytes = 141 GB of BF16 weights: over one H100's 80 GB, so at least 2.
    ['Llama 3 70B on H100s within 200 ms a token and 2 s to the first', { model: 'llama3-70b', gpu: 'h100-sxm', maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 }],
    // 405.9B × 2 bytes = 812 GB: 6 H200s of 141 GB hold it (TP 2 · PP 3) but a token there reads 406 GB a GPU at 4.8 TB/s, 85 ms.
    ['Llama 3.1 405B on H200s within 50 ms a token', { model: 'llama3.1-405b', gpu: 'h200', maxDecodeSecondsPerToken: 0.05 }],
    // One A100 of 80 GB holds Llama 3 8B's 16 GB of weights, but not 512 requests' KV cache beside them.
    ['Llama 3 8B on A100s of 80 GB at a batch of 512 within the bounds', { model: 'llama3-8b', gpu: 'a100-80gb', batches: [512], maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 2 }],
    ['Llama 3.1 405B on H100s, no bounds', { model: 'llama3.1-405b', gpu: 'h100-sxm' }],
  ])('%s', (_, ask) => {
    const request = requestOf(ask);
    const found = fewestGpus(request, retryInference(request));
    const n = found?.serves?.gpus;
    expect(n).toBeDefined();
    expect(plannerServes(ask, n!)).toBe(true);
    expect(plannerServes(ask, n! - 1)).toBe(false);
    // And none below: the fewest, not only a local step.
    for (let k = 1; k < n! - 1; k++) expect(plannerServes(ask, k), `${k} GPUs`).toBe(false);
    // Its plan is within the bounds asked.
    const best = found!.serves!.best;
    if (ask.maxDecodeSecondsPerToken !== undefined) expect(best.decodeStepSeconds).toBeLessThanOrEqual(ask.maxDecodeSecondsPerToken);
    if (ask.maxPrefillSeconds !== undefined) expect(best.prefillSeconds).toBeLessThanOrEqual(ask.maxPrefillSeconds);
    if (ask.batches !== undefined) expect(best.batch).toBe(ask.batches[0]);
  });

  it('where no count meets the bounds, none serves up to the last tried, and the fewest that hold it is the first count the planner fits', () => {
    // TP is at most a node's 8 GPUs, so a 405B token reads at least 812 GB / 8 = 101 GB a GPU: 21 ms at 4.8 TB/s, over 10 ms on any count.
    const ask: Ask = { model: 'llama3.1-405b', gpu: 'h200', maxDecodeSecondsPerToken: 0.01 };
    const request = requestOf(ask);
    const found = fewestGpus(request, retryInference(request))!;
    expect(found.serves).toBeUndefined();
    expect(found.lastTried).toBeGreaterThanOrEqual(found.holds);
    const plan = planner(ask.model, ask.gpu);
    const fits = (gpus: number) => plan({ ...lengths, gpus, batches: [1] }).byShape.some((s) => s.answer.ok);
    expect(fits(found.holds)).toBe(true);
    for (let k = 1; k < found.holds; k++) expect(fits(k), `${k} GPUs`).toBe(false);
    for (let k = found.holds; k <= found.lastTried!; k++) expect(plannerServes(ask, k), `${k} GPUs`).toBe(false);
    // The nearest plan it names misses the bound, on a count that holds it.
    expect(found.nearest!.point.decodeStepSeconds).toBeGreaterThan(0.01);
    expect(fits(found.nearest!.gpus)).toBe(true);
  });

  it('with a rate and no first-token bound, the nearest plan is judged against the default bound the plan applied', () => {
    // 50 requests/s of 131,072-token prompts: no count tried serves. Before, the default 2 s bound was left out of the
    // comparison, every count's miss scored 0, and the first count tried was named: 1 GPU, its first token after 11 s.
    const request = { model: 'llama3-8b', cluster: { gpu: 'h100-sxm' }, promptTokens: 131_072, outputTokens: 256, batching: 'continuous', requestsPerSecond: 50, gpus: 8 };
    const retry = retryInference(request);
    const found = fewestGpus(request, retry)!;
    expect(found.serves).toBeUndefined();
    const nearest = found.nearest!;
    // The plan on the fewest GPUs that hold the model is one of those compared: the nearest misses the 2 s bound no worse.
    const onFewest = retry({ set: { gpus: found.holds } })!.closest!.point;
    expect(onFewest.prefillSeconds).toBeGreaterThan(2);
    expect(nearest.point.prefillSeconds).toBeLessThan(onFewest.prefillSeconds);
    expect(nearest.gpus).toBeGreaterThan(found.holds);
  });
});
