import { describe, expect, it } from 'vitest';
import { estimateInference, kvCacheBytesPerTokenFor, latencyThroughputFrontier, planInference, type InferenceEstimate } from '../src/index.ts';
import { gpuById } from '@trainplan/hardware';
import { parameterBreakdown } from '@trainplan/model';
import { decodeLayer } from '../src/inference/decode-layer.ts';
import { a100Fabric, gpt3Base, llama70bBase } from './fixtures.ts';

const base = llama70bBase;

describe('KV cache', () => {
  it('Llama 2 70B keeps 2 × 80 layers × 8 KV heads × 128 dims × 2 bytes = 320 KiB per token (GQA)', () => {
    expect(kvCacheBytesPerTokenFor(base, 1, 80)).toBe(2 * 80 * 8 * 128 * 2);
  });
  it('splits over tensor-parallel ranks down to one KV head per rank, then replicates', () => {
    const one = kvCacheBytesPerTokenFor(base, 1, 80);
    expect(kvCacheBytesPerTokenFor(base, 8, 80)).toBe(one / 8);
    expect(kvCacheBytesPerTokenFor(base, 16, 80)).toBe(one / 8);
  });
  it('FP8 halves it', () => {
    expect(kvCacheBytesPerTokenFor({ ...base, precision: 'fp8' }, 1, 80)).toBe(kvCacheBytesPerTokenFor(base, 1, 80) / 2);
  });
});

