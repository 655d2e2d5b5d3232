import { countOf, formatLoad } from '@trainplan/units';
import type { InferenceEstimate } from './inference-estimate.ts';
import { idleFleetText, type IdleFleet } from './idle-fleet.ts';

/**
 * Tensor parallelism across nodes, tried where within one NVLink domain the first-token bound holds every plan idle
 * (idle-fleet.ts). By default planInference tries tensor-parallel degrees up to the NVLink domain only, since past it the
 * all-reduces of every layer cross the network. But a first-token bound that binds on one prompt's prefill is shortened only by
 * more tensor parallelism: pipeline stages each run their layers of the prompt in turn, so its path through the layers is as
 * long. Serving practice runs Llama 3.1 405B so, as TP 16 over two nodes of 8 (SGLang's multi-node deployment docs, "Run 405B
 * (fp16) on Two Nodes"). QA: 405B at 50 requests/s of 8K prompts within 2 s on H100s took 21,426,400 GPUs 0% loaded as TP 8 · PP 2;
 * with TP 16 tried, 1,408 GPUs serve it 91% loaded.
 */

/** What a search over some tensor degrees answers, as planAcrossNodes reads it: its best plan. */
interface Planned {
  readonly best?: InferenceEstimate;
}

/** The tensor degrees across nodes tried: two NVLink domains' GPUs, unless the request names its degrees or gives fewer GPUs. */
export function tensorsAcrossNodes(nvlinkDomainGpus: number, search: { readonly tensor?: readonly number[]; readonly gpus?: number }): number[] {
  const across = 2 * nvlinkDomainGpus;
  return search.tensor !== undefined || (search.gpus !== undefined && search.gpus < across) ? [] : [across];
}

/**
 * The search again with tensor degrees across nodes beside `tensors` (`plan`), with a warning saying why it spans nodes, where:
 * - its best needs fewer GPUs than the idle fleet's (`idle`: the plan's own measure; then it is one across nodes, as every plan
 *   within them was tried before); its best may still be under LOAD_FLOOR busy, which planInference then says as it says the
 *   idle fleet's;
 * - or, with a rate on `gpus` given and no plan on them within one NVLink domain (`idle` undefined), it has a plan: without
 *   `gpus` the same request reaches TP across nodes through the idle fleet its plan keeps, which then does not fit them (review:
 *   405B at 5 requests/s of 8K prompts within 2 s on 1,024 H100s had no plan, where without `gpus` TP 16 · PP 2 serves on 160).
 * Undefined where none is tried or it does no better.
 */
export function planAcrossNodes<P extends Planned>(
  idle: IdleFleet | undefined, gpus: number | undefined, tensors: readonly number[], across: readonly number[], nvlinkDomainGpus: number,
  plan: (tensors: readonly number[]) => P,
): { readonly plan: P; readonly warning: string } | undefined {
  if (across.length === 0) return undefined;
  const wide = plan([...tensors, ...across]);
  const best = wide.best;
  if (best?.load === undefined || (idle !== undefined && best.load.gpus >= idle.point.load!.gpus)) return undefined;
  const why = idle === undefined ? `no plan meets the bounds at this rate on the ${countOf(gpus ?? 0, 'GPU')} given` : idleFleetText(idle);
  return {
    plan: wide,
    // More pipeline stages do not shorten a prompt's prefill; more tensor parallelism does, its all-reduces crossing the network.
    warning: `within one NVLink domain (TP ≤ ${nvlinkDomainGpus}) ${why}; TP across nodes (a shorter prefill, all-reduces over the network) `
      + `was tried too: TP ${best.shape.tensor} serves the rate on ${countOf(best.load.replicas, 'replica')} (${countOf(best.load.gpus, 'GPU')}), `
      + `${formatLoad(best.load.utilization)} loaded`,
  };
}
