import { describe, expect, it } from 'vitest';
import {
  inferenceRequestJsonSchema, nodesRequestJsonSchema, runEstimate, runInference, runNodes, runScale, runSearch, scaleRequestJsonSchema,
  searchRequestJsonSchema, validateInferenceResponse, validateNodesResponse, validateScenario, validateSearchResponse, type EstimateJson, type SearchOkJson,
} from '../../src/index.ts';

const GPT3 = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536, tokens: 300e9 }, top: 3 };

describe('runSearch', () => {
  const answer = runSearch(GPT3) as SearchOkJson;

  it('answers the best plan as a contract scenario that round-trips through runEstimate', () => {
    expect(answer.ok).toBe(true);
    expect(validateScenario(answer.best.scenario).ok).toBe(true);
    expect(runEstimate(answer.best.scenario)).toEqual(answer.best.estimate);
  });

  it('carries candidatesEvaluated, the top k best first, alternatives with reasons, and the pruning', () => {
    expect(answer.candidatesEvaluated).toBe(answer.spaceSize);
    expect(answer.top.length).toBe(3);
    const steps = answer.top.map((p) => p.estimate.stepTimeSeconds);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(answer.alternatives.length).toBeGreaterThan(0);
    for (const a of answer.alternatives) expect(a.why.length).toBeGreaterThan(10);
    expect(answer.pruned.reduce((s, p) => s + p.count, 0)).toBeLessThanOrEqual(answer.spaceSize);
  });

  it.each([
    ['GPT-3 175B on 9 A100 nodes (72 GPUs: an odd pipeline depth)', { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 9 }, training: { globalBatchSize: 1536 } }],
    ['GPT-3 1.3B at micro-batch 3', { model: 'gpt3-1.3b', cluster: { gpu: 'h100-sxm', nodes: 3 }, training: { globalBatchSize: 72 }, constraints: { microBatchSizes: [3] } }],
  ])('%s: every alternative is a scenario runEstimate takes back (whole degrees and micro-batches)', (_name, request) => {
    const odd = runSearch(request) as SearchOkJson;
    expect(odd.ok).toBe(true);
    const r = odd.best.estimate.resolved;
    // The cases exercise odd sizes: halving one of them would give a fraction.
    expect([r.tensor, r.pipeline, r.context, r.microBatchSize].some((n) => n % 2 === 1 && n > 1)).toBe(true);
    expect(odd.alternatives.length).toBeGreaterThan(0);
    for (const a of odd.alternatives) {
      expect(a.change).not.toMatch(/\d\.\d/);
      if (a.scenario !== undefined) expect(validateScenario(a.scenario).ok, a.change).toBe(true);
    }
  });

  it('with a token budget, days = whole steps (tokens / tokens per step, rounded up) × step time', () => {
    const r = answer.best.estimate.resolved;
    const steps = Math.ceil(300e9 / (r.globalBatchSize * r.seqLength));
    expect(answer.best.days).toBeCloseTo((steps * answer.best.estimate.stepTimeSeconds) / 86_400, 9);
  });

  it("searches with the request's gradient accumulation and writes it into every plan, which then estimates the same", () => {
    const unfused = runSearch({ ...GPT3, training: { ...GPT3.training, gradientAccumulation: '16-bit' } }) as SearchOkJson;
    expect(unfused.ok).toBe(true);
    expect(unfused.best.scenario.training.gradientAccumulation).toBe('16-bit');
    expect(runEstimate(unfused.best.scenario)).toEqual(unfused.best.estimate);
    // A separate add per micro-batch can only slow the best plan down.
    expect(unfused.best.estimate.stepTimeSeconds).toBeGreaterThan(answer.best.estimate.stepTimeSeconds);
  });

  it("takes 'fused-16-bit' (the search request's enum), writes it into the plans, and holds 16-bit gradients in them", () => {
    const fused16 = runSearch({ ...GPT3, training: { ...GPT3.training, gradientAccumulation: 'fused-16-bit' } }) as SearchOkJson;
    expect(fused16.ok).toBe(true);
    expect(fused16.best.scenario.training.gradientAccumulation).toBe('fused-16-bit');
    expect(runEstimate(fused16.best.scenario)).toEqual(fused16.best.estimate);
    // The same plan with Megatron's fp32 main gradients holds more gradient bytes.
    const fp32 = runEstimate({ ...fused16.best.scenario, training: { ...fused16.best.scenario.training, gradientAccumulation: 'fused' } }) as typeof fused16.best.estimate;
    expect(fp32.memory.gradientsBytes).toBeGreaterThan(fused16.best.estimate.memory.gradientsBytes);
  });

  it('with scatter-gather asked for, a plan using sequence parallelism states it off, as Megatron runs it, and carries no warning', () => {
    const sg = runSearch({ ...GPT3, settings: { scatterGather: true }, top: 10 }) as SearchOkJson;
    expect(sg.ok).toBe(true);
    expect(sg.top.some((p) => p.scenario.parallelism!.sequenceParallel)).toBe(true);
    for (const p of sg.top) {
      expect(p.scenario.parallelism!.scatterGather).toBe(!p.scenario.parallelism!.sequenceParallel);
      expect(p.estimate.warnings.filter((w) => w.startsWith('scatter-gather'))).toEqual([]);
    }
  });

  it('with overlapped pipeline sends asked for, a plan without virtual stages states them off (Megatron overlaps only interleaved) and carries no warning', () => {
    // maxVirtualStages 1: every pipelined plan runs the plain 1F1B schedule.
    const answer = runSearch({ ...GPT3, settings: { overlapPipelineComm: true }, constraints: { maxVirtualStages: 1 }, top: 10 }) as SearchOkJson;
    expect(answer.ok).toBe(true);
    const plans = answer.top.filter((p) => p.scenario.parallelism!.pipeline! > 1);
    expect(plans.some((p) => p.scenario.parallelism!.virtualStages === 1)).toBe(true);
    for (const p of plans) {
      expect(p.scenario.parallelism!.overlapPipelineComm).toBe(p.scenario.parallelism!.virtualStages! > 1);
      expect(p.estimate.warnings.filter((w) => w.startsWith('overlapped pipeline sends'))).toEqual([]);
    }
  });

  it('keeps 5% of GPU memory free by default (where an estimate warns), and memoryFraction 1 lifts it', () => {
    const headroom = runSearch({ ...GPT3, top: 10 }) as SearchOkJson;
    const all = runSearch({ ...GPT3, constraints: { memoryFraction: 1 }, top: 10 }) as SearchOkJson;
    for (const p of headroom.top) {
      expect(p.estimate.memory.totalBytes).toBeLessThanOrEqual(0.95 * p.estimate.memory.capacityBytes);
      expect(p.estimate.warnings.filter((w) => w.startsWith('peak memory'))).toEqual([]);
    }
    // On this cluster the fastest plan of all is a tight one, which the default declines.
    const tightest = Math.max(...all.top.map((p) => p.estimate.memory.totalBytes / p.estimate.memory.capacityBytes));
    expect(tightest).toBeGreaterThan(0.95);
    expect(all.best.estimate.stepTimeSeconds).toBeLessThanOrEqual(headroom.best.estimate.stepTimeSeconds);
  });

  it('a system id stands for its GPU, node size and network', () => {
    const a = runSearch({ ...GPT3, cluster: { gpu: 'dgx-a100-80gb', nodes: 128 } }) as SearchOkJson;
    expect(a.best.scenario.cluster).toEqual({ gpu: 'a100-80gb', gpusPerNode: 8, nodes: 128, network: 'hdr-ib-8x' });
  });

  it.each([
    [{ ...GPT3, model: 'gpt-5' }, 'model'],
    [{ ...GPT3, cluster: { gpu: 'a100-80gb' } }, 'cluster.nodes'],
    [{ ...GPT3, training: { globalBatchSize: 0 } }, 'training.globalBatchSize'],
    [{ ...GPT3, objective: 'cost' }, 'pricePerGpuHour'],
    [{ ...GPT3, constraints: { maxTensr: 4 } }, 'constraints.maxTensr'],
    [{ ...GPT3, training: { globalBatchSize: 1536, precision: 'fp8' } }, 'training.precision'],
  ])('invalid input names the field (%#: %s)', (request, path) => {
    const a = runSearch(request);
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('invalid');
    expect(a.issues!.map((i) => i.path)).toContain(path);
  });

  it('a price without training.tokens is refused beside pricePerGpuHour (nothing to cost), not dropped; with tokens every plan has its cost', () => {
    const a = runSearch({ ...GPT3, training: { globalBatchSize: 1536 }, pricePerGpuHour: 2 });
    if (a.ok) throw new Error('expected a price without tokens to be refused');
    expect(a.issues).toEqual([{ path: 'pricePerGpuHour', message: expect.stringContaining('give training.tokens, or leave pricePerGpuHour out') }]);
    const priced = runSearch({ ...GPT3, pricePerGpuHour: 2 }) as SearchOkJson;
    expect(priced.top.every((p) => p.cost !== undefined)).toBe(true);
  });

  it('never throws, whatever it is given', () => {
    for (const x of [null, 1, 'x', [], {}, { model: {} }]) expect(runSearch(x).ok).toBe(false);
  });

  it('a model that fits nowhere on the cluster answers with the fewest nodes that fit, and the nearest miss', () => {
    const a = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 1 }, training: { globalBatchSize: 64 } });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('no-feasible-configuration');
    expect(a.nearestMiss!.neededBytes).toBeGreaterThan(a.nearestMiss!.availableBytes);
    expect(a.closest!.nodes).toBeGreaterThan(1);
    expect(validateScenario(a.closest!.scenario).ok).toBe(true);
    expect(a.closest!.estimate!.memory.fits).toBe(true);
    expect(a.message).toMatch(/^no configuration of 8 GPUs runs: out of memory: the plan that comes closest \(.*\) needs [\d.]+ GiB per GPU( on pipeline stage \d+)?, the NVIDIA A100 SXM4 80GB has 80\.0 GiB$/);
    // The nearest miss's own words, so the message and nearestMiss say the shortfall alike.
    expect(a.message.endsWith(`(${a.nearestMiss!.label}) ${a.nearestMiss!.message}`)).toBe(true);
  });

  describe('--gpus 1000 for GPT-3 175B at batch 1536 (8 × 5³ GPUs: no TP × PP × DP split)', () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', gpus: 1000 }, training: { globalBatchSize: 1536 } };
    const a = runSearch(request);
    const runs = (nodes: number) => runSearch({ ...request, cluster: { gpu: 'a100-80gb', nodes }, top: 1 }).ok;

    it('says why the size asked for fails: the divisibility rules that rule every plan out', () => {
      expect(a.ok).toBe(false);
      if (a.ok) return;
      // Layouts that divide the 1,000 GPUs exist (TP 8 · PP 5), but each leaves a data-parallel size with a factor 5,
      // which batch 1,536 = 2⁹ · 3 lacks: the batch rule is what ends them (whyNothingFits), not the GPU count.
      expect(a.message).toMatch(/^no configuration of 1,000 GPUs runs: no plan passes Megatron's divisibility rules where tensor × pipeline × context divides the GPUs and tensor the heads: the global batch is not a multiple of micro-batch × data-parallel size \([\d,]+ candidates\)/);
    });

    it('answers the nearest size that runs (fewer nodes on a tie), not the fewest nodes that fit, naming the nearest smaller when it is larger', () => {
      if (a.ok) throw new Error('expected no plan on 1000 GPUs');
      const nearest = a.closest!.nodes!;
      const distance = Math.abs(nearest - 125);
      // No size nearer runs, nor one as near with fewer nodes.
      for (let d = 1; d < distance; d++) for (const n of [125 - d, 125 + d]) expect(runs(n), `${n} nodes`).toBe(false);
      if (nearest > 125) expect(runs(125 - distance), `${125 - distance} nodes`).toBe(false);
      expect(runs(nearest)).toBe(true);
      // 128 nodes (1024 GPUs) is nearer than any smaller size, so the nearest smaller that runs is named beside it.
      expect(nearest).toBe(128);
      let smaller = 124;
      while (smaller > 1 && !runs(smaller)) smaller -= 1;
      // Every GPU count grouped by thousands, as the message's "1,000 GPUs" (before: "125 nodes (1000 GPUs)").
      expect(a.closest!.why).toMatch(new RegExp(`^nothing runs on 125 nodes \\(1,000 GPUs\\); the nearest size that runs is larger: 128 nodes \\(1,024 GPUs\\), with TP .*; the nearest smaller: ${smaller} nodes \\(${(smaller * 8).toLocaleString('en-US')} GPUs\\)$`));
    });
  });

  it('more GPUs than 1,000,000 nodes hold are refused at cluster.gpus, the field sent, in GPUs', () => {
    // Before: at cluster.nodes, which the request had not sent: "expected an integer ≤ 1,000,000, got 1,125,000".
    const a = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', gpus: 9_000_000 }, training: { globalBatchSize: 1536 } });
    expect(a.ok || a.issues).toEqual([{ path: 'cluster.gpus', message: 'expected at most 8,000,000 GPUs (1,000,000 nodes of 8), got 9,000,000' }]);
  });

  it('a GPU count that does not fill whole nodes is refused, naming the two counts that do', () => {
    const a = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', gpus: 1004 }, training: { globalBatchSize: 1536 } });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('invalid');
    expect(a.issues).toEqual([{ path: 'cluster.gpus', message: '1,004 GPUs do not fill whole nodes of 8 GPUs: ask for 1,000 (125 nodes) or 1,008 (126 nodes), or give cluster.nodes' }]);
  });

  it('fewer GPUs than a node holds are one partly used node, as the estimate takes them', () => {
    const request = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-40gb', gpus: 4 }, training: { globalBatchSize: 64 } };
    const four = runSearch(request);
    if (!four.ok) throw new Error(four.message);
    expect(four.best.estimate.resolved).toMatchObject({ nodes: 1, gpusPerNode: 4, gpus: 4 });
    // The best plan, asked of the estimate in the request's own form (gpus: 4), answers the same.
    const { tensor, pipeline, context, virtualStages, sequenceParallel, recompute, distributedOptimizer } = four.best.scenario.parallelism!;
    const same = runEstimate({ ...request, training: four.best.scenario.training,
      parallelism: { tensor, pipeline, context, virtualStages, sequenceParallel, recompute, distributedOptimizer } }) as EstimateJson;
    if (!same.ok) throw new Error(same.message);
    expect(same.stepTimeSeconds).toBe(four.best.estimate.stepTimeSeconds);
  });

  it('a partly used node that runs nothing is offered whole nodes of the machine, not more partial nodes', () => {
    // GPT-3 175B on 1 H100 runs nothing; the nearest that runs is a count of whole 8-GPU nodes.
    const a = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'h100-sxm', gpus: 1 }, training: { globalBatchSize: 2048 } });
    if (a.ok) throw new Error('expected 175B on one GPU to run nothing');
    expect(a.message).toMatch(/^no configuration of 1 GPU runs: /);
    const closest = a.closest!;
    const nodes = closest.nodes!;
    expect(closest.scenario!.cluster).toMatchObject({ gpu: 'h100-sxm', gpusPerNode: 8, nodes });
    expect(closest.gpus).toBe(8 * nodes);
    expect(closest.why).toMatch(new RegExp(`^nothing runs on 1 GPU; the nearest size that runs is larger: ${nodes} nodes \\(${closest.gpus} GPUs\\)`));
    // It is the fewest whole nodes that run: one node fewer runs nothing.
    const fewer = runSearch({ model: 'gpt3-175b', cluster: { gpu: 'h100-sxm', nodes: nodes - 1 }, training: { globalBatchSize: 2048 }, top: 1 });
    expect(fewer.ok).toBe(false);
  });

  it('a partly used node is checked against the node size asked for, as the estimate checks it: 16 GPUs per node of an 8-GPU DGX are refused', () => {
    const request = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-40gb', gpusPerNode: 16, gpus: 4 }, training: { globalBatchSize: 64 } };
    const a = runSearch(request);
    const estimate = runEstimate({ ...request, parallelism: { tensor: 1, pipeline: 1 } }) as EstimateJson;
    if (a.ok || estimate.ok) throw new Error('expected both to refuse 16 GPUs per node');
    expect(a.reason).toBe('invalid');
    expect(a.issues).toEqual([{ path: 'cluster.gpusPerNode', message: expect.stringMatching(/^dgx-a100-40gb has 8 GPUs per node, asked for 16/) }]);
    expect(a.issues).toEqual(estimate.issues);
  });
});

