import { describe, expect, it } from 'vitest';
import { continuousIteration, estimateInference, fusedLayerSeconds, pagedTokensPerSequence, planInference, type InferenceEstimate, type InferenceShape } from '../src/index.ts';
import { parameterCount } from '@trainplan/model';
import { kernelContext, layerComputeCost, layerProfile, peak16, resolveCalibration } from '@trainplan/planner';
import { planFor } from '../src/candidate.ts';
import { llama70bBase as base } from './fixtures.ts';

const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

/**
 * The replica's mean iteration: a slot is held L = O + c − 1 iterations (slotSeconds; c chunks a prompt, 1 whole), each
 * carrying the b/L prompts admitted in it, the sequence's own included (its time per token, decodeStepSeconds, leaves its own out).
 */
const meanIteration = (e: InferenceEstimate): number => {
  const chunks = Math.ceil(e.shape.promptTokens / (e.shape.prefillChunkTokens ?? e.shape.promptTokens));
  return e.slotSeconds! / (e.shape.outputTokens + chunks - 1);
};

/** The estimate, or a failed test naming why it was refused. */
function estimate(s: InferenceShape): InferenceEstimate {
  const e = estimateInference(base, s);
  if (!e.ok) throw new Error(`${JSON.stringify(s)}: ${e.message}`);
  return e;
}

/** c chunks of equal shares, tokens and attention alike: a prompt's work stated by hand. */
const equalChunks = (chunks: number) => Array.from({ length: chunks }, () => ({ rowsShare: 1 / chunks, attentionShare: 1 / chunks }));