describe('estimateInference', () => {
  const shape = { tensor: 8, pipeline: 1, promptTokens: 2048, outputTokens: 512 };

  it('70B in 16-bit does not fit one 80 GB GPU; it does on TP 8', () => {
    const single = estimateInference(base, { ...shape, tensor: 1, batch: 1 });
    expect(single.ok).toBe(false);
    expect(estimateInference(base, { ...shape, batch: 1 }).ok).toBe(true);
    // The refusal's parts add up to the total it names.
    if (single.ok) return;
    const gib = [...single.message.matchAll(/([\d.]+) GiB/g)].map((m) => Number(m[1]));
    expect(single.message).toMatch(/^needs [\d.]+ GiB per GPU \(weights [\d.]+ GiB, KV cache [\d.]+ GiB, activations [\d.]+ GiB for 2,048 tokens in one forward pass, runtime 2\.0 GiB\)/);
    expect(gib[1]! + gib[2]! + gib[3]! + gib[4]!).toBeCloseTo(gib[0]!, 0);
  });

  it('the first token of a static batch carries the prompts\' logits: a vocabulary 32,000 entries larger adds their weights\' read, nothing else', () => {
    const prefill = (vocabSize: number) => {
      const e = estimateInference({ ...base, model: { ...base.model, vocabSize } }, { ...shape, batch: 4 });
      if (!e.ok) throw new Error(e.message);
      return e.prefillSeconds;
    };
    // 32,000 more rows of h bf16 weights, split over TP 8, read at the calibrated share of HBM bandwidth (decode-layer.ts).
    const bytes = (32_000 * base.model.hiddenSize * 2) / shape.tensor;
    expect(prefill(base.model.vocabSize + 32_000) - prefill(base.model.vocabSize)).toBeCloseTo(bytes / (base.gpu.hbmBandwidth * 0.7), 9);
  });

  it('with a pipeline, the last stage reads the logits\' weights for each micro-batch: where that makes it the slowest, each micro-batch waits on them', () => {
    const pipelined = { tensor: 1, pipeline: 8, promptTokens: 16, outputTokens: 8, batch: 8 };
    const prefill = (vocabSize: number) => {
      const e = estimateInference({ ...base, model: { ...base.model, vocabSize } }, pipelined);
      if (!e.ok) throw new Error(e.message);
      return e.prefillSeconds;
    };
    // A vocabulary 8× larger makes the output layer's read the slowest stage at 16-token prompts: all 8 micro-batches pay it.
    const extra = prefill(8 * base.model.vocabSize) - prefill(base.model.vocabSize);
    const perRead = (7 * base.model.vocabSize * base.model.hiddenSize * 2) / (base.gpu.hbmBandwidth * 0.7);
    expect(extra).toBeGreaterThan(7 * perRead);
  });

  it('an indivisible TP names only what does not split: the heads, the FFN, or both', () => {
    const message = (attentionHeads: number, ffnHiddenSize: number) => {
      const e = estimateInference({ ...base, model: { ...base.model, attentionHeads, ffnHiddenSize } }, { ...shape, batch: 1 });
      return e.ok ? '' : e.message;
    };
    // GPT-3 125M's 12 heads and FFN 3072 on TP 8: the FFN splits, the heads do not.
    expect(message(12, 3072)).toBe('12 heads do not split over TP 8');
    expect(message(64, 3004)).toBe('FFN 3004 does not split over TP 8');
    expect(message(12, 3004)).toBe('12 heads and FFN 3004 do not split over TP 8');
  });

  it('the largest batch fits and one more sequence does not', () => {
    const e = estimateInference(base, { ...shape, batch: 1 });
    if (!e.ok) throw new Error(e.message);
    expect(estimateInference(base, { ...shape, batch: e.maxBatch }).ok).toBe(true);
    expect(estimateInference(base, { ...shape, batch: e.maxBatch + 1 }).ok).toBe(false);
  });

  it('gpuMemoryUtilization holds back headroom: 0.9 of 80 GB leaves 8 GB less for the KV cache and activations, 40 fewer sequences', () => {
    // Llama 2 70B on TP 8: 2,048 + 512 tokens × 2 × 80 layers × 1 KV head × 128 dims × 2 bytes = 100 MiB a sequence per GPU,
    // and its 2,048-token prompt, prefilled with the batch's, 2,048 × (2 × 8,192 + 3 × 28,672 / 8) × 2 bytes = 106 MiB of activations.
    const all = estimateInference(base, { ...shape, batch: 1 });
    const vllm = estimateInference(base, { ...shape, batch: 1, gpuMemoryUtilization: 0.9 });
    if (!all.ok || !vllm.ok) throw new Error('TP 8 serves 70B');
    const headroomSequences = (0.1 * base.gpu.hbmBytes) / (2560 * 2 * 80 * 128 * 2 + 2048 * (2 * 8192 + (3 * 28672) / 8) * 2);
    expect(all.maxBatch - vllm.maxBatch).toBeGreaterThanOrEqual(Math.floor(headroomSequences));
    expect(all.maxBatch - vllm.maxBatch).toBeLessThanOrEqual(Math.ceil(headroomSequences));
    expect(vllm.usableBytes).toBeCloseTo(0.9 * vllm.capacityBytes, 0);
    expect(all.usableBytes).toBe(all.capacityBytes);
    // A batch that fits all of the memory but not the usable part is refused, saying which limit it hit.
    const over = estimateInference(base, { ...shape, batch: all.maxBatch, gpuMemoryUtilization: 0.9 });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.message).toMatch(/may be used \(gpuMemoryUtilization 0\.9\)/);
  });

  it('an FP8 KV cache beside 16-bit weights halves the cache, not the weights: 50 MiB a sequence, about twice the batch', () => {
    // 2,560 tokens × 2 × 80 layers × 1 KV head a rank × 128 dims × 1 byte = 50 MiB a sequence on each GPU of TP 8.
    const bf16 = estimateInference(base, { ...shape, batch: 64 });
    const fp8 = estimateInference(base, { ...shape, batch: 64, kvCachePrecision: 'fp8' });
    if (!bf16.ok || !fp8.ok) throw new Error('TP 8 serves 70B');
    expect(fp8.kvCacheBytesPerGpu).toBe(64 * 2560 * 2 * 80 * 128 * 1);
    expect(fp8.kvCacheBytesPerGpu).toBe(bf16.kvCacheBytesPerGpu / 2);
    expect(fp8.weightsBytesPerGpu).toBe(bf16.weightsBytesPerGpu);
    // The free memory holds each sequence's 50 MiB of cache and its prompt's 106 MiB of activations (static: prefilled together).
    const runtime = fp8.totalBytesPerGpu - fp8.weightsBytesPerGpu - fp8.kvCacheBytesPerGpu - fp8.activationBytesPerGpu;
    const free = fp8.usableBytes - fp8.weightsBytesPerGpu - runtime;
    expect(fp8.maxBatch).toBe(Math.floor(free / (2560 * 2 * 80 * 128 + 2048 * (2 * 8192 + (3 * 28672) / 8) * 2)));
    // Each step reads half the cache: faster per token, but not as fast as FP8 weights too.
    const allFp8 = estimateInference({ ...base, precision: 'fp8' }, { ...shape, batch: 64 });
    if (!allFp8.ok) throw new Error('FP8 serves 70B');
    expect(fp8.decodeStepSeconds).toBeLessThan(bf16.decodeStepSeconds);
    expect(fp8.decodeStepSeconds).toBeGreaterThan(allFp8.decodeStepSeconds);
    // Naming the weights' own precision changes nothing; FP8 weights with a 16-bit cache hold the 16-bit cache.
    expect(estimateInference(base, { ...shape, batch: 64, kvCachePrecision: 'bf16' })).toEqual({ ...bf16, shape: { ...bf16.shape, kvCachePrecision: 'bf16' } });
    const fp8Weights = estimateInference({ ...base, precision: 'fp8' }, { ...shape, batch: 64, kvCachePrecision: 'bf16' });
    if (!fp8Weights.ok) throw new Error('FP8 serves 70B');
    expect(fp8Weights.kvCacheBytesPerGpu).toBe(bf16.kvCacheBytesPerGpu);
    expect(fp8Weights.weightsBytesPerGpu).toBe(allFp8.weightsBytesPerGpu);
  });

  it('FP8 weights are the layers\' linears at 1 byte beside a 16-bit embedding and output layer, as vLLM loads Llama 3.1 70B w8a8', () => {
    // Llama 3.1 70B: Llama 2 70B's layers with a 128,256-token vocabulary, on one GPU. By hand: embedding and output layer
    // 2 × 128,256 × 8,192 = 2.101B parameters at 2 bytes; the rest at 1. vllm-project/vllm#12569 logs "Loading model weights
    // took 67.72 GB" (its GiB) for this model in w8a8 on one GPU; every parameter at 1 byte would be 65.7 GiB.
    const llama31 = { ...base, precision: 'fp8' as const, model: { ...base.model, vocabSize: 128256 } };
    const e = estimateInference(llama31, { tensor: 1, pipeline: 1, promptTokens: 2047, outputTokens: 2, batch: 1, gpuMemoryUtilization: 0.98 });
    if (!e.ok) throw new Error(e.message);
    const [h, kv, f] = [8192, 8 * 128, 28672];
    const linears = 2 * h * h + 2 * h * kv + 3 * h * f;
    // A layer: its linears at 1 byte and two RMSNorm weights (h each) at 2; outside the layers, the final norm and the two
    // tables at 2.
    expect(e.weightsBytesPerGpu).toBe(80 * (linears + 2 * 2 * h) + 2 * (h + 2 * 128256 * h));
    expect(Math.abs(e.weightsBytesPerGpu / 2 ** 30 / 67.72 - 1)).toBeLessThan(0.005);
    // On TP 8, FP8 saves a byte of each linear parameter on a GPU (its share of them), none of the norms, the embedding
    // and the output layer.
    const tp8 = estimateInference(llama31, { ...shape, batch: 1 });
    const bf16 = estimateInference({ ...llama31, precision: 'bf16' }, { ...shape, batch: 1 });
    if (!tp8.ok || !bf16.ok) throw new Error('TP 8 serves 70B');
    expect(bf16.weightsBytesPerGpu - tp8.weightsBytesPerGpu).toBeCloseTo(80 * (linears / 8), 0);
  });

  it('a faster GPU decodes faster: the same TP 8 replica on A100 (2.0 TB/s) takes longer per token than on H100 (3.35 TB/s)', () => {
    // Decode is HBM-bound; serving replays it as a CUDA graph, so training's eager launch gap (Hopper's fit) is not paid.
    const onA100 = { ...base, gpu: gpuById('a100-80gb')!, fabric: a100Fabric };
    const [h, a] = [estimateInference(base, { ...shape, batch: 1 }), estimateInference(onA100, { ...shape, batch: 1 })];
    if (!h.ok || !a.ok) throw new Error('refused');
    expect(h.decodeStepSeconds).toBeLessThan(a.decodeStepSeconds);
  });

  it('decoding one sequence is bound by HBM: at least the weights over the HBM bandwidth', () => {
    const e = estimateInference(base, { ...shape, batch: 1 });
    if (!e.ok) throw new Error(e.message);
    expect(e.memoryBound).toBe(true);
    expect(e.decodeStepSeconds).toBeGreaterThan(e.weightsBytesPerGpu / base.gpu.hbmBandwidth);
  });

  it('with PP, the batch circulates as PP micro-batches so every stage is busy: TP 8 · PP 2 at batch 2m steps like TP 8 alone at batch m, at the same tokens/s per GPU', () => {
    // A long prompt makes the KV cache a large share of each step's HBM traffic, so a step over the whole
    // batch at once (one micro-batch crossing the stages in turn) would be visibly slower.
    const long = { promptTokens: 8192, outputTokens: 512 };
    const m = 8;
    const tp = estimateInference(base, { ...long, tensor: 8, pipeline: 1, batch: m });
    const pp = estimateInference(base, { ...long, tensor: 8, pipeline: 2, batch: 2 * m });
    const whole = estimateInference(base, { ...long, tensor: 8, pipeline: 1, batch: 2 * m });
    if (!tp.ok || !pp.ok || !whole.ok) throw new Error('expected all three to fit');
    expect(pp.microBatches).toBe(2);
    expect(pp.decodeStepSeconds / tp.decodeStepSeconds - 1).toBeLessThan(0.01);
    expect(pp.decodeStepSeconds).toBeGreaterThanOrEqual(tp.decodeStepSeconds);
    // Decoding (every sequence of the batch gets a token per step), tokens/s per GPU are TP 8's alone.
    expect((2 * m / pp.decodeStepSeconds / 16) / (m / tp.decodeStepSeconds / 8)).toBeCloseTo(1, 2);
    // Reading the KV cache of 2m sequences per layer takes longer than m: the pipelined step is shorter.
    expect(pp.decodeStepSeconds).toBeLessThan(whole.decodeStepSeconds);
  });

  it('prefill on PP pipelines the micro-batches: faster than the whole batch crossing the stages in turn, never faster than its compute split over the stages', () => {
    const batch = 8;
    const pp = estimateInference(base, { ...shape, tensor: 8, pipeline: 4, batch });
    const lone = estimateInference(base, { ...shape, tensor: 8, pipeline: 4, batch: 1 });
    const tp = estimateInference(base, { ...shape, tensor: 8, pipeline: 1, batch });
    if (!pp.ok || !lone.ok || !tp.ok) throw new Error('expected all three to fit');
    // One micro-batch per stage: the whole batch crossing the 4 stages in turn would take as long as TP 8
    // alone (each stage a quarter of the layers, one after another); pipelined, k = p = 4 micro-batches take
    // (k + p − 1)/(k·p) = 7/16 of that, plus sends: under half …
    expect(pp.microBatches).toBe(4);
    expect(pp.prefillSeconds).toBeLessThan(0.5 * tp.prefillSeconds);
    // … and no faster than TP 8 alone spread over 4 stages' worth of GPUs (the same FLOPs on 4× the GPUs).
    expect(pp.prefillSeconds).toBeGreaterThan(tp.prefillSeconds / 4);
    expect(lone.prefillSeconds).toBeLessThan(pp.prefillSeconds);
  });

  it('a lone sequence on PP 2 has no second micro-batch: one stage waits while the other works', () => {
    const one = estimateInference(base, { ...shape, pipeline: 2, batch: 1 });
    if (!one.ok) throw new Error(one.message);
    expect(one.microBatches).toBe(1);
    // A step of one stage after the other: no faster than the two stages' decode in turn.
    const tp = estimateInference(base, { ...shape, batch: 1 });
    if (!tp.ok) throw new Error(tp.message);
    expect(one.decodeStepSeconds).toBeGreaterThanOrEqual(tp.decodeStepSeconds);
  });

  it('static batching\'s tokens/s per GPU are over a batch\'s life: b·O tokens over its prefill and O − 1 decode steps', () => {
    const e = estimateInference(base, { ...shape, batch: 64 });
    if (!e.ok) throw new Error(e.message);
    const life = e.prefillSeconds + (shape.outputTokens - 1) * e.decodeStepSeconds;
    expect(e.tokensPerSecondPerGpu).toBeCloseTo((64 * shape.outputTokens) / life / 8, 9);
    // Long prompts and few outputs: the prefill is most of the batch's life, and decoding alone would overstate it.
    const short = estimateInference(base, { ...shape, promptTokens: 8192, outputTokens: 16, batch: 64 });
    if (!short.ok) throw new Error(short.message);
    expect(short.tokensPerSecondPerGpu).toBeLessThan(0.5 * (64 / short.decodeStepSeconds / 8));
  });

  it('batching raises tokens/s per GPU and the per-token latency', () => {
    const one = estimateInference(base, { ...shape, batch: 1 });
    const many = estimateInference(base, { ...shape, batch: 64 });
    if (!one.ok || !many.ok) throw new Error('expected both to fit');
    expect(many.tokensPerSecondPerGpu).toBeGreaterThan(10 * one.tokensPerSecondPerGpu);
    expect(many.decodeStepSeconds).toBeGreaterThan(one.decodeStepSeconds);
  });
});