describe('runNodes', () => {
  it('the fewest nodes for a deadline carry nodes, days, gpuHours and the configuration used', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 });
    if (!a.ok) throw new Error(a.message);
    expect(a.mode).toBe('fewest-nodes');
    expect(a.days).toBeLessThanOrEqual(30);
    expect(a.gpuHours).toBeCloseTo(a.days * 24 * a.gpus, 3);
    expect(a.configuration.scenario.cluster.nodes).toBe(a.nodes);
    expect(runEstimate(a.configuration.scenario)).toEqual(a.configuration.estimate);
  });

  it('the inverse: days on a given number of nodes', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, nodes: 128 });
    if (!a.ok) throw new Error(a.message);
    expect(a.mode).toBe('days-on-nodes');
    expect(a.nodes).toBe(128);
    // Whole optimizer steps, each a global batch of 1536 × 2048 tokens: 300e9 / 3,145,728 = 95,367.4 → 95,368 steps.
    expect(a.days).toBeCloseTo((95_368 * a.configuration.estimate.stepTimeSeconds) / 86_400, 9);
  });

  it('the fewest nodes for a deadline are the fewest: every size checked below them misses it', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, days: 30 });
    if (!a.ok) throw new Error(a.message);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
    expect(a.checked!.fromNodes).toBeLessThan(a.nodes);
    for (let n = a.checked!.fromNodes; n < a.nodes; n++) {
      const b = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, nodes: n });
      expect(!b.ok || b.days > 30, `${n} nodes`).toBe(true);
    }
  });

  it('a budget alone answers the fastest plan it affords, with the smallest cluster that fits beside it', () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, gpuHours: 600e3 };
    const a = runNodes(request);
    if (!a.ok) throw new Error(a.message);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
    expect(a.mode).toBe('fastest-within-budget');
    expect(a.gpuHours).toBeLessThanOrEqual(600e3);
    expect(a.smallest!.nodes).toBeLessThan(a.nodes);
    expect(a.smallest!.days).toBeGreaterThan(a.days);
    expect(a.smallest!.withinBudget).toBe(a.smallest!.gpuHours <= 600e3);
    // With a deadline too, the meaning stays: the fewest nodes that meet it, within the budget.
    const both = runNodes({ ...request, days: 30 });
    if (!both.ok) throw new Error(both.message);
    expect(both.mode).toBe('fewest-nodes');
    expect(both.nodes).toBeLessThan(a.nodes);
    expect(both.days).toBeLessThanOrEqual(30);
    expect(both.smallest).toBeUndefined();
  });

  it('a budget of zero is refused, naming the field; one below every run answers with the cheapest feasible run and why', () => {
    const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 };
    for (const zero of [{ gpuHours: 0 }, { budget: 0, pricePerGpuHour: 2 }]) {
      const z = runNodes({ ...request, ...zero });
      if (z.ok) throw new Error('a zero budget was accepted');
      expect(z.reason).toBe('invalid');
      expect(z.issues!.map((i) => i.path)).toEqual(Object.keys(zero).slice(0, 1));
    }
    const a = runNodes({ ...request, gpuHours: 1 });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('budget-unreachable');
    expect(a.closest!.gpuHours).toBeGreaterThan(1);
    expect(a.closest!.why).toMatch(/cheapest/);
  });

  it('asks for a goal or nodes, naming the field', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 });
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.issues!.map((i) => i.path)).toContain('days');
  });
});