describe('a fused iteration, worked by hand', () => {
  // A decode layer streaming its weights for 10 µs while its FLOPs take 2 µs, with 1 µs of launches and all-reduces.
  const layer = { memorySeconds: 10e-6, computeSeconds: 2e-6, fixedSeconds: 1e-6 };

  it('prefill tensor-core work fits in the 8 µs the tensor cores idle, and costs nothing there; beyond it, it adds', () => {
    expect(fusedLayerSeconds(layer, { tensorCoreSeconds: 0, otherSeconds: 0 })).toBeCloseTo(11e-6, 15);
    expect(fusedLayerSeconds(layer, { tensorCoreSeconds: 8e-6, otherSeconds: 0 })).toBeCloseTo(11e-6, 15);
    expect(fusedLayerSeconds(layer, { tensorCoreSeconds: 12e-6, otherSeconds: 0 })).toBeCloseTo(15e-6, 15);
    // Element-wise kernels and all-reduces of the prompt do not hide.
    expect(fusedLayerSeconds(layer, { tensorCoreSeconds: 4e-6, otherSeconds: 3e-6 })).toBeCloseTo(14e-6, 15);
  });

  it('two stages of 3 and 2 layers, two micro-batches, 4 sequences of 2 output tokens: one prompt per micro-batch each iteration', () => {
    const prompt = { layerTensorCoreSeconds: (prompts: number) => prompts * 6e-6, layerOtherSeconds: (prompts: number) => prompts * 1e-6, activationBytes: 0, chunks: equalChunks(1) };
    const round = { microBatches: 2, layer, layersPerStage: [3, 2], logitsSeconds: 5e-6, activationBytes: 0 };
    const it = continuousIteration({ round, prompt, batch: 4, outputTokens: 2, sendSeconds: () => 0 });
    // A fused layer: max(10, 2 + 6) + 1 + 1 = 12 µs; stages 36 and 24 + 5 µs; traversal 65 µs, busiest stage 2 × 36 = 72 µs.
    expect(it.iterationSeconds).toBeCloseTo(72e-6, 15);
    // The carrying iteration: one whole prompt on a micro-batch, 12 µs a layer again, through both stages (65 µs).
    expect(it.carryingSeconds).toBeCloseTo(65e-6, 15);
    // The first token waits out the running iteration, then rides the carrying one.
    expect(it.firstTokenSeconds).toBeCloseTo(137e-6, 15);
    // Between a sequence's tokens only the other 3 slots admit: 3/2 prompts an iteration, 0.75 a micro-batch, so a
    // micro-batch's iteration carries one with probability 0.75: stages 0.75 × (36, 29) + 0.25 × (33, 27) µs (11 µs decode
    // layers) = 35.25 and 28.5; traversal 63.75, busiest stage 2 × 35.25 = 70.5 µs, under the replica's 72.
    expect(it.interTokenSeconds).toBeCloseTo(70.5e-6, 15);
  });

  it('a sequence alone, a prompt every 4 iterations whose tensor-core work (16 µs a layer) is twice the 8 µs the decode leaves idle', () => {
    const round = { microBatches: 1, layer, layersPerStage: [3, 2], logitsSeconds: 5e-6, activationBytes: 0 };
    const whole = { layerTensorCoreSeconds: (prompts: number) => prompts * 16e-6, layerOtherSeconds: (prompts: number) => prompts * 1e-6, activationBytes: 0, chunks: equalChunks(1) };
    const run = (chunks: number) => continuousIteration({ round, prompt: { ...whole, chunks: equalChunks(chunks) }, batch: 1, outputTokens: 4, sendSeconds: () => 0 });
    // Whole: one iteration in 4 carries it, max(10, 2 + 16) + 1 + 1 = 20 µs a layer, the others 11: 13.25 µs on average,
    // 5 layers and the logits. Its first token waits for nothing (it runs alone) and rides the 20 µs layers: 105 µs.
    expect(run(1).iterationSeconds).toBeCloseTo(71.25e-6, 15);
    expect(run(1).firstTokenSeconds).toBeCloseTo(105e-6, 15);
    // In 4 chunks the sequence holds its slot 4 + 4 − 1 = 7 iterations (its 4 chunks, the last yielding its first token,
    // then 3 more decoding): 4 of the 7 carry a chunk, which hides under the weight reads, max(10, 2 + 4) + 1 + 0.25 =
    // 11.25 µs a layer; the other 3 only decode, 11 µs. (4 × 11.25 + 3 × 11) / 7 = 78/7 µs a layer, 5 layers and the
    // logits: 390/7 + 5 = 425/7 µs. The first token now takes the 4 iterations that carry the chunks: 4 × (5 × 11.25 + 5).
    expect(run(4).slotIterations).toBe(7);
    expect(run(4).iterationSeconds).toBeCloseTo(425e-6 / 7, 15);
    expect(run(4).firstTokenSeconds).toBeCloseTo(245e-6, 15);
    expect(run(1).slotIterations).toBe(4);
    // The prompt is the sequence's own, prefilled before its first token: between its tokens nothing is admitted, each a
    // decode round, 5 layers of 11 µs and the logits, 60 µs, whole or chunked.
    expect(run(1).interTokenSeconds).toBeCloseTo(60e-6, 15);
    expect(run(4).interTokenSeconds).toBeCloseTo(60e-6, 15);
  });

  it('a paged sequence of 100 prompt and 10 output tokens holds 100 + 5.5 tokens on average, and half a 16-token block more', () => {
    expect(pagedTokensPerSequence(100, 10)).toBe(113);
  });
});

