import { ceilFigures, widestShape, type InferencePointJson, type InferenceRequest, type InferenceResponseJson } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import { countOf, formatGrouped, formatNumber, formatPercent, formatSeconds, toMs } from '@trainplan/units';

type Served = Extract<InferenceResponseJson, { ok: true }>;

/** What of the request the remedies read: its bounds, rate and GPUs, and what it already does (precision, memory share, a draft). */
export type RemedyRequest = Pick<InferenceRequest,
  'maxDecodeSecondsPerToken' | 'maxPrefillSeconds' | 'requestsPerSecond' | 'gpus' | 'precision' | 'gpuMemoryUtilization' | 'speculative'
> & { readonly cluster: { readonly gpu: string } };

/** Whether the request's GPU runs FP8 (Hopper and Blackwell): the protocol refuses FP8 weights elsewhere. */
const runsFp8 = (r: RemedyRequest): boolean => gpuById(r.cluster.gpu)?.peakFlops.fp8 !== undefined;

/**
 * What would let the closest plan meet the bounds it misses: each bound raised to the closest plan's own figure
 * (rounded up, so the plan then meets it), and with a rate, the GPUs its replicas take. The figure is rounded up to three
 * significant figures as the protocol rounds its own remedies' bounds (ceilFigures: a bound typed as shown must still
 * admit it, a plan taking 12.43 ms per token meets 12.5, not 12.4), the bound per token in the field's ms.
 */
function boundRemedies(p: InferencePointJson, r: RemedyRequest): string[] {
  const out: string[] = [];
  const token = r.maxDecodeSecondsPerToken;
  if (token !== undefined && p.decodeStepSeconds > token) {
    out.push(`a bound per token of ${formatNumber(ceilFigures(toMs(p.decodeStepSeconds)))} ms or more: the closest plan decodes a token in ${formatSeconds(p.decodeStepSeconds)}`);
  }
  const first = r.maxPrefillSeconds;
  if (first !== undefined && r.requestsPerSecond === undefined && p.prefillSeconds > first) {
    out.push(`a first-token bound of ${formatNumber(ceilFigures(p.prefillSeconds))} s or more: the closest plan's first token comes after ${formatSeconds(p.prefillSeconds)}`);
  }
  // With a rate, a point has no load when no count of replicas meets the first-token bound: its prefill alone reaches it.
  if (first !== undefined && r.requestsPerSecond !== undefined && p.load === undefined && p.prefillSeconds >= first) {
    out.push(`a first-token bound above ${formatSeconds(p.prefillSeconds)}: the closest plan's prefill alone takes that, and the wait for a slot comes on top`);
  }
  const load = p.load;
  if (load !== undefined && r.gpus !== undefined && load.gpus > r.gpus) {
    out.push(`${countOf(load.gpus, 'GPU')} or more (${formatGrouped(r.gpus)} given): ${formatGrouped(load.requestsPerSecond)} requests/s take `
      + `${countOf(load.replicas, 'replica')} of the closest plan; or a lower rate`);
  }
  return out;
}

/** When the closest plan misses the bound per token while its decoding is memory-bound (reading the weights, not computing). */
function decodeRemedies(p: InferencePointJson, r: RemedyRequest): string[] {
  const token = r.maxDecodeSecondsPerToken;
  if (token === undefined || p.decodeStepSeconds <= token || !p.memoryBound) return [];
  return [
    ...(r.precision !== 'fp8' && runsFp8(r) ? ['FP8 weights (precision fp8): the closest plan decodes memory-bound, and FP8 weights are half the bytes each token reads'] : []),
    // Leviathan et al. 2023: a memory-bound step checks several drafted tokens for about the time of one.
    ...(r.speculative === undefined ? ['speculative decoding with a draft model of the same family: it pays while decoding is memory-bound, as the closest plan\'s is'] : []),
  ];
}

/** When no shape holds the model and every one tried runs out of memory: more GPUs per replica, more of each GPU, smaller weights. */
function memoryRemedies(a: Served, r: RemedyRequest): string[] {
  const widest = widestShape(a.byShape);
  if (widest === undefined || !a.byShape.every((s) => !s.ok && s.reason === 'out-of-memory')) return [];
  const gpus = widest.tensor * widest.pipeline;
  const more = r.gpus === undefined ? `give a GPU count above ${formatGrouped(gpus)}` : `more GPUs than the ${formatGrouped(r.gpus)} given`;
  const share = r.gpuMemoryUtilization;
  return [
    `more GPUs per replica than the widest tried, TP ${widest.tensor} · PP ${widest.pipeline} (${countOf(gpus, 'GPU')}), which runs out of memory: ${more}`,
    ...(share !== undefined && share < 1 ? [`let the server use all of each GPU's memory, not ${formatPercent(share, 0)} of it`] : []),
    ...(r.precision !== 'fp8' && runsFp8(r) ? ['FP8 weights (precision fp8): half the memory of 16-bit weights'] : []),
  ];
}

/**
 * The ways out of an answer that serves nothing, each read from the answer (the closest plan's figures, the shapes'
 * reasons) and the request (its bounds, GPUs and what it already does): none when a plan serves.
 */
export function servingRemedies(a: Served, r: RemedyRequest): string[] {
  if (a.best !== undefined) return [];
  if (a.unservable !== undefined) return memoryRemedies(a, r);
  const p = a.closest?.point;
  return p === undefined ? [] : [...boundRemedies(p, r), ...decodeRemedies(p, r)];
}
