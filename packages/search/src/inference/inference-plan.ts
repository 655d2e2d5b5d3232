import { p2pSeconds } from '@trainplan/collectives';
import { bytesPerValue, kvCacheBytesPerToken } from '@trainplan/model';
import type { TrainingPrecision } from '@trainplan/planner';
import { countOf, GiB, type Bytes, type Seconds } from '@trainplan/units';
import { planFor } from '../candidate.ts';
import { cachedPrefixTokens } from './prefix-cache.ts';
import { draftTensor, tokensPerStep } from './speculative.ts';
import { decodeLayer, decodeLogitsSeconds } from './decode-layer.ts';
import { continuousIteration, pagedTokensPerSequence, stageSeconds, type DecodeRound, type PromptPrefill } from './continuous-batching.ts';
import { chunkBatchLimit, chunkLimitWhy, slotIterations } from './chunk-batch-limit.ts';
import { forwardActivationBytes } from './activation-memory.ts';
import { lastHolding } from './bound-batch.ts';
import type { InferenceAnswer, InferenceRefusal } from './inference-estimate.ts';
import type { InferenceBase, InferenceShape } from './inference-shape.ts';
import { promptPrefill } from './prompt-prefill.ts';
import { servingLayerSplit } from './serving-layers.ts';
import { servingBase } from './serving-calibration.ts';
import { servingLayerForwardSeconds } from './prefill-layer.ts';
import { servingStageWeightBytes, servingWeightBytes } from './serving-weights.ts';

/**
 * What the estimates of one shape share whatever their batch, kept by planInference across its batches: one
 * prompt's prefill (three planner layer costs). Only for estimates of the same base and shape but the batch.
 */
export interface ShapeMemo {
  prompt?: PromptPrefill;
  /** The draft's prefill of one prompt, when speculating. */
  draftPrompt?: PromptPrefill;
  /** The largest batch that fits in memory (InferenceEstimate.maxBatch): the same for every batch of the shape. */
  maxBatch?: number;
}

/**
 * CUDA context, cuBLAS workspace, NCCL buffers and CUDA graphs; the forward pass's activations, which grow with
 * the tokens it takes, are counted apart (forwardActivationBytes). 2 GiB is an assumption, neither measured nor
 * from a source: training's reserve for the same context, workspaces and buffers (@trainplan/planner
 * TRAINING_RUNTIME_RESERVE, 1.5 GiB, itself given without a source) with room for the CUDA graphs a serving engine
 * captures and a training step does not. It dates from when this reserve also held one step's activations.
 */
const SERVING_RUNTIME_RESERVE: Bytes = GiB(2);

/**
 * KV-cache bytes per token on one GPU (@trainplan/model's kvCacheBytesPerToken), each value in `precision` (the
 * weights' unless the cache's own is given).
 */
export function kvCacheBytesPerTokenFor(base: InferenceBase, tensor: number, layersOnGpu: number, precision: TrainingPrecision = base.precision): Bytes {
  return kvCacheBytesPerToken({ shape: base.model, tensor, layersOnGpu, bytesPerValue: bytesPerValue(precision) });
}