describe('continuous batching (Orca, vLLM, in-flight batching)', () => {
  it('static stays the default: no batching given answers exactly as batching "static", and says so', () => {
    const none = estimate({ ...shape, batch: 64 });
    const stat = estimate({ ...shape, batch: 64, batching: 'static' });
    expect(none.batching).toBe('static');
    expect({ ...stat, shape: none.shape }).toEqual(none);
    expect(estimate({ ...shape, batch: 64, batching: 'continuous' }).batching).toBe('continuous');
  });

  it.each([
    [1, undefined], [2, undefined], [4, undefined], [1, 256],
  ])('PP %i, chunk %s, a sequence alone: a token every static decode step, its own prefill its first token and not spread over its tokens', (pipeline, prefillChunkTokens) => {
    const stat = estimate({ ...shape, pipeline, batch: 1 });
    const cont = estimate({ ...shape, pipeline, batch: 1, batching: 'continuous', prefillChunkTokens });
    // Nothing else is admitted while it decodes (QA: 524 ms a token for Llama 3 8B's 1M-token prompt, 17.5 ms static).
    expect(cont.decodeStepSeconds).toBe(stat.decodeStepSeconds);
    // Its slot, the replica's whole time on it, is its first token and O − 1 decode steps (to the sends' rounding with PP),
    // and its tokens/s per GPU its O tokens over that, on 8 · PP GPUs: the work the GPUs do is all still counted.
    const lastToken = cont.prefillSeconds + (shape.outputTokens - 1) * cont.decodeStepSeconds;
    expect(cont.slotSeconds! / lastToken).toBeCloseTo(1, 9);
    expect(cont.tokensPerSecondPerGpu * lastToken * 8 * pipeline / shape.outputTokens).toBeCloseTo(1, 9);
  });

  it.each([8, 64, 256])('batch %i: between its tokens a sequence sees the other b − 1 slots\' prompts, not its own', (batch) => {
    const stat = estimate({ ...shape, batch });
    const cont = estimate({ ...shape, batch, batching: 'continuous' });
    // The replica's mean iteration adds b/O prompts' fused prefill to the decode step, a sequence's (b − 1)/O of them.
    // Whole prompts, fewer than one an iteration (b < O = 512): an iteration carries one with probability b/O, else only
    // decodes, so the addition is linear in the prompts, and a sequence sees (b − 1)/b of the replica's.
    const added = (meanIteration(cont) - stat.decodeStepSeconds) * ((batch - 1) / batch);
    expect((cont.decodeStepSeconds - stat.decodeStepSeconds) / added).toBeCloseTo(1, 9);
  });

  it('at batch 64 the first token comes far sooner: one prompt, not the 64 of a static batch, is prefilled before it', () => {
    const stat = estimate({ ...shape, batch: 64 });
    const cont = estimate({ ...shape, batch: 64, batching: 'continuous' });
    expect(cont.prefillSeconds).toBeLessThan(stat.prefillSeconds / 10);
  });

  it.each([
    [1, 1], [1, 8], [1, 64], [2, 1], [2, 8], [2, 64], [4, 8], [4, 64], [8, 64],
  ])('PP %i, batch %i: an iteration is never shorter than the static decode step, nor its throughput higher', (pipeline, batch) => {
    const stat = estimate({ ...shape, pipeline, batch });
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    expect(meanIteration(cont)).toBeGreaterThan(stat.decodeStepSeconds);
    // A sequence's time per token carries the other slots' prompts (none at batch 1), never its own: under the mean iteration.
    expect(cont.decodeStepSeconds).toBeGreaterThanOrEqual(stat.decodeStepSeconds);
    expect(cont.decodeStepSeconds).toBeLessThan(meanIteration(cont));
    // Static decoding alone (b over its step: its tokens/s per GPU also counts its batch's prefill).
    expect(cont.tokensPerSecondPerGpu).toBeLessThan(batch / stat.decodeStepSeconds / (8 * pipeline));
    // Every sequence of the batch gets a token per iteration, on t·p GPUs: the replica's iterations, its whole work.
    expect(cont.tokensPerSecondPerGpu).toBeCloseTo(batch / meanIteration(cont) / (8 * pipeline), 9);
  });

  it.each([1, 8, 64, 256])('PP 1, batch %i: the iteration lies between the decode step with the b/O prompts\' FLOPs at peak and the decode step plus their prefill alone', (batch) => {
    const stat = estimate({ ...shape, batch });
    const cont = estimate({ ...shape, batch, batching: 'continuous' });
    const onePrompt = estimate({ ...shape, batch: 1 }).prefillSeconds;
    const admitted = batch / shape.outputTokens;
    // Fusion only saves: never more than the decode step and the prompts' prefill run one after the other.
    expect(meanIteration(cont)).toBeLessThan(stat.decodeStepSeconds + admitted * onePrompt);
    // Physics: the prompts' 2·N·P FLOPs must run on the t GPUs' tensor cores, at best at their dense peak.
    const promptFlops = admitted * 2 * parameterCount(base.model) * shape.promptTokens;
    expect(meanIteration(cont)).toBeGreaterThan(promptFlops / (shape.tensor * base.gpu.peakFlops.bf16!));
  });

  it.each([1, 32])('%i-token prompts, 2 tokens out, 256 slots: the iteration\'s prompts run as one batch of rows, and continuous serves about what static does', (promptTokens) => {
    // QA: Llama 3 8B on an H100, prompt 1, output 2: continuous 468 ms an iteration against static's 7.2 ms step (545
    // against 26,507 tokens/s per GPU), each of the 128 prompts admitted an iteration costed as a GEMM of its own, one
    // row in a 128-row tile. Quantised on the rows together, the prompts' GEMMs are one tile's work, and the two
    // batchings do nearly the same work a token: static prefills every prompt, continuous half of them each iteration.
    // Continuous stays a little under: its decode round is charged for all 256 slots, the half prefilling included
    // (continuous-batching.ts), which at 2 tokens out is a third more decode work than static's one step.
    const s = { ...shape, promptTokens, outputTokens: 2, batch: 256 };
    const stat = estimate(s);
    const cont = estimate({ ...s, batching: 'continuous' });
    expect(cont.tokensPerSecondPerGpu / stat.tokensPerSecondPerGpu).toBeGreaterThan(0.85);
    expect(cont.tokensPerSecondPerGpu / stat.tokensPerSecondPerGpu).toBeLessThan(1.1);
  });

  it('one slot more costs about a slot\'s share, not a tile: 128 → 129 slots of 128-token prompts', () => {
    // QA: 129/128 = 1.008 prompts an iteration were charged the rows of 2 prompts (a second 128-row tile) in every
    // iteration, −27% throughput for one slot more. Rows are charged linearly between whole tiles (perRows).
    const at = (batch: number) => estimate({ ...shape, promptTokens: 128, outputTokens: 128, batch, batching: 'continuous' });
    expect(at(129).tokensPerSecondPerGpu / at(128).tokensPerSecondPerGpu).toBeGreaterThan(0.99);
    expect(at(129).prefillSeconds / at(128).prefillSeconds).toBeLessThan(1.02);
  });

  it('3-token prompts, 1 token out: the admitted prompts\' all-reduces and element-wise kernels are the iteration\'s, one each', () => {
    // QA: charged an all-reduce per prompt, continuous served 0.15× static (Llama 3 8B on H200, batch 1,024). With one
    // token out continuous still charges a decode round no slot needs (every slot is prefilling): under static, not far.
    const s = { ...shape, promptTokens: 3, outputTokens: 1, batch: 1024 };
    expect(estimate({ ...s, batching: 'continuous' }).tokensPerSecondPerGpu / estimate(s).tokensPerSecondPerGpu).toBeGreaterThan(0.75);
  });

  it('batch 64 admits a prompt every 8 iterations: whole, it hides one iteration\'s idle tensor cores; in 8 chunks of 256 tokens, one every iteration', () => {
    // One prompt's work as it adds to a decode: its first token alone, less the lone sequence's decode round it rides.
    const onePrompt = estimate({ ...shape, batch: 1, batching: 'continuous' }).prefillSeconds - estimate({ ...shape, batch: 1 }).decodeStepSeconds;
    const stat = estimate({ ...shape, batch: 64 });
    const work = (64 / shape.outputTokens) * onePrompt;
    // In chunks the prompt runs as 8 passes of 256 rows: 8 GEMMs each quantised on its own rows (Sarathi-Serve §4.3: a
    // chunk's GEMMs pay tile quantisation) and 8 all-reduces of an eighth of the bytes, each further from the bus
    // bandwidth, where the whole prompt's one pass of 2,048 rows pays neither: that much more work, by the planner's own
    // layer costs (a GEMM's tensor-core time; the rest of the forward less its attention).
    const rowsCost = (rows: number) => {
      const input = planFor({ ...base, globalBatchSize: 1, dropout: false, seqLength: rows }, {
        tensor: 8, pipeline: 1, data: 1, context: 1, virtualStages: 1, microBatchSize: 1, sequenceParallel: false, recompute: 'none', sharding: 'none',
      });
      const cost = layerComputeCost(input, kernelContext(input, resolveCalibration(input)), peak16(input.gpu));
      return cost.gemmForwardCompute + (layerProfile(input).forwardSeconds - cost.gemmForward - cost.attentionForward);
    };
    const chunkedWork = work + (64 / shape.outputTokens) * base.model.layers * (8 * rowsCost(256) - rowsCost(2048));
    expect(chunkedWork).toBeGreaterThan(work);
    const whole = estimate({ ...shape, batch: 64, batching: 'continuous' });
    const chunked = estimate({ ...shape, batch: 64, batching: 'continuous', prefillChunkTokens: 256 });
    const hidden = (e: InferenceEstimate, w: number) => (stat.decodeStepSeconds + w - meanIteration(e)) / w;
    // The prompt's GEMMs and attention can hide; its element-wise kernels and all-reduces (under half of it) cannot.
    expect(hidden(chunked, chunkedWork)).toBeGreaterThan(0.5);
    expect(hidden(chunked, chunkedWork)).toBeLessThan(1);
    expect(hidden(whole, work)).toBeGreaterThan(0);
    expect(hidden(whole, work)).toBeLessThan(0.1);
    // Sarathi-Serve's trade: chunks make every token faster and the first token slower (it waits for its 8 iterations).
    expect(chunked.decodeStepSeconds).toBeLessThan(whole.decodeStepSeconds);
    expect(chunked.prefillSeconds).toBeGreaterThan(whole.prefillSeconds);
  });

  it('a chunk no shorter than the prompt prefills it whole, but no more prompt tokens an iteration than the chunk', () => {
    const whole = estimate({ ...shape, batch: 64, batching: 'continuous' });
    const one = estimate({ ...shape, batch: 64, batching: 'continuous', prefillChunkTokens: shape.promptTokens });
    // The figures at batch 64 are the whole prompt's; only the largest batch fitting in memory differs, as a pass past
    // it would carry at most one 2,048-token prompt where whole prompts may come two at a time (activation memory).
    // (The chunk's own limit on the batch, chunkBatchLimit, is the one figure whole prompts have none of.)
    expect({ ...one, maxBatch: whole.maxBatch, chunkBatchLimit: undefined }).toEqual({ ...whole, shape: expect.anything() });
    expect(estimate({ ...shape, batch: 64, batching: 'continuous', prefillChunkTokens: 1e6 }).decodeStepSeconds).toBe(whole.decodeStepSeconds);
    // A 2,048-token budget takes one prompt an iteration: slots held O = 512 iterations keep at most 512 running
    // (512 × 2,048 / 2,048); whole prompts, any number an iteration, have no such limit.
    const at = (batch: number, prefillChunkTokens?: number) => estimateInference(base, { ...shape, batch, batching: 'continuous', prefillChunkTokens });
    expect(at(512, 2048).ok).toBe(true);
    expect(at(513, 2048)).toMatchObject({ ok: false, reason: 'prefill-chunk' });
    expect(at(513).ok).toBe(true);
  });

  it.each([[1, 8], [2, 8], [4, 64], [8, 64]])('PP %i, batch %i: the first token waits out the running iteration, then rides one carrying its whole prefill', (pipeline, batch) => {
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    // The prompt's work as it adds to a decode: its first token alone, less the lone sequence's decode round it rides.
    const alone = estimate({ ...shape, pipeline, batch: 1, batching: 'continuous' }).prefillSeconds - estimate({ ...shape, pipeline, batch: 1 }).decodeStepSeconds;
    const decode = estimate({ ...shape, pipeline, batch }).decodeStepSeconds;
    // The running iteration waited out is the replica's mean one (meanIteration); the carrying iteration is at least the
    // prompt's work, and at most that and a decode step one after the other.
    expect(cont.prefillSeconds).toBeGreaterThanOrEqual(meanIteration(cont) + alone);
    expect(cont.prefillSeconds).toBeLessThan(meanIteration(cont) + alone + decode);
  });

  it.each([1, 2, 4])('PP %i, a sequence alone: nothing runs before its prompt, so its first token is about its prefill alone', (pipeline) => {
    const cont = estimate({ ...shape, pipeline, batch: 1, batching: 'continuous' });
    const stat = estimate({ ...shape, pipeline, batch: 1 });
    // Fused into the decode's kernels, the prompt's launches and all-reduce latencies are the decode's (CUDA-graph
    // cheap), not a standalone forward's: a 2,048-token prompt's are a few per cent of its prefill at TP 8.
    expect(cont.prefillSeconds).toBeGreaterThan(0.9 * stat.prefillSeconds);
    expect(cont.prefillSeconds).toBeLessThan(stat.prefillSeconds + stat.decodeStepSeconds);
  });

  it('a one-token prompt rides the decode\'s kernels: its first token takes about a decode step, not a standalone forward\'s launches', () => {
    const one = { ...shape, promptTokens: 1, batch: 1 };
    const cont = estimate({ ...one, batching: 'continuous' });
    const stat = estimate(one);
    // One more row in GEMMs that stream the weights anyway, one attention kernel, one token's element-wise traffic.
    expect(cont.prefillSeconds / stat.decodeStepSeconds).toBeGreaterThanOrEqual(1);
    expect(cont.prefillSeconds / stat.decodeStepSeconds).toBeLessThan(1.1);
    // A standalone forward of it (static) reads the weights again and pays eager launches: well over a decode step.
    expect(stat.prefillSeconds / stat.decodeStepSeconds).toBeGreaterThan(1.5);
  });

  it.each([2, 4, 8])('PP %i with a micro-batch per stage: the stages share the admitted prompts\' prefill, each adding at most about 1/PP of it', (pipeline) => {
    const batch = 64;
    const stat = estimate({ ...shape, pipeline, batch });
    const cont = estimate({ ...shape, pipeline, batch, batching: 'continuous' });
    const prefillWork = (batch / shape.outputTokens) * estimate({ ...shape, pipeline, batch: 1 }).prefillSeconds;
    const added = meanIteration(cont) - stat.decodeStepSeconds;
    // Each stage prefills its own layers of the prompts, not every layer (one stage doing all of it would
    // add prefillWork); the 10 % is the sends of the prompts' activations between the stages.
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan((1.1 * prefillWork) / pipeline);
  });

  it('PP keeps the per-GPU throughput: TP 8 · PP 2 at batch 2m serves like TP 8 alone at batch m (as static batching does)', () => {
    const m = 32;
    const tp = estimate({ ...shape, batch: m, batching: 'continuous' });
    const pp = estimate({ ...shape, pipeline: 2, batch: 2 * m, batching: 'continuous' });
    expect(pp.tokensPerSecondPerGpu / tp.tokensPerSecondPerGpu).toBeCloseTo(1, 2);
  });

  it('the prefill is paid for: the longer each sequence generates, the nearer its throughput comes to static decoding alone', () => {
    // Batch 8 fits the KV cache of a 100k-token context on TP 8.
    const ratio = (outputTokens: number) => {
      const s = { ...shape, batch: 8, outputTokens };
      // Static decoding alone: b over its step, on TP 8 (its tokens/s per GPU also counts its batch's prefill).
      return estimate({ ...s, batching: 'continuous' }).tokensPerSecondPerGpu / (8 / estimate(s).decodeStepSeconds / 8);
    };
    expect(ratio(100)).toBeLessThan(0.9);
    expect(ratio(100_000)).toBeGreaterThan(0.999);
    expect(ratio(100_000)).toBeLessThan(1);
  });

  it('the KV cache is paged: a sequence holds its prompt and half its output on average (within a 16-token block), not its full context', () => {
    const stat = estimate({ ...shape, batch: 64 });
    const cont = estimate({ ...shape, batch: 64, batching: 'continuous' });
    const full = shape.promptTokens + shape.outputTokens;
    const mean = shape.promptTokens + shape.outputTokens / 2;
    const ratio = cont.kvCacheBytesPerGpu / stat.kvCacheBytesPerGpu;
    expect(ratio).toBeGreaterThan(mean / full);
    expect(ratio).toBeLessThan((mean + 16) / full);
    // The weights and the runtime reserve are the same; the cache shrinks, and so do the activations: an iteration's forward pass
    // takes the 64 decode tokens and the one prompt admitted (64 / 512 of one a step), not the static batch's 64 prompts at once.
    const rest = (e: InferenceEstimate) => e.totalBytesPerGpu - e.kvCacheBytesPerGpu - e.activationBytesPerGpu;
    expect(rest(cont)).toBe(rest(stat));
    expect(stat.forwardTokens).toBe(64 * 2048);
    expect(cont.forwardTokens).toBe(64 + 2048);
    expect(cont.maxBatch).toBeGreaterThan(stat.maxBatch);
  });

  it('a short prompt with a long output nearly doubles the largest batch: sequences hold half their output on average', () => {
    const s = { ...shape, batch: 1, promptTokens: 128, outputTokens: 8192 };
    const ratio = estimate({ ...s, batching: 'continuous' }).maxBatch / estimate(s).maxBatch;
    expect(ratio).toBeGreaterThan(1.9);
    // A little over 2: the static batch also holds the activations of its 128-token prompts prefilled together.
    expect(ratio).toBeLessThan(2.05);
  });
});