describe('runScale and runInference', () => {
  it('the 530B plan of the Azure study (TP 8, PP 35) at 105/140/175 nodes', () => {
    const a = runScale({ model: 'mt-nlg-530b', cluster: { gpu: 'azure-ndm-a100-v4' }, training: { globalBatchSize: 1920 }, nodes: [105, 140, 175], parallelism: { tensor: 8, pipeline: 35, recompute: 'full' } });
    if (!a.ok) throw new Error(a.message);
    expect(a.points.map((p) => p.nodes)).toEqual([105, 140, 175]);
    expect(a.points[0]!.efficiency).toBe(1);
    for (const p of a.points) expect(validateScenario(p.scenario).ok).toBe(true);
  });

  it('the TP × PP table holds what the request fixes besides TP and PP (its recompute mode), as the sweep does', () => {
    const a = runScale({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: [16], parallelism: { recompute: 'full', microBatchSize: 1 }, tradeOff: true });
    if (!a.ok) throw new Error(a.message);
    expect(a.points[0]!.label).toMatch(/mbs 1 · .*full recompute/);
    const ran = a.tradeOff!.filter((c) => c.label !== undefined);
    expect(ran.length).toBeGreaterThan(1);
    for (const c of ran) expect(c.label, `TP ${c.tensor} · PP ${c.pipeline}`).toMatch(/mbs 1 · .*full recompute/);
  });

  it('inference answers the frontier and the best plan under a latency bound', () => {
    const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05 });
    if (!a.ok) throw new Error(a.message);
    expect(a.best!.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    expect(a.frontier.length).toBeGreaterThan(1);
    // Only that its static batch's first token waits past an interactive service's 2 s (inference-ttft.test.ts).
    expect(a.warnings).toEqual([expect.stringMatching(/^the best plan's time to first token is /)]);
  });

  it('inference warns about a context longer than the model\'s sequence length, in a valid answer', () => {
    const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 100_000, outputTokens: 100, tensor: [8], pipeline: [1], maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 60 });
    if (!a.ok) throw new Error(a.message);
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings![0]).toMatch(/100,100 tokens\) is longer than .*'s sequence length \(8,192 tokens\)/);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
  });

  it("inference holds Llama 3.1's context to its 128K window (Dubey et al. 2024 §3.4.2), not to the 8,192 it was pre-trained at", () => {
    const at = (promptTokens: number) => runInference({
      model: 'llama3.1-70b', cluster: { gpu: 'h100-sxm' }, promptTokens, outputTokens: 100, tensor: [8], pipeline: [1], maxDecodeSecondsPerToken: 0.2, maxPrefillSeconds: 60,
    });
    const within = at(100_000);
    if (!within.ok) throw new Error(within.message);
    expect(within.warnings!.filter((w) => w.includes('longer than'))).toEqual([]);
    const beyond = at(131_000);
    if (!beyond.ok) throw new Error(beyond.message);
    expect(beyond.warnings!.join(' ')).toMatch(/131,100 tokens\) is longer than Llama 3\.1 70B's context window \(131,072 tokens\)/);
  });

  it('inference where no shape serves says so first, naming the widest shape tried and what it needs', () => {
    const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [1], pipeline: [1] });
    if (!a.ok) throw new Error(a.message);
    expect(a.byShape.every((s) => !s.ok)).toBe(true);
    expect(a.warnings![0]).toMatch(/^no tensor × pipeline shape tried can serve the model .* TP 1 · PP 1: needs .* per GPU/);
    expect(validateInferenceResponse(a)).toEqual({ ok: true, value: a });
    const served = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, tensor: [8], pipeline: [1], maxDecodeSecondsPerToken: 0.05, maxPrefillSeconds: 2 });
    if (!served.ok) throw new Error(served.message);
    expect(served.warnings ?? []).toEqual([]);
  });

  it('inference names its own precision field when the GPU cannot run it (not training.precision)', () => {
    const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'a100-80gb' }, promptTokens: 2048, outputTokens: 512, precision: 'fp8' });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.issues.map((i) => i.path)).toEqual(['precision']);
  });

  it('scale: efficiency against the smallest size whatever the order, and why a size runs nothing', () => {
    const a = runScale({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, nodes: [64, 32, 16, 1] });
    if (!a.ok) throw new Error(a.message);
    const [n64, , n16, n1] = a.points;
    expect(n16!.efficiency).toBe(1);
    // Said outright: 1 node runs nothing, so 16, the smallest that runs, listed third.
    expect(a.efficiencyBaselineNodes).toBe(16);
    expect(n64!.efficiency).toBeCloseTo(n64!.tokensPerSecondPerGpu! / n16!.tokensPerSecondPerGpu!, 12);
    expect(n1!.reason).toMatch(/^no configuration fits: out of memory: .* needs [\d.]+ GiB per GPU( on pipeline stage \d+)?, the NVIDIA A100 SXM4 80GB has 80\.0 GiB$/);
  });

  it('publishes a JSON Schema document for each request', () => {
    for (const doc of [searchRequestJsonSchema, nodesRequestJsonSchema, scaleRequestJsonSchema, inferenceRequestJsonSchema]) {
      expect(doc.type).toBe('object');
      expect(doc.$id).toMatch(/^https:\/\/trainplan\.dev\/schemas\//);
    }
  });
});

