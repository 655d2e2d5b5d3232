import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contextParallelLayerComm, estimatePlan, parallelGroups, pipelineTime, placedDomainGpus, type PlanEstimate, type PlanInput } from '../src/index.ts';
import { gpuById } from '@trainplan/hardware';
import { gb200Fabric, gpt3OnSelene, llamaOnH100 } from './fixtures.ts';

function ok(input: PlanInput): PlanEstimate {
  const e = estimatePlan(input);
  if (!e.ok) throw new Error(`expected a feasible plan: ${e.message}`);
  return e;
}

/** Every number anywhere in the answer is finite. */
function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value && typeof value === 'object') return Object.values(value).every(allFinite);
  return true;
}

describe('pipeline schedule', () => {
  it.each([[8, 1, 64], [8, 3, 64], [4, 2, 16], [35, 3, 280]])('equal stages (p=%i, v=%i, m=%i): bubble is (p−1)/(v·m) of the ideal time', (p, v, m) => {
    const t = 0.25;
    const { steadySeconds, bubbleSeconds } = pipelineTime({ stageSeconds: Array(p).fill(t), microBatches: m, virtualStages: v });
    expect(steadySeconds).toBe(m * t);
    expect(bubbleSeconds / steadySeconds).toBeCloseTo((p - 1) / (v * m), 12);
  });
  it('no pipeline, no bubble', () => {
    expect(pipelineTime({ stageSeconds: [1], microBatches: 8, virtualStages: 1 }).bubbleSeconds).toBe(0);
  });
  it('the slowest stage sets the pace', () => {
    expect(pipelineTime({ stageSeconds: [1, 2, 1, 1], microBatches: 10, virtualStages: 1 }).steadySeconds).toBe(20);
  });
  it('unequal stages: steady plus bubble is the makespan of m micro-batches run through the stages in order (QA: [1, 1, 1, 2] bubble 3, was 3.75)', () => {
    // The schedule simulated micro-batch by micro-batch: micro-batch j leaves stage i once it left stage i − 1 and
    // micro-batch j − 1 left stage i (one at a time on each stage), a flow shop with no buffer limit.
    const makespan = (t: readonly number[], m: number): number => {
      const done = t.map(() => 0);
      for (let j = 0; j < m; j++) t.forEach((ti, i) => { done[i] = Math.max(done[i]!, i > 0 ? done[i - 1]! : 0) + ti; });
      return done[t.length - 1]!;
    };
    expect(pipelineTime({ stageSeconds: [1, 1, 1, 2], microBatches: 10, virtualStages: 1 }).bubbleSeconds).toBe(3);
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let k = 0; k < 50; k++) {
      const t = Array.from({ length: 2 + Math.floor(random() * 14) }, () => 0.5 + random());
      const m = 1 + Math.floor(random() * 40);
      const { steadySeconds, bubbleSeconds } = pipelineTime({ stageSeconds: t, microBatches: m, virtualStages: 1 });
      expect(steadySeconds + bubbleSeconds).toBeCloseTo(makespan(t, m), 9);
    }
  });
});