/**
 * Serving one model replica with TP × PP GPUs. Prefill is costed with the training model's own
 * forward-pass kernels (the planner's layerProfile: GEMMs with tile/wave quantisation, flash attention,
 * element-wise traffic) plus its tensor-parallel all-reduces and the pipeline sends. A decode step is a
 * roofline (Williams et al. 2009) per layer: the larger of the weights + KV-cache bytes over the
 * sustained HBM bandwidth and the FLOPs over the sustained tensor peak, plus kernel launch overheads
 * and two all-reduces of m·h values for a micro-batch of m sequences.
 *
 * Pipelined decode: the batch is split into k = min(p, b) micro-batches of m = ⌈b/k⌉ that circulate
 * through the p stages, so while one micro-batch is on stage i the others are on other stages and every
 * stage is busy (GPipe's micro-batching, Huang et al. 2019; vLLM runs one "virtual engine" per stage for
 * this, vllm-project/vllm#4461 and #11945, "saturating all pipeline stages"). A sequence's next token
 * waits for its micro-batch to cross all p stages, and each stage serves k micro-batches per round, so
 * the step is max(one traversal at m, k × the slowest stage at m); every sequence of the batch gets a
 * token per step, so throughput is b over the step. Each stage reads its weights once per micro-batch,
 * so TP t · PP p at batch p·m decodes at the step and per-GPU throughput of TP t alone at batch m (plus
 * the sends): PP does not raise tokens/s per GPU, it adds memory for the weights and KV cache of a
 * larger batch. (One micro-batch of all b sequences would leave p − 1 stages idle and read every
 * sequence's KV cache on the critical path of each token.)
 *
 * With `batching: 'continuous'` the decode round above also prefills the b/O prompts that replace the
 * sequences finishing in it, each costed as one prompt alone and fused into the decode's layers (whole,
 * or in chunks of `prefillChunkTokens`), and the KV cache is paged, holding each sequence's steady-state
 * mean rather than its full context (continuous-batching.ts). Throughput is over that iteration, all the
 * prompts' work; a sequence's time per token carries only the other sequences' prompts, its own being its
 * time to first token (continuousIteration's interTokenSeconds). Static batching reserves every sequence's
 * full context. A shared prefix (`sharedPrefixTokens`, continuous only) is held once and not prefilled
 * again (prefix-cache.ts); the decode still reads it for every sequence, as paged attention does. With
 * `speculative` a draft model's γ decode steps precede each step, the target's layers verify γ + 1 tokens a
 * sequence (its FLOPs and all-reduces γ + 1 times, its reads once), and a step yields E tokens, so a token
 * costs the step over E (speculative.ts); the draft's weights and KV cache count in memory, and its prefill
 * of the prompt (it builds its own KV cache over it) comes before the first token.
 *
 * Memory: the heaviest stage's weights, the KV cache of the tokens held, a runtime reserve, and the
 * activations of the largest forward pass (forwardActivationBytes), over the tokens the batch prefills at
 * once, so a larger batch needs more of both and the largest batch (maxBatch) is where they fill the GPU.
 * Layers are split over the stages as vLLM splits them (servingLayerSplit).
 */