describe('runSearch: fewer nodes that run faster', () => {
  // QA: the 1T model at 3,072 sequences steps 68.2 s on 448 nodes and 66.5 s on 416, unsaid. 448 × 8 = 2⁹ · 7 GPUs leave a
  // 128-layer model pipeline depths of 7, 14 or 28; 416 × 8 = 2⁸ · 13 gives TP 8 · PP 26 · DP 16.
  const answer = runSearch({ model: 'megatron-1t', cluster: { gpu: 'a100-80gb', nodes: 448 }, training: { globalBatchSize: 3072 }, top: 1 }) as SearchOkJson;
  it('names the smaller cluster, its plan as a contract scenario on that many nodes, and a step faster than the best', () => {
    const f = answer.fewerNodes!;
    expect(f).toBeDefined();
    expect(f.nodes).toBeLessThan(448);
    expect(f.gpus).toBe(f.nodes * 8);
    expect(f.plan.scenario.cluster.nodes).toBe(f.nodes);
    expect(runEstimate(f.plan.scenario)).toEqual(f.plan.estimate);
    expect(f.plan.estimate.stepTimeSeconds).toBeLessThan(answer.best.estimate.stepTimeSeconds);
    // The same batch: a shorter step is more tokens per second on fewer GPUs.
    expect(f.plan.estimate.tokensPerSecond).toBeGreaterThan(answer.best.estimate.tokensPerSecond);
    expect(f.why).toContain(`leaving ${448 - f.nodes} nodes out`);
    expect(validateSearchResponse(answer).ok).toBe(true);
  });
  it('is absent where no smaller size within 10% runs faster (GPT-3 175B on 128 nodes at 1,536)', () => {
    const gpt3 = runSearch(GPT3) as SearchOkJson;
    expect(gpt3.fewerNodes === undefined || gpt3.fewerNodes.plan.estimate.stepTimeSeconds < gpt3.best.estimate.stepTimeSeconds).toBe(true);
  });
});
