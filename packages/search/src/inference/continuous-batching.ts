import type { Bytes, Seconds } from '@trainplan/units';

/**
 * How a replica batches its sequences. 'static': a batch of b prompts is prefilled together, then
 * decoded together until it finishes. 'continuous': iteration-level scheduling (Orca, Yu et al.,
 * OSDI 2022; vLLM, Kwon et al., SOSP 2023; TensorRT-LLM's in-flight batching): a finished sequence
 * leaves and a waiting prompt joins at every iteration, its prefill piggybacked on the decode
 * (chunked prefill, Sarathi-Serve, Agrawal et al., OSDI 2024).
 */
export type InferenceBatching = 'static' | 'continuous';

/** One decode round of the replica at batch b, as estimateInference costs it. */
export interface DecodeRound {
  /** Micro-batches k = min(PP, b) in flight; a round is each of them crossing every stage once. */
  readonly microBatches: number;
  /** Each stage's decode work on one micro-batch (its layers, and the logits on the last stage). */
  readonly stageSeconds: readonly Seconds[];
  /** Activations one micro-batch's decode sends from a stage to the next (2·m·h). */
  readonly activationBytes: Bytes;
}

/** One prompt's prefill on the replica, alone (a micro-batch of one sequence). */
export interface PromptPrefill {
  /** A layer's forward pass over one prompt, tensor-parallel all-reduces included (layerProfile at micro-batch 1). */
  readonly layerForwardSeconds: Seconds;
  /** Layers on each pipeline stage. */
  readonly layersPerStage: readonly number[];
  /** Activations of the prompt one stage sends to the next (2·P·h). */
  readonly activationBytes: Bytes;
}

export interface ContinuousIteration {
  /** One iteration: every running sequence gets a token and b/O prompts are prefilled (the time per output token). */
  readonly iterationSeconds: Seconds;
  /** One prompt's prefill alone through every stage, with the pipeline sends. */
  readonly promptSeconds: Seconds;
  /** Time to first token: a running iteration waited out, then the prompt's own prefill. */
  readonly firstTokenSeconds: Seconds;
}

/**
 * Continuous batching in steady state with b sequences of O output tokens each: an iteration decodes one
 * token for each of the b sequences, b/O of them finish (each lives O iterations), and as many new
 * prompts are admitted and prefilled inside it (Orca's iteration-level scheduling, Yu et al. 2022;
 * Sarathi-Serve's chunked prefill piggybacked on the decode batch, Agrawal et al. 2024).
 *
 * The prefill work adds to the decode round rather than fusing with it (Sarathi fuses the prompt chunk
 * into the decode GEMMs, so the weights are read once for both): an upper bound on the iteration.
 * PP = 1: T_iter = decode step + (b/O) × one prompt's prefill. PP = p > 1, an approximation: the b/O
 * prompts ride in the k micro-batches, (b/O)/k each, so each micro-batch's traversal grows by (b/O)/k
 * prompts' layers (and sends their activations along with its own), and stage i is busy k × its
 * decode work plus (b/O) × its layers' forward over one prompt; the iteration is the larger of the
 * traversal and the busiest stage, as the decode round is (estimateInference).
 *
 * The time to first token is one running iteration (a prompt arriving waits up to one before it is
 * admitted) plus the prompt's prefill alone, as an engine that admits a waiting prompt whole at the
 * next iteration boundary (vLLM's scheduler without chunked prefill runs waiting prompts first). It
 * ignores queueing at saturation (prompts arriving faster than b/O per iteration wait longer) and a
 * small chunk budget spreading one prompt over several iterations.
 */
export function continuousIteration(options: {
  readonly round: DecodeRound;
  readonly prompt: PromptPrefill;
  readonly batch: number;
  readonly outputTokens: number;
  /** Seconds to send these bytes through the pipeline, all p − 1 stage boundaries (0 without PP). */
  readonly sendSeconds: (bytes: Bytes) => Seconds;
}): ContinuousIteration {
  const { round, prompt, batch, outputTokens, sendSeconds } = options;
  const k = round.microBatches;
  // Prompts admitted per iteration: each sequence lives O iterations, so b/O leave and join per iteration.
  const admitted = batch / outputTokens;
  const promptLayers = (layers: number) => layers * prompt.layerForwardSeconds;
  const allLayers = prompt.layersPerStage.reduce((a, l) => a + l, 0);
  const decodeWork = round.stageSeconds.reduce((a, s) => a + s, 0);
  const traversal = decodeWork + (admitted / k) * promptLayers(allLayers) + sendSeconds(round.activationBytes + (admitted / k) * prompt.activationBytes);
  const busiestStage = Math.max(...round.stageSeconds.map((s, i) => k * s + admitted * promptLayers(prompt.layersPerStage[i]!)));
  const iterationSeconds = Math.max(traversal, busiestStage);
  const promptSeconds = promptLayers(allLayers) + sendSeconds(prompt.activationBytes);
  return { iterationSeconds, promptSeconds, firstTokenSeconds: promptSeconds + iterationSeconds };
}
