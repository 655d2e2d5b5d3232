/** The inference answer's JSON: its points, its shapes, and building them from the search's estimates. */
import type { InferenceAnswer, InferenceBatching, InferenceEstimate } from '@trainplan/search';
import { issuesMessage } from '../problem.ts';
import type { FieldIssue } from '../wire.ts';

export interface InferencePointJson {
  tensor: number; pipeline: number; batch: number; gpus: number;
  /** The batching the figures are for (absent from answers older than it: static). */
  batching?: InferenceBatching;
  /** Continuous batching's prefill chunk, when the request gives one. */
  prefillChunkTokens?: number;
  /** Continuous batching's shared, cached prompt prefix, when the request gives one. */
  sharedPrefixTokens?: number;
  /** The KV cache's number format, when the request gives one. */
  kvCachePrecision?: 'fp16' | 'bf16' | 'fp8';
  /**
   * With sharedPrefixTokens: the prefix tokens actually cached (whole 16-token blocks of the prompt's first promptTokens − 1, as vLLM v1 looks them up) and
   * their KV cache per GPU, held once for all sequences and included in kvCacheBytesPerGpu (the rest is per sequence).
   */
  cachedPrefixTokens?: number;
  sharedKvCacheBytesPerGpu?: number;
  /** Replicas of this shape on the request's gpus: gpus / (tensor × pipeline); only when the request gives gpus. */
  replicas?: number;
  /** The memory the server may use per GPU, capacityBytes × the request's gpuMemoryUtilization; only when the request gives one. */
  usableBytesPerGpu?: number;
  /** With speculative decoding: γ, α, the tokens a step yields, the draft's TP, memory per GPU and step (weights and KV above include the draft's). */
  speculation?: {
    draftTokens: number; acceptanceRate: number; tokensPerStep: number; draftTensor: number;
    draftWeightsBytesPerGpu: number; draftKvCacheBytesPerGpu: number; draftStepSeconds: number;
    /** The draft's prefill of the prompt (static: of the batch's prompts), in prefillSeconds; absent from answers older than it. */
    draftPrefillSeconds?: number;
  };
  /**
   * The activations of the largest forward pass at this batch per GPU, in totalBytesPerGpu, and the tokens it takes at once (static: a
   * micro-batch's prompts; continuous: an iteration's decode tokens and admitted prompts or chunks); absent from answers older than them.
   */
  activationBytesPerGpu?: number;
  forwardTokens?: number;
  /** With a prefill chunk: the most sequences its chunks keep running, which bounds the batch beside maxBatch (memory's). */
  chunkBatchLimit?: number;
  /** With requestsPerSecond: the replicas the rate needs of this point, their GPUs and utilization, the wait for a slot and the first token with it. */
  load?: { requestsPerSecond: number; replicas: number; gpus: number; utilization: number; queueSeconds: number; firstTokenSeconds: number };
  /** With pricePerGpuHour, in its currency: a million generated tokens, and with requestsPerSecond an hour of the GPUs the rate needs. */
  cost?: { perMillionOutputTokens: number; perHour?: number };
  prefillSeconds: number; decodeStepSeconds: number; tokensPerSecondPerGpu: number;
  weightsBytesPerGpu: number; kvCacheBytesPerGpu: number; totalBytesPerGpu: number; capacityBytes: number; maxBatch: number; memoryBound: boolean;
}
export type InferenceResponseJson =
  | {
    ok: true; promptTokens: number; outputTokens: number; best?: InferencePointJson; frontier: InferencePointJson[];
    byShape: ({ tensor: number; pipeline: number } & ({ ok: true; largestBatch: InferencePointJson } | { ok: false; reason: string; message: string }))[];
    closest?: { why: string; point: InferencePointJson };
    /** When no shape tried can serve the model at all (memory, divisibility, or none divides gpus): why. */
    unservable?: string;
    /**
     * Where there is no plan (`unservable` for memory, or `closest`): what to change to get one, each change it names checked by
     * asking again where it can be (runInferenceWithRemedy; runInference alone leaves it out). Absent from answers older than it.
     */
    remedy?: InferenceRemedyJson;
    /**
     * With a rate: where `best` meets the first-token bound only with its replicas kept under loadFloor busy, the prompt's prefill
     * leaving too little of the bound for the wait for a slot (inference-idle-fleet.ts). Absent from answers older than it.
     */
    idleFleet?: IdleFleetJson;
    /** Caveats about the request, e.g. a context longer than the model's sequence length. */
    warnings?: string[];
  }
  | { ok: false; reason: 'invalid'; message: string; issues: FieldIssue[] };

