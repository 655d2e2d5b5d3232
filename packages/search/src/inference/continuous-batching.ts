import type { Bytes, Seconds } from '@trainplan/units';
import { slotIterations } from './chunk-batch-limit.ts';
import { KV_BLOCK_TOKENS } from './kv-block.ts';
import type { PromptChunk } from './prompt-chunks.ts';

/**
 * How a replica batches its sequences. 'static': a batch of b prompts is prefilled together, then
 * decoded together until it finishes. 'continuous': iteration-level scheduling (Orca, Yu et al.,
 * OSDI 2022; vLLM, Kwon et al., SOSP 2023; TensorRT-LLM's in-flight batching): a finished sequence
 * leaves and a waiting prompt joins at every iteration, its prefill fused into the running decode,
 * whole or in chunks (Sarathi-Serve, Agrawal et al., OSDI 2024), with a paged KV cache.
 */
export type InferenceBatching = 'static' | 'continuous';

/** One layer's decode of one micro-batch, as a roofline (estimateInference). */
export interface DecodeLayer {
  /** The layer's weights and the micro-batch's KV cache over the sustained HBM bandwidth. */
  readonly memorySeconds: Seconds;
  /** The micro-batch's FLOPs over the sustained tensor-core peak. */
  readonly computeSeconds: Seconds;
  /** What neither overlaps: kernel overheads and the tensor-parallel all-reduces. */
  readonly fixedSeconds: Seconds;
}

/** One decode round of the replica at batch b, as estimateInference costs it. */
export interface DecodeRound {
  /** Micro-batches k = min(PP, b) in flight; a round is each of them crossing every stage once. */
  readonly microBatches: number;
  readonly layer: DecodeLayer;
  /** Layers on each pipeline stage. */
  readonly layersPerStage: readonly number[];
  /** The output layer's decode of one micro-batch, on the last stage. */
  readonly logitsSeconds: Seconds;
  /** Activations one micro-batch's decode sends from a stage to the next (2·m·h). */
  readonly activationBytes: Bytes;
}

/** One prompt's prefill on the replica, alone (a micro-batch of one sequence), per layer. */
export interface PromptPrefill {
  /**
   * The layer's GEMMs over `prompts` prompts' new tokens run together (their tensor-core time alone, quantised on their
   * rows together: an iteration's prompts are one batch of rows) and `attentionPrompts` prompts' attention cores
   * (`prompts` unless given): tensor-core work. A fraction of one prompt is a chunk of it.
   */
  readonly layerTensorCoreSeconds: (prompts: number, attentionPrompts?: number) => Seconds;
  /**
   * The rest of the layer's forward over `prompts` prompts' new tokens run together: element-wise traffic and one
   * all-reduce's bytes, beyond the launches and latencies the decode pays. A fraction of one prompt is a chunk of it.
   */
  readonly layerOtherSeconds: (prompts: number) => Seconds;
  /** Activations of the prompt's new tokens one stage sends to the next (2·P·h, less a cached prefix). */
  readonly activationBytes: Bytes;
  /**
   * The iterations one prompt's prefill is spread over, in order (promptChunkTokens): ⌈P / chunk⌉ with chunked prefill
   * (Sarathi-Serve's chunk; vLLM's max_num_batched_tokens less the running decodes), full chunks and the rest; one
   * when a prompt is prefilled whole in one iteration (TensorRT-LLM's default, enable_chunked_context off; vLLM's V0 scheduler).
   */
  readonly chunks: readonly PromptChunk[];
}

export interface ContinuousIteration {
  /**
   * The mean iteration, all the replica's work: every decoding sequence gets a token and b/L prompts are prefilled. Its
   * throughput is the tokens of an iteration over it, and a slot is held L of them (Little's law: b/L leave per iteration).
   */
  readonly iterationSeconds: Seconds;
  /**
   * The time per output token one sequence sees, between two of its tokens: the mean iteration with the prompts of the
   * other b − 1 slots admitted during its decode, (b − 1)/L an iteration, not its own, whose prefill is its time to first
   * token (firstTokenSeconds). Alone (b = 1) nothing else is admitted: the decode round, as static batching's step.
   */
  readonly interTokenSeconds: Seconds;
  /** L: iterations a sequence holds its slot, O + c − 1 (slotIterations); O unchunked. */
  readonly slotIterations: number;
  /** The iterations that prefill one prompt's chunks (one, unchunked), each fused with its micro-batch's decode, through every stage. */
  readonly carryingSeconds: Seconds;
  /** Time to first token: a running iteration waited out (none when the sequence runs alone), then the carrying one. */
  readonly firstTokenSeconds: Seconds;
}

/** Prefill work one micro-batch's layer carries besides its decode: tensor-core work, and the rest. */
export interface LayerPrefill {
  readonly tensorCoreSeconds: Seconds;
  readonly otherSeconds: Seconds;
}

