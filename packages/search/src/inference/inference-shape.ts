import type { TrainingPrecision } from '@trainplan/planner';
import type { SearchBase } from '../candidate.ts';
import type { InferenceBatching } from './continuous-batching.ts';
import type { Speculation } from './speculative.ts';

/** What the inference planner needs: the training base minus the batch (precision is the weights' and KV cache's). */
export type InferenceBase = Omit<SearchBase, 'globalBatchSize' | 'tokens'>;

export interface InferenceShape {
  readonly tensor: number;
  readonly pipeline: number;
  /**
   * Concurrent sequences the replica decodes, all held in its KV cache. With pipeline parallelism they
   * are split into min(PP, batch) micro-batches in flight, one per stage.
   */
  readonly batch: number;
  readonly promptTokens: number;
  readonly outputTokens: number;
  /** 'static' (the default): the batch is prefilled together, then decoded; 'continuous': see continuousIteration. */
  readonly batching?: InferenceBatching;
  /**
   * Continuous batching only: the most prompt tokens one iteration prefills (chunked prefill, Sarathi-Serve;
   * vLLM's max_num_batched_tokens less the running decodes). Without it a prompt is prefilled whole in one
   * iteration (TensorRT-LLM's default).
   */
  readonly prefillChunkTokens?: number;
  /**
   * The fraction of each GPU's memory the server may fill with weights, runtime buffers and KV cache
   * (vLLM's gpu_memory_utilization, 0.9 by default there; SGLang's mem_fraction_static): the rest is
   * headroom the engine never allocates. Without it, all of the GPU's memory (1).
   */
  readonly gpuMemoryUtilization?: number;
  /**
   * Continuous batching only: the tokens every prompt opens with, the same for all (a system prompt), which
   * a prefix-caching engine keeps once and does not prefill again (prefix-cache.ts). Without it, none.
   */
  readonly sharedPrefixTokens?: number;
  /**
   * The KV cache's number format when it is not the weights' (vLLM's kv_cache_dtype "fp8", TensorRT-LLM's FP8
   * KV cache on 16-bit weights, or 16-bit KV beside FP8 weights): its bytes a value, in memory and in each
   * decode step's reads, as an attention kernel that loads FP8 and dequantizes in registers does (TensorRT-LLM's
   * XQA, FlashInfer; vLLM's quantized-KV docs state its FP8 cache gains capacity but not yet latency). Attention
   * still computes in 16 bits. Without it, the weights' precision.
   */
  readonly kvCachePrecision?: TrainingPrecision;
  /** Speculative decoding with a draft model (speculative.ts); one pipeline stage only. Without it, none. */
  readonly speculative?: Speculation;
}
