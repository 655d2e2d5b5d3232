import { fewestServingGpus, retryInference, runInference, type InferencePointJson } from '@trainplan/protocol';
import { countOf, formatGrouped } from '@trainplan/units';
import type { AskParameters } from '../question.ts';
import { gpuName } from './describe-estimate.ts';
import { isLoaded, takesText } from './serving-load.ts';
import { missedText, planHeadline } from './serving-plan-text.ts';
import { requestOf, type Batching, type Served } from './serving-request.ts';
import { latencyText, shapeText } from './serving-text.ts';

/** Where the count the closest plan is on comes from, said with it. */
const CLI_COUNT = "the count the CLI's inference names";

/** What works where the GPUs named hold no replica: a plan, the GPUs it is said on, and the fewest GPUs it is said beside. */
interface Working {
  /** The plan said (on `on` GPUs): the one on the fewest that serve, or where none serves the nearest to the bounds. */
  readonly point: InferencePointJson;
  readonly on: number;
  /** The fewest GPUs that serve (`serves`), or where none does the fewest that hold it; `named` where the CLI's remedy names that count. */
  readonly fewest: number;
  readonly serves: boolean;
  readonly named: boolean;
}

/**
 * What works where the GPUs named hold no replica, from the protocol's fewestServingGpus, the search the CLI's remedy (`trainplan
 * inference … --gpus N` on stderr) names its counts from: the plan on the fewest GPUs that serve (each count from the fewest that
 * hold the model asked in turn, any pipeline depth up to 16, so 12 H100s as TP 4 · PP 3 for Llama 3.1 405B, not only powers of
 * two). Where no count meets the latency bounds, the plan nearest to them over the counts tried, said beside the fewest that
 * hold it, as the remedy says both ("give at least --gpus 6, the fewest that hold it; … the nearest is on 8 GPUs"). Undefined
 * where no count holds it.
 */
export function working(result: Served, request: Record<string, unknown>): Working | undefined {
  const found = fewestServingGpus(request, retryInference(request), result);
  if (found === undefined) return undefined;
  if (found.serves !== undefined) {
    const { gpus, best } = found.serves;
    return { point: best, on: gpus, fewest: gpus, serves: true, named: found.named === gpus };
  }
  const near = found.nearest;
  return { point: near?.point ?? found.shape.largestBatch, on: near?.gpus ?? found.holds, fewest: found.holds, serves: false, named: found.named === found.holds };
}

/**
 * "Closest that works: 12 GPUs (TP 4 · PP 3), the fewest that serve within the bounds (the count the CLI's inference names), hold
 * it, with up to 147 requests at a time; …": the plan that works, its batch against the bounds, and the fewest GPUs beside it.
 */
export function workingNote(w: Working, p: AskParameters, batching: Batching, bounds: string | undefined): string {
  const x = w.point;
  const fewest = `${w.serves ? `the fewest that serve${bounds === undefined ? '' : ' within the bounds'}` : 'the fewest that hold it'}${w.named ? ` (${CLI_COUNT})` : ''}`;
  const beside = w.fewest === x.gpus;
  return `Closest that works: ${countOf(x.gpus, 'GPU')} (${shapeText(x)})${beside ? `, ${fewest},` : ''} hold it, with up to ${countOf(x.maxBatch, 'request')} at a time`
    + `${withinBounds(x, p) ? (x.batch < x.maxBatch ? `; ${countOf(x.batch, 'request')} at a time keep ${bounds ?? 'the latency bounds'}` : '')
      : `; even one at a time misses ${bounds ?? 'the latency bounds'} (${oneAtATimeText(x, p, batching)})`}`
    + `${beside ? '' : `; ${countOf(w.fewest, 'GPU')} ${w.fewest === 1 ? 'is' : 'are'} ${fewest}`}`
    + `${isLoaded(x) ? `; ${takesText(x)}` : ''}.`;
}

/**
 * Where the weights asked for do not fit on the GPUs named, whether FP8 weights (1 byte a layer parameter, about half of BF16's: how
 * Meta released Llama 3.1 405B for one 8-GPU node, and how TensorRT-LLM and vLLM serve FP8 checkpoints) would, as the CLI's
 * inference names in its remedy ("or try FP8 weights (--precision fp8): TP 1 · PP 1 (1 GPU) holds them"). The same request
 * is asked again in FP8 through the protocol's retryInference, the Retry that remedy checks FP8 with: it refuses FP8 on a GPU
 * without FP8 tensor cores (an A100), so none is offered there, and none where FP8 was asked. Said in the headline as the
 * plan an "in fp8" question gets (QA: a "single H100 for inference" answer said only the 2 GPUs of BF16, the FP8 fit left
 * to a last note); undefined where FP8 holds no replica on those GPUs either.
 */
export function fp8Remedy(p: AskParameters, request: Record<string, unknown>, gpus: number | undefined, bounds: string | undefined): string | undefined {
  if (request.precision === 'fp8') return undefined;
  const fp8 = retryInference(request)({ set: { precision: 'fp8' } });
  if (fp8 === undefined || fp8.unservable !== undefined) return undefined;
  const on = gpus === undefined ? '' : ` on ${formatGrouped(gpus)} × ${gpuName(p.gpu ?? '')}`;
  const ask = '; ask again "in fp8" for its plan';
  if (fp8.best !== undefined) return `in FP8 weights it fits${on}: ${planHeadline(fp8.best, gpus)}${ask}`;
  // A replica holds FP8 weights but no plan keeps the latency bounds: the one closest to them, said as missing them.
  const closest = fp8.closest?.point;
  return closest === undefined ? undefined
    : `in FP8 weights it fits${on} (${shapeText(closest)} holds up to ${countOf(closest.maxBatch, 'request')} at a time), but ${missedText(bounds, p, gpus)}${ask}`;
}

/**
 * "51.6 ms per token, first token in 523 ms": what one request alone sees on a replica's shape and GPUs, from
 * runInference again at batch 1 (as the CLI's remedy finds its closest plan), not the replica's largest batch, whose
 * step decodes hundreds of requests at once (Llama 3.1 405B as TP 8 · PP 2 on 16 H100: 287 ms at 434, 51.6 ms at 1).
 * The bounds and rate are dropped so the point is planned even though it misses them; the replica's own figures are
 * said where that run plans nothing.
 */
function oneAtATimeText(x: InferencePointJson, p: AskParameters, batching: Batching): string {
  const single = { ...p, tensor: x.tensor, pipeline: x.pipeline, concurrency: 1, maxTokenSeconds: undefined, maxFirstTokenSeconds: undefined, requestsPerSecond: undefined };
  const again = runInference(requestOf(single, x.gpus, batching));
  const one = again.ok && again.best?.batch === 1 ? again.best : x;
  return `${latencyText(one)}${one === x ? ` at ${countOf(x.batch, 'request')}` : ''}`;
}

/** Whether a point keeps the question's latency bounds (a bound not asked is kept). */
const withinBounds = (x: InferencePointJson, p: AskParameters): boolean =>
  (p.maxTokenSeconds === undefined || x.decodeStepSeconds <= p.maxTokenSeconds)
  && (p.maxFirstTokenSeconds === undefined || x.prefillSeconds <= p.maxFirstTokenSeconds);
