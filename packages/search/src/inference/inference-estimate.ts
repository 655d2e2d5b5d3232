import type { Bytes, Seconds } from '@trainplan/units';
import type { InferenceBatching } from './continuous-batching.ts';
import type { InferenceShape } from './inference-shape.ts';
import type { ServingCost } from './serving-cost.ts';
import type { ServingLoad } from './serving-load.ts';

/** What estimateInference (inference-plan.ts) figures for one shape and batch that is served. */
export interface InferenceEstimate {
  readonly ok: true;
  readonly shape: InferenceShape;
  /** The batching that produced these figures (the shape's, 'static' when it gives none). */
  readonly batching: InferenceBatching;
  /**
   * Time to first token. Static: of one batch, its prompts' forward pass through every stage.
   * Continuous: one prompt's prefill alone plus one running iteration waited out (continuousIteration).
   * Speculating, the draft's prefill of the prompt too (SpeculationFigures.draftPrefillSeconds).
   */
  readonly prefillSeconds: Seconds;
  /**
   * One decode step: the time between two tokens of a sequence, in which every sequence of the batch
   * gets one (a round of the micro-batches through the stages), at the mean context length. With
   * continuous batching, the iteration as one sequence sees it: that round plus the prefill of the other
   * slots' prompts admitted during its decode, (b − 1)/L an iteration (L the iterations a sequence holds its
   * slot, O + c − 1 with prompts in c chunks), not its own prompt's, which is its time to first token
   * (continuousIteration's interTokenSeconds); alone (batch 1), static batching's decode step.
   */
  readonly decodeStepSeconds: Seconds;
  /**
   * Continuous batching: how long a sequence holds its slot, its L iterations (its prompt's c chunks, then its decode
   * steps): the holding time of servingLoad's queue. L mean iterations, each carrying all b/L prompts admitted, as the
   * replica does (b slots each held this long finish b of them in it: Little's law), so over L it is the iteration that
   * tokensPerSecondPerGpu is of, which decodeStepSeconds (a sequence's view, without its own prompt) is under.
   */
  readonly slotSeconds?: Seconds;
  /** With chunked prefill: the most sequences its chunks keep running (chunkBatchLimit), a bound on the batch beside memory's maxBatch. */
  readonly chunkBatchLimit?: number;
  /** Micro-batches in flight in the pipeline: min(PP, batch). */
  readonly microBatches: number;
  readonly weightsBytesPerGpu: Bytes;
  readonly kvCacheBytesPerGpu: Bytes;
  /**
   * The activations of the largest forward pass at this batch (forwardActivationBytes, the draft's too when
   * speculating), which the KV cache leaves room for: over `forwardTokens` tokens at once.
   */
  readonly activationBytesPerGpu: Bytes;
  /**
   * Tokens the largest forward pass takes at once: static, a micro-batch's prompts (m·P); continuous, a
   * micro-batch's decode tokens and the prompts, or chunks, admitted into its iteration (whole ones, at least one).
   */
  readonly forwardTokens: number;
  /**
   * With a shared prefix (continuous batching): the tokens of it cached (whole blocks, cachedPrefixTokens; 0 for
   * a prefix under one block) and their KV cache, held once for every sequence and included in kvCacheBytesPerGpu
   * (the rest is per sequence).
   */
  readonly sharedPrefix?: { readonly cachedTokens: number; readonly kvCacheBytesPerGpu: Bytes };
  readonly totalBytesPerGpu: Bytes;
  readonly capacityBytes: Bytes;
  /** The memory the server may use on each GPU: its capacity times the shape's gpuMemoryUtilization. */
  readonly usableBytes: Bytes;
  /**
   * The most sequences of this prompt + output length that fit next to the weights: their KV cache and the
   * activations of the forward pass over the tokens they prefill at once (activationBytesPerGpu), which grows with the batch too.
   */
  readonly maxBatch: number;
  /**
   * Generated tokens per second per GPU, over the TP × PP GPUs. Continuous batching: the b·O/L tokens an iteration
   * yields (b without chunks; the slots still prefilling their chunks yield none) over the mean iteration, which carries
   * all b/L prompts' prefill (slotSeconds / L), own and others', the GPU doing all of it. Static batching: a batch's b·O tokens over its whole life, the prefill (which
   * yields the first token) and O − 1 decode steps, as gptSessionBenchmark measures it; its steady decode alone
   * (b over a step) would leave out the prefill, which a large batch of long prompts is most of.
   */
  readonly tokensPerSecondPerGpu: number;
  /** Whether the decode step is bound by HBM traffic (true) or by the tensor cores. */
  readonly memoryBound: boolean;
  /** With a request rate (planInference's requestsPerSecond): the replicas it needs of this point and their wait for a slot. */
  readonly load?: ServingLoad;
  /** With a price per GPU-hour (planInference's pricePerGpuHour): what a million generated tokens cost, and with a rate an hour of its GPUs. */
  readonly cost?: ServingCost;
  /** With speculative decoding: its figures (the weights and KV cache above include the draft's). */
  readonly speculation?: SpeculationFigures;
}

export interface SpeculationFigures {
  readonly draftTokens: number;
  readonly acceptanceRate: number;
  /** Tokens a verification step yields on average (tokensPerStep). */
  readonly tokensPerStep: number;
  /** The draft's tensor-parallel degree (draftTensor). */
  readonly draftTensor: number;
  readonly draftWeightsBytesPerGpu: Bytes;
  readonly draftKvCacheBytesPerGpu: Bytes;
  /** One draft decode step of the batch (γ of them a verification step). */
  readonly draftStepSeconds: Seconds;
  /**
   * The draft building its own KV cache over the prompt before it can propose: static, its forward pass over the
   * batch's prompts; continuous, over one prompt's chunks, fused into its decode steps. In prefillSeconds.
   */
  readonly draftPrefillSeconds: Seconds;
}

/**
 * Why a batch is not served: its shape does not split the model ('indivisible'), it does not fit in memory, or its
 * prompts' chunks cannot be prefilled as fast as its sequences finish ('prefill-chunk', chunkBatchLimit).
 */
export type InferenceRefusal = 'indivisible' | 'out-of-memory' | 'prefill-chunk';

export type InferenceAnswer = InferenceEstimate | { readonly ok: false; readonly shape: InferenceShape; readonly reason: InferenceRefusal; readonly message: string };