/** A decode round's layers carry no prefill (static batching). */
export const NO_PREFILL: LayerPrefill = { tensorCoreSeconds: 0, otherSeconds: 0 };

/**
 * One layer of one micro-batch with `prefill` fused into the same kernels (Sarathi-Serve's decode-maximal
 * batching, Agrawal et al. 2024 §4; vLLM's chunked prefill runs prompt and decode tokens as one flattened
 * batch): the GEMMs read the weights once for both, so the prompt's tensor-core work fills the tensor
 * cores the memory-bound decode leaves idle while its weights stream in, a roofline (Williams et al.
 * 2009) over the sum: max(memory, decode FLOPs + prefill's). The prefill's element-wise kernels and
 * all-reduces add. With no prefill it is the decode layer's roofline plus its overheads.
 */
export function fusedLayerSeconds(layer: DecodeLayer, prefill: LayerPrefill): Seconds {
  return Math.max(layer.memorySeconds, layer.computeSeconds + prefill.tensorCoreSeconds) + layer.fixedSeconds + prefill.otherSeconds;
}

/** Each stage's time on one micro-batch whose layers carry `prefill`: its layers, and the logits on the last. */
export function stageSeconds(round: DecodeRound, prefill: LayerPrefill = NO_PREFILL): Seconds[] {
  const layer = fusedLayerSeconds(round.layer, prefill);
  const last = round.layersPerStage.length - 1;
  return round.layersPerStage.map((l, i) => l * layer + (i === last ? round.logitsSeconds : 0));
}