describe('planInference', () => {
  const result = planInference(base, { promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05 });

  it('the frontier is Pareto: along rising latency, throughput strictly rises', () => {
    const f = result.frontier;
    expect(f.length).toBeGreaterThan(2);
    for (let i = 1; i < f.length; i++) {
      expect(f[i]!.decodeStepSeconds).toBeGreaterThanOrEqual(f[i - 1]!.decodeStepSeconds);
      expect(f[i]!.tokensPerSecondPerGpu).toBeGreaterThan(f[i - 1]!.tokensPerSecondPerGpu);
    }
  });

  it('no point dominates a frontier point', () => {
    for (const f of result.frontier) {
      const dominated = result.points.some((p) => p.decodeStepSeconds < f.decodeStepSeconds && p.tokensPerSecondPerGpu > f.tokensPerSecondPerGpu);
      expect(dominated).toBe(false);
    }
  });

  it('the best plan meets the bound and has the most tokens/s per GPU among those that do', () => {
    expect(result.best!.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    const ok = result.points.filter((p) => p.decodeStepSeconds <= 0.05);
    expect(Math.max(...ok.map((p) => p.tokensPerSecondPerGpu))).toBe(result.best!.tokensPerSecondPerGpu);
  });

  it('an impossible latency bound answers with the closest plan and the figure that misses, saying it once', () => {
    const r = planInference(base, { promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 1e-6 });
    expect(r.best).toBeUndefined();
    const p = r.closest!.point;
    // The closest to a decode bound is the point with the lowest decode latency.
    expect(p.decodeStepSeconds).toBe(Math.min(...r.points.map((x) => x.decodeStepSeconds)));
    expect(r.closest!.why).toMatch(/^the closest plan \(TP \d+, PP \d+, batch \d+\) decodes a token in [\d.]+ ms against the 1\.00 µs bound; its first token comes after [\d.]+ m?s$/);
    expect(r.closest!.why).not.toMatch(/no plan meets/);
  });

  it('with only a first-token bound, the closest plan is the one with the fastest prefill, and the why names that bound', () => {
    const r = planInference(base, { promptTokens: 2048, outputTokens: 512, maxPrefillSeconds: 1e-6 });
    const p = r.closest!.point;
    expect(p.prefillSeconds).toBe(Math.min(...r.points.map((x) => x.prefillSeconds)));
    expect(r.closest!.why).toMatch(/first token comes after [\d.]+ m?s against the 1\.00 µs bound$/);
  });

  it('warns when prompt + output exceed the model\'s sequence length, and not otherwise', () => {
    expect(result.warnings).toEqual([]);
    const long = planInference(base, { promptTokens: 100_000, outputTokens: 100, tensor: [8], pipeline: [8], batches: [1] });
    expect(long.warnings).toHaveLength(1);
    expect(long.warnings[0]).toContain(`longer than ${base.model.name}'s sequence length (${base.model.seqLength.toLocaleString('en-US')} tokens)`);
    // A shape given without a name is "the custom model", and nothing is said of a preset.
    const custom = planInference({ ...base, model: { ...base.model, name: 'custom' } }, { promptTokens: 100_000, outputTokens: 100, tensor: [8], pipeline: [8], batches: [1] });
    expect(custom.warnings[0]).toContain('longer than the custom model\'s sequence length');
    expect(custom.warnings[0]).not.toMatch(/preset|custom's/);
  });

  it('a model with learned positions (GPT-3 175B: 2,048) cannot attend past its table: 2,048 + 512 tokens says so, not only "a long-context variant"', () => {
    const r = planInference(gpt3Base, { promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [8], batches: [1] });
    expect(gpt3Base.model.positionEmbedding).toBe('learned');
    expect(r.warnings).toEqual([
      'the context (2,048 prompt + 512 output = 2,560 tokens) is longer than gpt3-175b\'s 2,048 learned positions: as published it has none '
        + 'past them, so cannot attend further; the estimate assumes a variant trained at this length',
    ]);
    // Within its 2,048 positions nothing is said; a rotary model past its length is the long-context variant as before.
    expect(planInference(gpt3Base, { promptTokens: 1536, outputTokens: 512, tensor: [8], pipeline: [8], batches: [1] }).warnings).toEqual([]);
    expect(planInference(base, { promptTokens: 100_000, outputTokens: 100, tensor: [8], pipeline: [8], batches: [1] }).warnings[0]).toMatch(/a long-context variant/);
  });

  it('latencyThroughputFrontier keeps the non-dominated points of a hand-made set', () => {
    const p = (latency: number, tps: number) => ({ decodeStepSeconds: latency, tokensPerSecondPerGpu: tps }) as InferenceEstimate;
    const frontier = latencyThroughputFrontier([p(1, 10), p(2, 5), p(2, 20), p(3, 15), p(4, 30)]);
    expect(frontier.map((x) => [x.decodeStepSeconds, x.tokensPerSecondPerGpu])).toEqual([[1, 10], [2, 20], [4, 30]]);
  });
});

describe('QA (mutation testing): decode attention\'s FLOPs, which a memory-bound step hides', () => {
  it('a token attends over its context at 4 · context · h FLOPs a layer beside its 2 × parameters (QK^T and AV, 2 FLOPs a multiply-add)', () => {
    const at = (meanContext: number) => decodeLayer({ base, model: base.model, tensor: 1, microBatch: 1, meanContext, kvBytesPerToken: 0 }).computeSeconds;
    // Llama 2 70B's layer: Q and O 8,192², K and V 8,192 × 1,024, the gated MLP 3 × 8,192 × 28,672 = 855,638,016 parameters.
    expect(parameterBreakdown(base.model).perLayerTensorParallel).toBe(855_638_016);
    expect((at(1000) - at(0)) / at(0)).toBeCloseTo((4 * 1000 * 8192) / (2 * 855_638_016), 9);
  });
});