export function estimateInference(trainingBase: InferenceBase, shape: InferenceShape, memo: ShapeMemo = {}): InferenceAnswer {
  // FP8 GEMMs at a serving engine's rate, not training's (serving-calibration.ts).
  const base = servingBase(trainingBase);
  const { tensor: t, pipeline: p, batch: b, promptTokens, outputTokens, batching = 'static', prefillChunkTokens } = shape;
  const continuousBatching = batching === 'continuous';
  // A shared prefix is cached by continuous batching's paged cache only (static batching has none to share).
  const cached = continuousBatching && shape.sharedPrefixTokens !== undefined ? cachedPrefixTokens(shape.sharedPrefixTokens, promptTokens) : 0;
  // Chunked prefill (continuous only): the chunks a prompt takes, and the largest batch they keep running.
  const chunkLimit = chunkBatchLimit(shape);
  const chunks = chunkLimit?.chunks ?? 1;
  const model = base.model;
  const fail = (reason: InferenceRefusal, message: string): InferenceAnswer => ({ ok: false, shape, reason, message });
  // Name only what does not split: GPT-3 125M's FFN 3072 splits over TP 8, its 12 heads do not.
  const unsplit = [...(model.attentionHeads % t !== 0 ? [`${model.attentionHeads} heads`] : []), ...(model.ffnHiddenSize % t !== 0 ? [`FFN ${model.ffnHiddenSize}`] : [])];
  if (unsplit.length > 0) return fail('indivisible', `${unsplit.join(' and ')} ${unsplit.length === 1 && unsplit[0]!.startsWith('FFN') ? 'does' : 'do'} not split over TP ${t}`);
  if (p > model.layers) return fail('indivisible', `${p} pipeline stages for ${model.layers} layers`);
  const spec = shape.speculative;
  if (spec !== undefined && p > 1) return fail('indivisible', `speculative decoding is modelled on one pipeline stage, not ${p} (vLLM runs it without pipeline parallelism)`);
  // KV tokens a sequence holds: its full context reserved (static), or its steady-state mean in a paged cache
  // (continuous), past the cached prefix's blocks, which the replica holds once for all of them. A slot still
  // prefilling its chunks holds less (its chunks so far), counted as a decoding one's: fewer than one slot a
  // micro-batch is prefilling at the chunk's limit (chunkBatchLimit), so the excess is under k sequences' cache.
  const heldTokens = continuousBatching ? pagedTokensPerSequence(promptTokens - cached, outputTokens) : promptTokens + outputTokens;
  // Speculating, the target verifies γ + 1 tokens a sequence in one pass, and a step yields E of them (1 without).
  const queryTokens = spec === undefined ? 1 : spec.draftTokens + 1;
  const perStep = spec === undefined ? 1 : tokensPerStep(spec.draftTokens, spec.acceptanceRate);
  // Continuous: steps a sequence holds its slot, its chunks and then its decode steps (O/E of them, the first the last chunk's).
  const life = slotIterations(outputTokens / perStep, chunks);

  // Memory: the heaviest stage's weights (16-bit, or FP8 layers beside a 16-bit embedding and output layer) plus the KV
  // cache of the tokens held.
  const layers = servingLayerSplit(model.layers, p);
  const weights = Math.max(...servingStageWeightBytes(model, t, layers, base.precision));
  const mostLayers = Math.max(...layers);
  // A draft model (speculative decoding) holds its weights and a KV cache of the same tokens beside the target's.
  const draft = spec === undefined ? undefined : { shape: spec.draft, tensor: draftTensor(spec.draft, t), base: { ...base, model: spec.draft } };
  const draftWeights = draft === undefined ? 0 : servingWeightBytes(draft.shape, draft.tensor, base.precision);
  // The cache's format, the draft's as the target's (one engine setting for both).
  const kvPrecision = shape.kvCachePrecision ?? base.precision;
  const draftKvPerToken = draft === undefined ? 0 : kvCacheBytesPerTokenFor(draft.base, draft.tensor, draft.shape.layers, kvPrecision);
  const kvPerToken = kvCacheBytesPerTokenFor(base, t, mostLayers, kvPrecision) + draftKvPerToken;
  const kvPerSequence = kvPerToken * heldTokens;
  const kvShared = kvPerToken * cached;
  // The largest forward pass at a batch: static, a micro-batch's prompts; continuous, a micro-batch's decode
  // tokens and the prompts (or chunks) admitted into its iteration, b/L over k a micro-batch (continuousIteration),
  // whole ones, and with a chunk no more than it (the budget an iteration fills, packing prompts: chunkBatchLimit). A
  // prompt longer than the chunk fills it (its chunks are full ones and the rest, promptChunkTokens), not P'/c of it.
  const forwardTokens = (batch: number): number => {
    const k = Math.min(p, batch);
    if (!continuousBatching) return Math.ceil(batch / k) * promptTokens;
    const admitted = Math.max(1, Math.ceil(((batch / life) * chunks) / k));
    const prefilled = admitted * (promptTokens - cached);
    return Math.ceil(batch / k) * queryTokens + Math.min(prefilled, prefillChunkTokens ?? prefilled);
  };
  // The target's layer and the draft's run one after the other: the larger of their working sets.
  const activations = (batch: number): Bytes => Math.max(
    forwardActivationBytes(model, t, forwardTokens(batch)),
    draft === undefined ? 0 : forwardActivationBytes(draft.shape, draft.tensor, forwardTokens(batch)),
  );
  const capacity = base.gpu.hbmBytes;
  const usable = capacity * (shape.gpuMemoryUtilization ?? 1);
  const free = usable - weights - draftWeights - SERVING_RUNTIME_RESERVE - kvShared;
  const fits = (batch: number) => kvPerSequence * batch + activations(batch) <= free;
  // Both terms grow with the batch: the largest that fits is a bisection below what the KV cache alone allows.
  const kvOnly = Math.floor(free / kvPerSequence);
  // The shape's, whatever the batch: bisected once for all the batches planInference tries of it.
  const maxBatch = memo.maxBatch ??= kvOnly >= 1 && fits(1) ? lastHolding(1, kvOnly, fits) : 0;
  const kv = kvPerSequence * b + kvShared;
  const activationBytes = activations(b);
  const total = weights + draftWeights + kv + activationBytes + SERVING_RUNTIME_RESERVE;

  // The batch runs as k = min(p, b) micro-batches, for prefill as for decode: b mod k of them m = ⌈b/k⌉ sequences, the
  // rest ⌊b/k⌋ (static batching's costs below; continuous costs every micro-batch at m, its batch changing each iteration).
  const microBatches = Math.min(p, b);
  const m = Math.ceil(b / microBatches);
  const fewer = Math.floor(b / microBatches);
  const fuller = b - microBatches * fewer || microBatches;

  // Prefill: the micro-batches' forward passes through the stages, pipelined (GPipe's forward, Huang et
  // al. 2019), the fuller ones first: the last micro-batch leaves the last stage one traversal of the first plus
  // each later one's slowest stage after the first entered (a proportionate flow shop's makespan), so the batch's
  // first tokens are all out then. Costing all k at ⌈b/k⌉ charged batch 5 on 4 stages as 8 sequences (QA: Llama 3.1
  // 405B on A100, TP 8 · PP 4, batch 4 → 5 lost 30% of its tokens/s).
  const forwardInput = (on: InferenceBase, tensor: number, pipeline: number, sequences: number, tokens: number) => planFor({ ...on, globalBatchSize: sequences, dropout: false, seqLength: tokens }, {
    tensor, pipeline, data: 1, context: 1, virtualStages: 1, microBatchSize: sequences, sequenceParallel: false, recompute: 'none', sharding: 'none',
  });
  const prefillInput = (sequences: number, tokens = promptTokens) => forwardInput(base, t, p, sequences, tokens);
  const crossNode = t * p > base.nvlinkDomainGpus;
  const send = (bytes: number) => (p > 1 ? (p - 1) * p2pSeconds({ bytes, fabric: base.fabric, crossNode }) : 0);
  // A micro-batch of `sequences` prompts through the stages: [its traversal, its slowest stage]. The first tokens are
  // the prompts' last logits: the output layer's V·h/t weights read once more, on the last stage, for each micro-batch,
  // which can make it the slowest stage; a row each (each prompt's last token).
  const prefillPass = (sequences: number): [Seconds, Seconds] => {
    const layerForward = servingLayerForwardSeconds(prefillInput(sequences));
    const logits = decodeLogitsSeconds(base, model, t, sequences);
    return [
      model.layers * layerForward + send(2 * sequences * promptTokens * model.hiddenSize) + logits,
      Math.max(mostLayers * layerForward, layers[layers.length - 1]! * layerForward + logits),
    ];
  };
  const [fullTraversal, fullSlowest] = prefillPass(m);
  // Continuous batching's first token is its own (continuousIteration): no second pass for it.
  const shortSlowest = continuousBatching || fuller === microBatches ? fullSlowest : prefillPass(fewer)[1];
  const prefill = fullTraversal + (fuller - 1) * fullSlowest + (microBatches - fuller) * shortSlowest;

  // Decode: per layer, weights + KV read once per micro-batch (Pope et al. 2022 §3), m sequences at a time.
  const meanContext = promptTokens + outputTokens / 2;
  const decodeRound = (sequences: number): DecodeRound => ({
    microBatches, layersPerStage: layers, logitsSeconds: decodeLogitsSeconds(base, model, t, sequences * queryTokens), activationBytes: 2 * sequences * model.hiddenSize,
    layer: decodeLayer({ base, model, tensor: t, microBatch: sequences, meanContext, kvBytesPerToken: kvCacheBytesPerTokenFor(base, t, 1, kvPrecision), queryTokens }),
  });
  const round = decodeRound(m);
  const layer = round.layer;
  const stageDecode = stageSeconds(round);
  const traversal = stageDecode.reduce((a, s) => a + s, 0) + send(round.activationBytes);
  // Static batching's round (continuous batching's is its iteration): the fuller micro-batch's traversal, or every
  // micro-batch through the busiest stage, each at its own size.
  const decodeStep = Math.max(traversal, fuller * Math.max(...stageDecode)
    + (continuousBatching || fuller === microBatches ? 0 : (microBatches - fuller) * Math.max(...stageSeconds(decodeRound(fewer)))));

  // Continuous batching: the round also prefills the b/L prompts admitted in it, fused into its layers.
  // A sequence lives O / E steps when each yields E tokens (E = 1 without speculation).
  const admit = (on: DecodeRound, prompt: PromptPrefill, sendSeconds: (bytes: Bytes) => Seconds) =>
    continuousIteration({ round: on, prompt, batch: b, outputTokens: outputTokens / perStep, sendSeconds });
  const continuous = continuousBatching
    ? admit(round, memo.prompt ??= promptPrefill(prefillInput, promptTokens, cached, prefillChunkTokens), send)
    : undefined;

  // The draft (one stage): its decode step of the batch, γ of them before each verification, and its prefill of
  // the prompts, which builds its own KV cache before it can propose. Static: its forward pass over the batch's
  // prompts, before the first token. Continuous: the prompts admitted in an iteration are fused into its first
  // step of the iteration, as the target's are into the target's (continuousIteration on the draft's round).
  const drafted = draft === undefined || spec === undefined ? undefined : (() => {
    const draftRound: DecodeRound = {
      microBatches: 1, layersPerStage: [draft.shape.layers], logitsSeconds: decodeLogitsSeconds(draft.base, draft.shape, draft.tensor, m), activationBytes: 0,
      layer: decodeLayer({ base: draft.base, model: draft.shape, tensor: draft.tensor, microBatch: m, meanContext, kvBytesPerToken: kvCacheBytesPerTokenFor(draft.base, draft.tensor, 1, kvPrecision) }),
    };
    const step = stageSeconds(draftRound)[0]!;
    if (continuous === undefined) {
      const prefillSeconds = draft.shape.layers * servingLayerForwardSeconds(forwardInput(draft.base, draft.tensor, 1, b, promptTokens));
      return { step, perStep: spec.draftTokens * step, prefillSeconds, firstTokenSeconds: prefillSeconds };
    }
    const draftPrompt = memo.draftPrompt ??= promptPrefill((sequences, tokens) => forwardInput(draft.base, draft.tensor, 1, sequences, tokens), promptTokens, cached, prefillChunkTokens);
    const iteration = admit(draftRound, draftPrompt, () => 0);
    const perStep = (spec.draftTokens - 1) * step + iteration.iterationSeconds;
    // Between a sequence's steps the draft prefills the other slots' prompts only, as the target does (interTokenSeconds).
    const seen = (spec.draftTokens - 1) * step + iteration.interTokenSeconds;
    // Before the first token: the draft's steps carrying the prompt's chunks, and with others running, the running
    // step's drafting waited out and the other γ − 1 draft steps of each carrying step.
    const firstTokenSeconds = iteration.carryingSeconds + (b > 1 ? perStep + chunks * (spec.draftTokens - 1) * step : 0);
    return { step, perStep, seen, prefillSeconds: iteration.carryingSeconds, firstTokenSeconds };
  })();
  // One step: the decode round or continuous iteration, after the draft's γ steps; a token is a step over E. Continuous:
  // the replica's mean step carries every prompt admitted (throughput, slot time); a sequence's time between its tokens
  // only the other slots' (continuousIteration's interTokenSeconds), its own prompt being its first token's.
  const step = (continuous?.iterationSeconds ?? decodeStep) + (drafted?.perStep ?? 0);
  const perToken = ((continuous?.interTokenSeconds ?? decodeStep) + (drafted?.seen ?? drafted?.perStep ?? 0)) / perStep;
  // The first token: the batch's prefill (static), or a running step waited out and the iterations carrying the
  // prompt (continuous); speculating, the draft's prefill and steps before it.
  const firstToken = (continuous?.firstTokenSeconds ?? prefill) + (drafted?.firstTokenSeconds ?? 0);
  // Continuous: the slots decoding in a step, b·(O/E)/L on average (each yields its O tokens over its L steps); all b
  // when a prompt is prefilled in one iteration, the one yielding its first token (L = O/E).
  const decodingSlots = chunks === 1 ? b : (b * (outputTokens / perStep)) / life;

  if (!fits(b)) {
    const gib = (x: Bytes) => `${(x / GiB(1)).toFixed(1)} GiB`;
    const has = usable < capacity
      ? `${gib(usable)} of the ${base.gpu.name}'s ${gib(capacity)} may be used (gpuMemoryUtilization ${shape.gpuMemoryUtilization})`
      : `the ${base.gpu.name} has ${gib(capacity)}`;
    return fail('out-of-memory', `needs ${gib(total)} per GPU (weights ${gib(weights + draftWeights)}, KV cache ${gib(kv)}, `
      + `activations ${gib(activationBytes)} for ${forwardTokens(b).toLocaleString('en-US')} tokens in one forward pass, runtime ${gib(SERVING_RUNTIME_RESERVE)}), ${has}`);
  }
  if (chunkLimit !== undefined && b > chunkLimit.sequences) {
    return fail('prefill-chunk', `batch ${b.toLocaleString('en-US')} cannot be kept running: ${chunkLimitWhy(chunkLimit)}, so the chunk keeps at most `
      + `${countOf(chunkLimit.sequences, 'sequence')} running (with more slots prompts arrive faster than their chunks are prefilled; `
      + 'a larger prefillChunkTokens lifts the limit)');
  }
  return {
    ok: true, shape, batching, prefillSeconds: firstToken, decodeStepSeconds: perToken, microBatches, weightsBytesPerGpu: weights + draftWeights,
    kvCacheBytesPerGpu: kv, activationBytesPerGpu: activationBytes, forwardTokens: forwardTokens(b), totalBytesPerGpu: total, capacityBytes: capacity, usableBytes: usable, maxBatch,
    tokensPerSecondPerGpu: (continuousBatching ? decodingSlots / (step / perStep) : (b * outputTokens) / (firstToken + (outputTokens - 1) * perToken)) / (t * p),
    ...(continuousBatching && { slotSeconds: life * step }),
    ...(chunkLimit !== undefined && { chunkBatchLimit: chunkLimit.sequences }),
    memoryBound: layer.memorySeconds >= layer.computeSeconds,
    ...(continuousBatching && shape.sharedPrefixTokens !== undefined && { sharedPrefix: { cachedTokens: cached, kvCacheBytesPerGpu: kvShared } }),
    ...(spec !== undefined && draft !== undefined && drafted !== undefined && {
      speculation: {
        draftTokens: spec.draftTokens, acceptanceRate: spec.acceptanceRate, tokensPerStep: perStep, draftTensor: draft.tensor,
        draftWeightsBytesPerGpu: draftWeights, draftKvCacheBytesPerGpu: draftKvPerToken * (heldTokens * b + cached),
        draftStepSeconds: drafted.step, draftPrefillSeconds: drafted.prefillSeconds,
      },
    }),
  };
}