/**
 * Continuous batching in steady state with b slots and O output tokens a sequence: a sequence holds its
 * slot L = O + c − 1 iterations (slotIterations: its c prefill chunks, the last yielding its first token, then
 * O − 1 decode steps; O unchunked), so b/L of them finish each iteration and as many new prompts are admitted
 * and prefilled (Orca's iteration-level scheduling, Yu et al. 2022), their prefill fused into the iteration's
 * kernels (fusedLayerSeconds). The b·(c − 1)/L slots still prefilling yield no token: the batch's tokens an
 * iteration are b·O/L (estimateInference's throughput). The decode round is still costed for all b slots (m =
 * ⌈b/k⌉): a prefilling slot's charge stands for what the prompt's cost leaves out, each chunk's attention
 * re-reading the KV cache of the chunks before it (P'/2 tokens an iteration on average, against the decode's
 * P + O/2), an overcharge of under one sequence's KV read a micro-batch (at the chunk's limit, chunkBatchLimit,
 * fewer than k slots are prefilling), which matters only where the batch is a few sequences a micro-batch.
 *
 * The b/L prompts ride in the k micro-batches, a = (b/L)/k each, as c chunks apiece (promptChunkTokens: full chunks and
 * the rest). While a·c ≤ 1 a micro-batch's iteration carries at most one chunk: each chunk of a prompt in a fraction
 * a of the iterations, the rest only decoding. Only an iteration that carries prefill hides some under its weight
 * reads, so spreading a prompt over more iterations hides more of it: Sarathi-Serve's chunked prefill (Agrawal et al.
 * 2024), against a whole prompt in one iteration (c = 1), which hides at most one iteration's idle tensor cores per
 * prompt. Past one chunk an iteration the budget is packed (a prompt's last chunk shares its iteration with the next
 * one's first), up to every iteration a full chunk at chunkBatchLimit's batch (estimateInference refuses a larger
 * one); whole prompts (c = 1), several an iteration, are one batch of rows, their mean. The mean
 * iteration is the larger of a micro-batch's traversal (with its share of the prompts' activations sent along)
 * and k times the busiest stage, as the decode round is (estimateInference).
 *
 * The GPU does all b/L prompts' work (iterationSeconds, the throughput's), but a sequence's own prompt is prefilled
 * before its first token, in the iterations that carry it, not between its tokens: what stalls its decode is the
 * prompts of the other b − 1 slots, each admitted once while it holds its slot (Orca admits a request at any
 * iteration, Yu et al. 2022; vLLM schedules waiting prompts into the running batch; Sarathi-Serve's "generation
 * stalls", Agrawal et al. 2024, are running decodes held up by other requests' prefills). Their admissions taken
 * as independent of its own, (b − 1)/L of them fall in each of its iterations, so the time between its tokens
 * (interTokenSeconds) is the mean iteration with b − 1 slots admitting: at b = 1 the decode round alone.
 *
 * The time to first token is the running iteration waited out (a prompt arriving waits up to one before
 * it is admitted; with a batch of one nothing else runs, so it starts at once) plus the c iterations that
 * carry its chunks, each fused with its micro-batch's decode and crossing every stage, as an engine that
 * admits a waiting prompt at the next iteration boundary (vLLM's scheduler runs waiting prompts first). The
 * wait for a free slot under a request rate is serving-load.ts's (planInference's requestsPerSecond).
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
  const chunks = prompt.chunks.length;
  // Prompts admitted per iteration: each sequence holds its slot L iterations, so b/L leave and join per iteration.
  const life = slotIterations(outputTokens, chunks);
  const share = (prompts: number, attentionPrompts = prompts): LayerPrefill => ({
    tensorCoreSeconds: prompt.layerTensorCoreSeconds(prompts, attentionPrompts), otherSeconds: prompt.layerOtherSeconds(prompts),
  });
  const decodeOnly = stageSeconds(round);
  // Each chunk's stages when an iteration carries it alone, and their mean (one chunk every iteration).
  const alone = prompt.chunks.map((c) => stageSeconds(round, share(c.rowsShare, c.attentionShare)));
  const meanAlone = decodeOnly.map((_, i) => alone.reduce((a, s) => a + s[i]!, 0) / chunks);
  // Prompts an iteration when every iteration carries a full chunk, the first (all but the last are full): the chunk budget's limit.
  const fullChunkPrompts = 1 / prompt.chunks[0]!.rowsShare;
  const fullBudget = stageSeconds(round, share(fullChunkPrompts));
  // A micro-batch's stages when its iterations carry `perMicroBatch` prompts' chunks on average.
  const carrying = (perMicroBatch: number): Seconds[] => {
    const carried = perMicroBatch * chunks;
    // At most one chunk an iteration: each of a prompt's chunks runs in an iteration of its own, perMicroBatch of the
    // iterations carrying each, the rest only decoding.
    if (carried <= 1) return decodeOnly.map((d, i) => (1 - carried) * d + carried * meanAlone[i]!);
    // Whole prompts, more than one an iteration (or past the budget, which estimateInference refuses): packed into one
    // batch of rows (Orca, vLLM), their mean every iteration.
    if (chunks === 1 || perMicroBatch >= fullChunkPrompts) return stageSeconds(round, share(perMicroBatch));
    // More than one chunk an iteration, a prompt's last chunk sharing its iteration with the next one's first (both
    // engines pack the budget, chunkBatchLimit): between one chunk an iteration (each of a prompt's chunks, full or the
    // last, in turn) and the budget full every iteration, linearly in the prompts admitted. The mean tokens spread
    // evenly would hide more than full chunks can (the roofline is convex), and cost less than one chunk an iteration
    // does just below: a larger batch would decode faster.
    const toFull = (perMicroBatch - 1 / chunks) / (fullChunkPrompts - 1 / chunks);
    return meanAlone.map((m, i) => (1 - toFull) * m + toFull * fullBudget[i]!);
  };
  // The mean iteration while `slots` of the b slots turn over, slots/L prompts admitted an iteration.
  const iteration = (slots: number): Seconds => {
    const perMicroBatch = slots / life / k;
    const stages = carrying(perMicroBatch);
    const traversal = stages.reduce((a, s) => a + s, 0) + sendSeconds(round.activationBytes + perMicroBatch * prompt.activationBytes);
    return Math.max(traversal, k * Math.max(...stages));
  };
  const iterationSeconds = iteration(batch);
  // The prompt's own chunks, each in an iteration fused with its micro-batch's decode, through every stage.
  const carryingSeconds = prompt.chunks.reduce((sum, c, j) => sum + alone[j]!.reduce((a, s) => a + s, 0)
    + sendSeconds(round.activationBytes + c.rowsShare * prompt.activationBytes), 0);
  const waitSeconds = batch > 1 ? iterationSeconds : 0;
  return { iterationSeconds, interTokenSeconds: iteration(batch - 1), slotIterations: life, carryingSeconds, firstTokenSeconds: waitSeconds + carryingSeconds };
}

/**
 * KV-cache tokens a sequence holds on average under continuous batching with a paged cache (vLLM's
 * PagedAttention, Kwon et al. 2023 §4; TensorRT-LLM's paged KV cache): blocks are taken as tokens are
 * written and freed when the sequence leaves, so a sequence holds its prompt and the tokens generated
 * so far, not its full context. In steady state the b running sequences are spread evenly over their O
 * iterations, j = 0 … O − 1 tokens generated, each writing one more in the iteration: P + (O + 1)/2 tokens
 * on average, plus the half-filled last block (the only waste, §4.2). Output lengths that vary need
 * headroom above this mean; vLLM preempts (and later recomputes) sequences when blocks run out.
 */
export function pagedTokensPerSequence(promptTokens: number, outputTokens: number): number {
  return promptTokens + (outputTokens + 1) / 2 + (KV_BLOCK_TOKENS - 1) / 2;
}