describe('planInference with batching and the GPUs available', () => {
  const search = { promptTokens: 2048, outputTokens: 512 };
  const shapes = (r: ReturnType<typeof planInference>) => r.byShape.map((s) => [s.tensor, s.pipeline]);

  it('passes the batching to every point it tries', () => {
    const r = planInference(base, { ...search, batching: 'continuous', tensor: [8], pipeline: [1, 2] });
    expect(r.points.length).toBeGreaterThan(0);
    expect(r.points.every((p) => p.batching === 'continuous')).toBe(true);
    expect(planInference(base, { ...search, tensor: [8], pipeline: [1] }).points.every((p) => p.batching === 'static')).toBe(true);
  });

  it('without gpus every default shape is tried: TP 1 to the NVLink domain of 8, PP 1 to 8', () => {
    expect(shapes(planInference(base, search))).toHaveLength(4 * 4);
  });

  it('on 4 GPUs no shape of more than 4 GPUs is tried nor listed: no TP 8, no TP 4 · PP 2', () => {
    const r = planInference(base, { ...search, gpus: 4 });
    expect(shapes(r)).toEqual([[1, 1], [1, 2], [1, 4], [2, 1], [2, 2], [4, 1]]);
    expect(r.points.every((p) => p.shape.tensor <= 4 && 4 % (p.shape.tensor * p.shape.pipeline) === 0)).toBe(true);
  });

  it('on 6 GPUs only shapes of 1, 2, 3 or 6 GPUs are tried, of the degrees given', () => {
    const r = planInference(base, { ...search, gpus: 6, tensor: [1, 2, 3, 4, 6, 8], pipeline: [1, 2, 3, 4] });
    expect(shapes(r)).toEqual([[1, 1], [1, 2], [1, 3], [2, 1], [2, 3], [3, 1], [3, 2], [6, 1]]);
  });

  it('on 6 GPUs by default: TP a power of two up to 6, PP any depth dividing 6, so replicas of 1, 2, 3 or 6 GPUs', () => {
    expect(shapes(planInference(base, { ...search, gpus: 6 }))).toEqual([[1, 1], [1, 2], [1, 3], [1, 6], [2, 1], [2, 3]]);
  });

  it('on 16 GPUs the default TP stays within the NVLink domain (8) and PP reaches 8', () => {
    const r = planInference(base, { ...search, gpus: 16 });
    expect(Math.max(...r.byShape.map((s) => s.tensor))).toBe(base.nvlinkDomainGpus);
    expect(shapes(r)).toContainEqual([8, 2]);
    expect(shapes(r)).toContainEqual([2, 8]);
    expect(shapes(r)).not.toContainEqual([4, 8]);
  });

  it('GPUs that no shape given divides leave nothing tried', () => {
    const r = planInference(base, { ...search, gpus: 4, tensor: [8] });
    expect([r.byShape, r.points, r.best]).toEqual([[], [], undefined]);
  });
});