describe('estimatePlan', () => {
  it('breaks the step into parts that sum to the step time', () => {
    for (const input of [gpt3OnSelene, llamaOnH100]) {
      const e = ok(input);
      const b = e.breakdown;
      const sum = b.computeSeconds + b.tensorParallelCommSeconds + b.contextParallelCommSeconds + b.pipelineBubbleSeconds
        + b.pipelineCommSeconds + b.dataParallelCommSeconds + b.optimizerSeconds;
      expect(sum).toBeCloseTo(e.stepTimeSeconds, 9);
    }
  });
  it('memory terms sum to the total', () => {
    const m = ok(gpt3OnSelene).memory;
    expect(m.weightsBytes + m.gradientsBytes + m.optimizerBytes + m.activationsBytes + m.otherBytes).toBeCloseTo(m.totalBytes, 0);
  });
  it('derives throughput from the step: tokens/s = B·s / step', () => {
    const e = ok(gpt3OnSelene);
    expect(e.tokensPerSecond).toBeCloseTo((1536 * 2048) / e.stepTimeSeconds, 6);
    expect(e.microBatches).toBe(1536 / 16);
  });
  it('full recompute makes HFU exceed MFU by the recomputed forward (about 4/3 for GPT-3)', () => {
    const e = ok(gpt3OnSelene);
    expect(e.hfu / e.mfu).toBeGreaterThan(1.3);
    expect(e.hfu / e.mfu).toBeLessThan(1.34);
  });
  it('fills the GPU-hours of a token budget, in whole optimizer steps (one global batch each)', () => {
    const e = ok({ ...gpt3OnSelene, tokens: 300e9 });
    const steps = Math.ceil(300e9 / (gpt3OnSelene.globalBatchSize * gpt3OnSelene.seqLength));
    expect(e.timeToTrain!.seconds).toBeCloseTo(steps * e.stepTimeSeconds, 3);
    // Less than one step more than the fractional count would give.
    expect(e.timeToTrain!.seconds - 300e9 / e.tokensPerSecond).toBeGreaterThanOrEqual(0);
    expect(e.timeToTrain!.seconds - 300e9 / e.tokensPerSecond).toBeLessThan(e.stepTimeSeconds);
    expect(e.timeToTrain!.gpuHours).toBeCloseTo((e.timeToTrain!.seconds * 1024) / 3600, 3);
  });
  it('GPT-3 175B with the paper\'s configuration trains 300B tokens in about a month on 1024 A100 (Narayanan: ~34 days)', () => {
    const e = ok({ ...gpt3OnSelene, tokens: 300e9, attentionKernel: 'unfused', precision: 'fp16', scatterGather: true });
    const days = e.timeToTrain!.seconds / 86400;
    expect(days).toBeGreaterThan(34 * 0.85);
    expect(days).toBeLessThan(34 * 1.15);
  });
  it('overlapping the gradient reduce never makes the step slower', () => {
    const a = ok({ ...llamaOnH100, overlapGradReduce: false });
    const b = ok({ ...llamaOnH100, overlapGradReduce: true });
    expect(b.stepTimeSeconds).toBeLessThanOrEqual(a.stepTimeSeconds);
    expect(b.breakdown.dataParallelCommTotalSeconds).toBeCloseTo(a.breakdown.dataParallelCommTotalSeconds, 12);
  });
  it('context-parallel ranks sum their gradients and share the optimizer shards (Megatron-Core\'s dp-cp group)', () => {
    // Fitting or not (a longer sequence per GPU needs more memory), the answer carries its figures.
    const figures = (x: PlanInput): PlanEstimate => {
      const e = estimatePlan(x);
      return e.ok ? e : e.estimate!;
    };
    // Llama 3 70B, TP 4 · PP 4 on 8 nodes: CP 2 · DP 2 against CP 1 · DP 4 and CP 4 · DP 1.
    const cp2 = figures(llamaOnH100);
    const dp4 = figures({ ...llamaOnH100, context: 1, data: 4, globalBatchSize: 256 });
    const cp4 = figures({ ...llamaOnH100, context: 4, data: 1, globalBatchSize: 64 });
    // With DP 1 there are still four replicas of each weight to reduce over.
    expect(cp4.breakdown.dataParallelCommTotalSeconds).toBeGreaterThan(0);
    // Four weight replicas either way: the same optimizer shard and the same update work.
    for (const e of [cp2, cp4]) {
      expect(e.memory.optimizerBytes).toBeCloseTo(dp4.memory.optimizerBytes, 0);
      expect(e.breakdown.optimizerSeconds).toBeCloseTo(dp4.breakdown.optimizerSeconds, 9);
    }
    // CP 1 · DP 1 (16 GPUs) holds every optimizer state itself: four times the sharded one, nothing to reduce.
    const alone = figures({ ...llamaOnH100, nodes: 2, context: 1, data: 1, globalBatchSize: 16 });
    expect(alone.memory.optimizerBytes / cp4.memory.optimizerBytes).toBeCloseTo(4, 6);
    expect(alone.breakdown.dataParallelCommTotalSeconds).toBe(0);
  });
  it('a plan that fits within 5% of the GPU\'s memory carries a warning; one with room does not', () => {
    const roomy = ok(gpt3OnSelene);
    expect(roomy.memory.totalBytes / roomy.memory.capacityBytes).toBeLessThan(0.95);
    expect(roomy.warnings.some((w) => w.startsWith('peak memory'))).toBe(false);
    // The same plan on a GPU whose memory is 2% larger than its peak.
    const tight = ok({ ...gpt3OnSelene, gpu: { ...gpt3OnSelene.gpu, hbmBytes: roomy.memory.totalBytes * 1.02 } });
    expect(tight.warnings).toContainEqual(expect.stringMatching(/^peak memory is 98\.0% of the GPU's/));
  });
  it('the tight-memory warning names the headroom the search keeps by default (5%, its memoryFraction 0.95)', () => {
    const roomy = ok(gpt3OnSelene);
    const tight = ok({ ...gpt3OnSelene, gpu: { ...gpt3OnSelene.gpu, hbmBytes: roomy.memory.totalBytes * 1.02 } });
    const said = tight.warnings.find((w) => w.startsWith('peak memory'));
    expect(said).toMatch(/ \(the search keeps 5% free by default; memoryFraction 0\.9 keeps 10%\)$/);
  });
  it('at long sequences the MFU is said counted causal too: Llama 3 70B at 128k, not at 8k', () => {
    const causal = /^MFU counts attention over every \(query, key\) pair, as Megatron and NVIDIA count it; counting the causal half the kernels compute, it is ([\d.]+)% \(HFU ([\d.]+)%\)$/;
    expect(ok(llamaOnH100).warnings.some((w) => causal.test(w))).toBe(false);
    const long = ok({ ...llamaOnH100, seqLength: 131072, context: 16, data: 1, tensor: 8, pipeline: 1, nodes: 16, globalBatchSize: 8, recompute: 'full' });
    const said = long.warnings.map((w) => causal.exec(w)).find((m) => m !== null);
    expect(said).toBeDefined();
    // Attention is 1 + s/(6h) of the per-token work counted in full (Korthikanti 2022); counted causal, about half of the s/(6h) part.
    const ratio = Number(said![1]) / 100 / long.mfu;
    const part = 131072 / (6 * 8192);
    expect(ratio).toBeLessThan(0.8);
    expect(ratio).toBeGreaterThan((1 + part / 2) / (1 + part) - 0.05);
    // HFU counted causal: below the full count, above the causal MFU (full recompute adds a forward).
    const hfu = Number(said![2]) / 100;
    expect(hfu).toBeLessThan(0.9 * long.hfu);
    expect(hfu).toBeGreaterThan(Number(said![1]) / 100);
  });
  it('context-parallel exchanges are reported before overlap too: at 128k attention hides them all, and the total says how much it hid', () => {
    const plan: PlanInput = { ...llamaOnH100, seqLength: 131072, context: 16, data: 1, tensor: 8, pipeline: 1, nodes: 16, globalBatchSize: 8, recompute: 'full' };
    const b = ok(plan).breakdown;
    // Ring attention: c − 1 exchanges forward and twice that backward (dK, dV back), each layer, each micro-batch, and
    // the forward's once more in each recomputed layer (full recompute: all 80).
    const { forward, backward } = contextParallelLayerComm(plan, parallelGroups(plan));
    expect(backward).toBeCloseTo(2 * forward, 12);
    const microBatches = 8 / 1; // global batch 8, micro-batch 1, DP 1
    expect(b.contextParallelCommTotalSeconds).toBeCloseTo(microBatches * 80 * (forward + backward + forward), 9);
    expect(b.contextParallelCommSeconds).toBeLessThanOrEqual(b.contextParallelCommTotalSeconds);
    expect(b.contextParallelCommTotalSeconds).toBeGreaterThan(0);
    // Without context parallelism there is nothing to hide.
    expect(ok(gpt3OnSelene).breakdown.contextParallelCommTotalSeconds).toBe(0);
  });
  it('unfused attention computes the whole score matrix, so its MFU has no causal second count; flash attention\'s has', () => {
    const causal = /counting the causal half the kernels compute/;
    // A 1.3B-wide model (24 layers, 2,048 wide) at 32k tokens on one node of 8 A100, TP 8, full recompute: s = 16h.
    const small = { ...gpt3OnSelene, model: { ...gpt3OnSelene.model, layers: 24, hiddenSize: 2048, attentionHeads: 16, ffnHiddenSize: 8192 },
      nodes: 1, tensor: 8, pipeline: 1, data: 1, seqLength: 32768, globalBatchSize: 8 };
    expect(ok({ ...small, attentionKernel: 'flash' }).warnings.some((w) => causal.test(w))).toBe(true);
    expect(ok({ ...small, attentionKernel: 'unfused' }).warnings.some((w) => causal.test(w))).toBe(false);
  });
  it.each(['zero-3', 'distributed-optimizer'] as const)('%s with one replica of the weights (DP 1, CP 1) warns that it shards nothing; with DP 16, no warning', (sharding) => {
    const sharded = /shards the model states across data-parallel \(and context-parallel\) ranks: with one, it shards nothing$/;
    // GPT-3 175B's layers, 8 of them, at TP 8 without a pipeline (ZeRO-3 runs with none: check-plan.ts): one replica on
    // one node, 16 on 16 nodes.
    const shallow = { ...gpt3OnSelene, model: { ...gpt3OnSelene.model, layers: 8 }, pipeline: 1 };
    const alone = ok({ ...shallow, nodes: 1, data: 1, globalBatchSize: 16, sharding });
    expect(alone.warnings).toContainEqual(expect.stringMatching(sharded));
    expect(alone.warnings.find((w) => sharded.test(w))).toMatch(sharding === 'zero-3' ? /^ZeRO-3 / : /^the distributed optimizer /);
    expect(ok({ ...shallow, nodes: 16, data: 16, sharding }).warnings.some((w) => sharded.test(w))).toBe(false);
    expect(ok({ ...shallow, nodes: 1, data: 1, globalBatchSize: 16 }).warnings.some((w) => sharded.test(w))).toBe(false);
  });
  it('ZeRO-2 or 3 with a pipeline is refused as invalid, naming what runs with one (neither DeepSpeed\'s pipeline engine nor Megatron-FSDP runs it); ZeRO-1, or no pipeline, runs', () => {
    expect(gpt3OnSelene.pipeline).toBe(8);
    for (const sharding of ['zero-2', 'zero-3'] as const) {
      const e = estimatePlan({ ...gpt3OnSelene, sharding });
      expect(e.ok).toBe(false);
      if (e.ok) continue;
      expect(e.reason).toBe('invalid');
      expect(e.message).toMatch(new RegExp(`^parallelism\\.zeroStage: ZeRO-${sharding.slice(5)} does not run with a pipeline \\(DeepSpeed and Megatron-FSDP `
        + 'refuse it\\): use zeroStage 1, distributedOptimizer true or pipeline 1$'));
    }
    expect(estimatePlan({ ...gpt3OnSelene, sharding: 'zero-1' }).ok).toBe(true);
    expect(estimatePlan({ ...gpt3OnSelene, pipeline: 1, data: gpt3OnSelene.data * gpt3OnSelene.pipeline, sharding: 'zero-3' }).ok).toBe(true);
  });
  it('TP × CP groups that tile NVLink domains unevenly (16 GPUs on 72-GPU racks) are warned about; groups that divide the domain are not', () => {
    const uneven = /^tensor × context parallel groups of 16 GPUs tile NVLink domains of 72 unevenly/;
    // Llama 3 70B at TP 4 · CP 4 · PP 4 · DP 16 on 256 four-GPU trays: 1,024 GPUs fill 15 racks packed 72 a rack (equal
    // segments would take 16, groups.ts placedDomainGpus), so some 16-GPU groups straddle a rack edge.
    const racks = { ...llamaOnH100, gpu: gpuById('gb200')!, fabric: gb200Fabric, gpusPerNode: 4, nodes: 256, nvlinkDomainGpus: 72, context: 4, data: 16, globalBatchSize: 128 };
    expect(ok(racks).warnings).toContainEqual(expect.stringMatching(uneven));
    // CP 2: groups of 8, which 72 is a multiple of.
    expect(ok({ ...racks, context: 2, data: 32 }).warnings.some((w) => /tile NVLink domains/.test(w))).toBe(false);
    // One rack holds every group: nothing crosses.
    expect(ok({ ...racks, nodes: 16, data: 1, globalBatchSize: 64 }).warnings.some((w) => /tile NVLink domains/.test(w))).toBe(false);
    // 128 GPUs are two racks of 64 (Slurm segments), which 16 divides: nothing crosses either.
    expect(ok({ ...racks, nodes: 32, data: 2 }).warnings.some((w) => /tile NVLink domains/.test(w))).toBe(false);
  });
  it('a job larger than a 72-GPU NVL72 rack is packed or placed in equal segments of trays, whichever splits fewer of its groups', () => {
    // Layout: TP t, CP c, DP d; the groups that can straddle a rack edge span t, t·c and t·c·d GPUs.
    const at = (trays: number, t: number, c: number, d: number, domain = 72, tray = 4) =>
      placedDomainGpus({ nodes: trays, gpusPerNode: tray, nvlinkDomainGpus: domain, tensor: t, context: c, data: d });
    expect(at(16, 4, 1, 4)).toBe(72); // 64 GPUs: one rack
    expect(at(32, 4, 1, 8)).toBe(64); // 128: 32-GPU data groups, which 64 divides and 72 does not (72 + 56 packed)
    expect(at(64, 4, 1, 8)).toBe(64); // 256 = 4 × 64, as packing needs 4 racks anyway
    expect(at(48, 4, 3, 2)).toBe(72); // 192: 12-GPU TP × CP blocks and 24-GPU data groups tile 72, not 64 (QA)
    expect(at(36, 8, 1, 4)).toBe(72); // 144 = 2 × 72
    expect(at(256, 4, 4, 16)).toBe(72); // 1,024: 15 racks packed; 16 × 64 would take one more
    expect(at(50, 4, 1, 10)).toBe(72); // 200: no multiple of 4 in [66.7, 72] divides it
    expect(at(16, 8, 1, 2, 8, 8)).toBe(8); // nodes that are their own domain
    // GPT-3 175B at TP 4 · PP 4 · DP 8 on 128 GB200: each 32-GPU data-parallel group sits in one 64-GPU segment, so
    // the 72-GPU domain costs as a 64-GPU one would (packed 72 + 56, one group would cross the rack edge).
    const gpt3 = { ...gpt3OnSelene, gpu: gpuById('gb200')!, fabric: gb200Fabric, gpusPerNode: 4, nodes: 32, nvlinkDomainGpus: 72, tensor: 4, pipeline: 4, data: 8, globalBatchSize: 256, sharding: 'distributed-optimizer' as const, sequenceParallel: true };
    expect(ok(gpt3).breakdown).toEqual(ok({ ...gpt3, nvlinkDomainGpus: 64 }).breakdown);
  });
  it('overlapped pipeline sends hide them only in the interleaved schedule, as Megatron runs it', () => {
    const exposed = ok({ ...gpt3OnSelene, globalBatchSize: 128, data: 16 });
    const askedAtV1 = ok({ ...gpt3OnSelene, globalBatchSize: 128, data: 16, overlapPipelineComm: true });
    // Without interleaving Megatron turns the overlap off: nothing changes but a warning.
    expect(askedAtV1.breakdown.pipelineCommSeconds).toBe(exposed.breakdown.pipelineCommSeconds);
    expect(askedAtV1.warnings).toContainEqual(expect.stringMatching(/^overlapped pipeline sends need the interleaved schedule/));
    const interleaved = { ...gpt3OnSelene, globalBatchSize: 128, data: 16, virtualStages: 3, schedule: 'interleaved' as const };
    // Interleaved and overlapped: only the 2(p − 1) warm-up and drain sends stay exposed, not 2(v·m + p − 1).
    const [off, on] = [ok(interleaved), ok({ ...interleaved, overlapPipelineComm: true })];
    const m = 128 / 16;
    expect(on.breakdown.pipelineCommSeconds / off.breakdown.pipelineCommSeconds).toBeCloseTo((2 * 7) / (2 * (3 * m + 7)), 12);
  });
  // Megatron's _vocab_size_with_padding (megatron/training/tokenizer/tokenizer.py) rounds up to a multiple of 128 × TP = 1,024 at TP 8:
  // GPT-2's 50,257 tokens become 50 × 1,024 = 51,200 (the vocabulary the GPT-3 and Megatron presets state), 1,001 become 1,024.
  it.each([
    [50257, '50,257', '51,200'],
    [1001, '1,001', '1,024'],
  ])('a vocabulary of %i that TP 8 does not divide is warned with the size Megatron pads it to, and counted as given', (vocabSize, given, padded) => {
    const e = ok({ ...gpt3OnSelene, model: { ...gpt3OnSelene.model, vocabSize } });
    expect(e.warnings).toContainEqual(`vocabSize ${given} is not a multiple of TP 8: costed as given, where Megatron pads it to ${padded}`);
    // Tied embeddings (the contract's default): one V × h matrix, so (51,200 − V) × 12,288 fewer parameters than the preset's padded vocabulary.
    expect(ok(gpt3OnSelene).parameters - e.parameters).toBe((51200 - vocabSize) * 12288);
  });
  it('a vocabulary TP divides is not warned about: GPT-3\'s 51,200 at TP 8, Llama 3\'s 128,256 (2⁸ × 501)', () => {
    expect(ok(gpt3OnSelene).warnings.some((w) => w.startsWith('vocabSize'))).toBe(false);
    expect(llamaOnH100.model.vocabSize).toBe(128256);
    expect(ok(llamaOnH100).warnings.some((w) => w.startsWith('vocabSize'))).toBe(false);
  });
  it('interleaving shrinks the bubble by v', () => {
    const one = ok({ ...gpt3OnSelene, globalBatchSize: 128, data: 16 });
    const three = ok({ ...gpt3OnSelene, globalBatchSize: 128, data: 16, virtualStages: 3, schedule: 'interleaved' });
    // Narayanan et al. SC'21 §2.2.2: bubble (p − 1)·(t_f + t_b)/v, each chunk holding 12 / 3 = 4 layers.
    expect(one.breakdown.pipelineBubbleSeconds / three.breakdown.pipelineBubbleSeconds).toBeCloseTo(3, 9);
  });
});

describe('infeasible plans are answers, not crashes', () => {
  // A size that does not divide another is 'indivisible'; a setting that cannot run (with another, or on the GPU) 'invalid'.
  it.each([
    [{ tensor: 7 }, 'parallelism.tensor', 'indivisible'],
    [{ data: 3 }, 'parallelism.data', 'indivisible'],
    [{ globalBatchSize: 1000 }, 'training.globalBatchSize', 'indivisible'],
    [{ virtualStages: 5, schedule: 'interleaved' as const }, 'parallelism.virtualStages', 'indivisible'],
    [{ pipeline: 128, data: 1 }, 'parallelism.pipeline', 'indivisible'],
    // Megatron's interleaved schedule runs the micro-batches in whole rounds of p (schedules.py): 12 of them on 8 stages cannot.
    [{ virtualStages: 2, schedule: 'interleaved' as const, globalBatchSize: 192 }, 'parallelism.virtualStages', 'indivisible'],
    // Transformer Engine's load-balanced ring attention needs 2 × CP equal chunks: 2050 tokens split in 2, not in 4.
    [{ context: 2, data: 8, seqLength: 2050 }, 'parallelism.context', 'indivisible'],
    // An A100 has no FP8 tensor cores (A100 whitepaper: FP16/BF16/TF32/INT8 only).
    [{ precision: 'fp8' as const }, 'training.precision', 'invalid'],
    // Megatron-Core's own attention asserts context parallelism 1: ring attention lives in Transformer Engine.
    [{ context: 2, data: 8, attentionKernel: 'unfused' as const }, 'parallelism.context', 'invalid'],
    [{ recomputeLayers: 4, recompute: 'selective' as const }, 'parallelism.recomputeLayers', 'invalid'],
  ])('%o is refused as %s (%s)', (change, path, reason) => {
    const e = estimatePlan({ ...gpt3OnSelene, ...change });
    expect(e.ok).toBe(false);
    if (!e.ok) {
      expect(e.reason).toBe(reason);
      expect(e.issues!.map((i) => i.path)).toContain(path);
    }
  });
  it('FP8 on an A100 says what runs instead: BF16, or a GPU preset with FP8 tensor cores (Hopper, Blackwell)', () => {
    const e = estimatePlan({ ...gpt3OnSelene, precision: 'fp8' });
    if (e.ok) throw new Error('an A100 has no FP8');
    expect(e.issues).toEqual([{ path: 'training.precision', rule: 'precision-unsupported',
      message: 'NVIDIA A100 SXM4 80GB has no FP8 tensor cores: use precision "bf16", or a GPU that has them (h100-sxm, h100-pcie, h200, gh200, b200, gb200)' }]);
  });
  it('a plan breaking both kinds of rule is indivisible (a size must change whatever else does)', () => {
    const e = estimatePlan({ ...gpt3OnSelene, tensor: 7, precision: 'fp8' });
    expect(!e.ok && e.reason).toBe('indivisible');
  });
  it('a model that does not fit says what it needs and what there is', () => {
    const e = estimatePlan({ ...gpt3OnSelene, tensor: 1, pipeline: 1, data: 1024, recompute: 'none', globalBatchSize: 1024 });
    expect(e.ok).toBe(false);
    if (!e.ok) {
      expect(e.reason).toBe('out-of-memory');
      expect(e.neededBytes!).toBeGreaterThan(e.availableBytes!);
      expect(e.estimate?.stepTimeSeconds).toBeGreaterThan(0);
    }
  });
  it('an emulated plan that does not fit is refused on the closed form, not after emulating it (memory does not depend on it)', () => {
    // TP 8 × PP 2 × DP 64 of GPT-3 175B without recompute: far past 80 GB, and its emulation would take seconds.
    const oom = { ...gpt3OnSelene, pipeline: 2, data: 64, recompute: 'none' as const };
    const emulated = estimatePlan({ ...oom, communicationModel: 'emulated' });
    const closed = estimatePlan({ ...oom, communicationModel: 'closed-form' });
    if (emulated.ok || closed.ok) throw new Error('expected out of memory');
    expect(emulated.reason).toBe('out-of-memory');
    expect(emulated.neededBytes).toBe(closed.neededBytes);
    expect(emulated.estimate?.breakdown).toEqual(closed.estimate?.breakdown);
  });
});

describe('full recompute of some layers per stage', () => {
  // GPT-3 175B at PP 8: 12 layers a stage.
  const hardwareShare = (recomputeLayers: number | undefined) => {
    const e = ok({ ...gpt3OnSelene, recomputeLayers });
    return (e.hardwareFlopsPerStep - e.modelFlopsPerStep) / e.modelFlopsPerStep;
  };
  it('repeats the forward of that many layers on every stage: the extra hardware FLOPs scale as recomputeLayers / 12', () => {
    const all = hardwareShare(undefined);
    expect(all).toBeGreaterThan(0);
    for (const n of [1, 3, 6, 11]) expect(hardwareShare(n) / all).toBeCloseTo(n / 12, 12);
  });
  it('more than a stage holds recomputes them all: the same step, HFU and memory as all of them, and a warning', () => {
    const all = ok(gpt3OnSelene);
    for (const n of [12, 13, 50, 1000]) {
      const e = ok({ ...gpt3OnSelene, recomputeLayers: n });
      expect(e.hfu).toBeCloseTo(all.hfu, 12);
      expect(e.hfu).toBeLessThan(1);
      expect(e.stepTimeSeconds).toBe(all.stepTimeSeconds);
      expect(e.memory.totalBytes).toBe(all.memory.totalBytes);
      expect(e.warnings.some((w) => w.startsWith(`recomputeLayers ${n} is more than`))).toBe(n > 12);
    }
  });
  it('counts each stage of an uneven split by its own layers', () => {
    // 96 layers over 7 stages: Megatron's default split gives some stages 14 layers and some 13 (layersPerStage);
    // recomputing 13 a stage leaves one layer un-recomputed on each 14-layer stage, and 14 recomputes all 96 (not 7 × 14 = 98).
    const uneven = { ...gpt3OnSelene, pipeline: 7, data: 1, nodes: 7, globalBatchSize: 64 } as const;
    const full = ok(uneven);
    const extra = (n: number) => { const x = ok({ ...uneven, recomputeLayers: n }); return x.hardwareFlopsPerStep - x.modelFlopsPerStep; };
    const deep = full.stages.filter((s) => s.layers === 14).length;
    expect(deep).toBeGreaterThan(0);
    expect(deep).toBeLessThan(7);
    const all = full.hardwareFlopsPerStep - full.modelFlopsPerStep;
    expect(extra(13) / all).toBeCloseTo((96 - deep) / 96, 12);
    expect(extra(14) / all).toBeCloseTo(1, 12);
  });
});

// Property tests over random valid strategies of the GPT-3 175B fixture.
const strategies = fc.record({
  tensor: fc.constantFrom(1, 2, 4, 8),
  pipeline: fc.constantFrom(1, 2, 4, 8, 16),
  micro: fc.constantFrom(1, 2, 4),
  batchPerReplica: fc.constantFrom(1, 2, 4, 8, 16),
  recompute: fc.constantFrom('none', 'selective', 'full' as const),
  sequenceParallel: fc.boolean(),
  sharding: fc.constantFrom('none', 'distributed-optimizer', 'zero-1', 'zero-3' as const),
  overlapGradReduce: fc.boolean(),
  // With full recompute, layers recomputed per stage: up to twice the deepest stage's 96.
  recomputeLayers: fc.option(fc.integer({ min: 1, max: 192 }), { nil: undefined }),
});

type Strategy = typeof strategies extends fc.Arbitrary<infer T> ? T : never;

function planFor(s: Strategy): PlanInput {
  const gpus = 1024;
  const data = gpus / (s.tensor * s.pipeline);
  return {
    ...gpt3OnSelene,
    tensor: s.tensor, pipeline: s.pipeline, data, microBatchSize: s.micro,
    globalBatchSize: s.micro * data * s.batchPerReplica, recompute: s.recompute,
    recomputeLayers: s.recompute === 'full' ? s.recomputeLayers : undefined,
    sequenceParallel: s.sequenceParallel && s.tensor > 1, sharding: s.sharding, overlapGradReduce: s.overlapGradReduce,
  };
}

describe('physics invariants over random strategies', () => {
  it('MFU ≤ HFU ≤ 1, bubble ≥ 0, and no NaN or Infinity anywhere', () => {
    fc.assert(fc.property(strategies, (s) => {
      const e = estimatePlan(planFor(s));
      const est = e.ok ? e : e.estimate;
      if (!est) return true;
      return allFinite(est) && est.mfu <= est.hfu + 1e-12 && est.hfu <= 1 && est.breakdown.pipelineBubbleSeconds >= 0;
    }), { numRuns: 300 });
  });
  it('memory is whole bytes whose parts add up to the total, on every stage', () => {
    fc.assert(fc.property(strategies, (s) => {
      const e = estimatePlan(planFor(s));
      const est = e.ok ? e : e.estimate;
      if (!est) return true;
      return est.stages.every(({ memory: m }) => [m.weightsBytes, m.gradientsBytes, m.optimizerBytes, m.activationsBytes, m.otherBytes].every(Number.isInteger)
        && m.totalBytes === m.weightsBytes + m.gradientsBytes + m.optimizerBytes + m.activationsBytes + m.otherBytes);
    }), { numRuns: 200 });
  });
  it('memory per GPU never grows when only the tensor-parallel size grows', () => {
    fc.assert(fc.property(strategies, (s) => {
      if (s.tensor === 8) return true;
      const small = planFor(s);
      // Only TP grows: the same replicas and batch on twice the GPUs. (Halving DP instead would grow the
      // shard of the weights TP replicates, LayerNorms and row-parallel biases, under a sharded optimizer.)
      const big = { ...small, tensor: s.tensor * 2, nodes: small.nodes * 2 };
      const a = estimatePlan(small);
      const b = estimatePlan(big);
      const ma = a.ok ? a.memory : a.estimate?.memory;
      const mb = b.ok ? b.memory : b.estimate?.memory;
      if (!ma || !mb) return true;
      return mb.totalBytes <= ma.totalBytes * (1 + 1e-9);
    }), { numRuns: 300 });
  });
  it('step time grows with the global batch', () => {
    fc.assert(fc.property(strategies, (s) => {
      const one = planFor(s);
      const a = estimatePlan(one);
      const b = estimatePlan({ ...one, globalBatchSize: one.globalBatchSize * 2 });
      const ta = a.ok ? a.stepTimeSeconds : a.estimate?.stepTimeSeconds;
      const tb = b.ok ? b.stepTimeSeconds : b.estimate?.stepTimeSeconds;
      if (ta === undefined || tb === undefined) return true;
      return tb > ta;
    }), { numRuns: 300 });
  });
});