/** Why the best plan's fleet is idle, and the bound and changes that serve the rate at a real load (inference-idle-fleet.ts). */
export interface IdleFleetJson {
  /** In words, the answer's first warning too: the prefill's share of the bound, the wait left, the load, and the bound loosened. */
  why: string;
  /** The first-token bound applied (the request's, or with a rate and none given, rateFirstTokenBound's). */
  maxPrefillSeconds: number;
  /** The best plan's first token without a queue, and the bound less it: all the wait for a slot it may have. */
  prefillSeconds: number;
  waitBudgetSeconds: number;
  /** How long a request holds its slot, the wait's scale. */
  slotSeconds: number;
  /** The load under which the bound, not the rate, sizes the fleet (0.5). */
  loadFloor: number;
  /** Of the points tried, the one whose first token is soonest with its replicas at least loadFloor busy: that first token, its replicas and GPUs. */
  atLoadFloor: { firstTokenSeconds: number; replicas: number; gpus: number; point: InferencePointJson };
  /** That first token rounded up to three figures, the bound loosened, and the best plan when asked again with it, where it has one. */
  loosened: { maxPrefillSeconds: number; best?: InferencePointJson };
  /** What to change to serve the rate at a real load, each change checked by asking again where it can be (runInferenceWithRemedy only). */
  remedy?: InferenceRemedyJson;
}

/** A request field a remedy names, with the value it gives it where it gives one ("gpus" 22; "cluster.gpu" alone: another GPU). */
export interface RemedyFieldJson {
  field: string;
  value?: number | string;
}

/** What to change for a plan where an inference answer has none (inference-remedy.ts). */
export interface InferenceRemedyJson {
  /** In the request's field names: "to serve it, give gpus 22, the fewest that serve: a replica of TP 2 · PP 11 (22 GPUs) holds it". */
  message: string;
  /** The request fields the message names, in its order: the changes it offers, which may be alternatives to one another. */
  fields: RemedyFieldJson[];
  /** The message with each field as {i} (fields[i]; {i+j}: two given together), for a surface writing them in its own terms. */
  template: string;
}

/** One estimate as the wire's point; `replicas` when the request gives its GPUs. */
export const point = (e: InferenceEstimate, gpus: number | undefined): InferencePointJson => ({
  tensor: e.shape.tensor, pipeline: e.shape.pipeline, batch: e.shape.batch, gpus: e.shape.tensor * e.shape.pipeline, batching: e.batching,
  ...(e.shape.prefillChunkTokens !== undefined && { prefillChunkTokens: e.shape.prefillChunkTokens }),
  ...(e.shape.sharedPrefixTokens !== undefined && { sharedPrefixTokens: e.shape.sharedPrefixTokens }),
  ...(e.sharedPrefix !== undefined && { cachedPrefixTokens: e.sharedPrefix.cachedTokens, sharedKvCacheBytesPerGpu: e.sharedPrefix.kvCacheBytesPerGpu }),
  ...(e.shape.kvCachePrecision !== undefined && { kvCachePrecision: e.shape.kvCachePrecision }),
  ...(gpus !== undefined && { replicas: gpus / (e.shape.tensor * e.shape.pipeline) }),
  prefillSeconds: e.prefillSeconds, decodeStepSeconds: e.decodeStepSeconds, tokensPerSecondPerGpu: e.tokensPerSecondPerGpu,
  weightsBytesPerGpu: e.weightsBytesPerGpu, kvCacheBytesPerGpu: e.kvCacheBytesPerGpu, activationBytesPerGpu: e.activationBytesPerGpu, forwardTokens: e.forwardTokens,
  totalBytesPerGpu: e.totalBytesPerGpu,
  capacityBytes: e.capacityBytes, maxBatch: e.maxBatch, memoryBound: e.memoryBound,
  ...(e.chunkBatchLimit !== undefined && { chunkBatchLimit: e.chunkBatchLimit }),
  ...(e.shape.gpuMemoryUtilization !== undefined && { usableBytesPerGpu: e.usableBytes }),
  ...(e.load !== undefined && { load: { ...e.load } }),
  ...(e.speculation !== undefined && { speculation: { ...e.speculation } }),
  ...(e.cost !== undefined && { cost: { ...e.cost } }),
});

/** One shape's entry of byShape: its largest batch, or why it cannot serve. */
export const shapeJson = (tensor: number, pipeline: number, a: InferenceAnswer, gpus: number | undefined) => (a.ok
  ? { tensor, pipeline, ok: true as const, largestBatch: point(a, gpus) }
  : { tensor, pipeline, ok: false as const, reason: a.reason, message: a.message });

export const invalid = (issues: FieldIssue[]): InferenceResponseJson => ({ ok: false, reason: 'invalid', message: issuesMessage(issues), issues });

