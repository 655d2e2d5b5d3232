import { describe, expect, it } from 'vitest';
import {
  inferenceRequestJsonSchema, nodesRequestJsonSchema, runEstimate, runInference, runNodes, runScale, runSearch, scaleRequestJsonSchema,
  searchRequestJsonSchema, validateScenario, type SearchOkJson,
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

  it('with a token budget, days = tokens / tokens per second', () => {
    expect(answer.best.days).toBeCloseTo(300e9 / answer.best.estimate.tokensPerSecond / 86_400, 9);
  });

  it("searches with the request's gradient accumulation and writes it into every plan, which then estimates the same", () => {
    const unfused = runSearch({ ...GPT3, training: { ...GPT3.training, gradientAccumulation: '16-bit' } }) as SearchOkJson;
    expect(unfused.ok).toBe(true);
    expect(unfused.best.scenario.training.gradientAccumulation).toBe('16-bit');
    expect(runEstimate(unfused.best.scenario)).toEqual(unfused.best.estimate);
    // A separate add per micro-batch can only slow the best plan down.
    expect(unfused.best.estimate.stepTimeSeconds).toBeGreaterThan(answer.best.estimate.stepTimeSeconds);
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
    expect(a.days).toBeCloseTo(300e9 / a.configuration.estimate.tokensPerSecond / 86_400, 9);
  });

  it('a budget of zero answers with the cheapest feasible run and why', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, gpuHours: 0 });
    expect(a.ok).toBe(false);
    if (a.ok) return;
    expect(a.reason).toBe('budget-unreachable');
    expect(a.closest!.gpuHours).toBeGreaterThan(0);
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

  it('inference answers the frontier and the best plan under a latency bound', () => {
    const a = runInference({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, promptTokens: 2048, outputTokens: 512, maxDecodeSecondsPerToken: 0.05 });
    if (!a.ok) throw new Error(a.message);
    expect(a.best!.decodeStepSeconds).toBeLessThanOrEqual(0.05);
    expect(a.frontier.length).toBeGreaterThan(1);
  });

  it('publishes a JSON Schema document for each request', () => {
    for (const doc of [searchRequestJsonSchema, nodesRequestJsonSchema, scaleRequestJsonSchema, inferenceRequestJsonSchema]) {
      expect(doc.type).toBe('object');
      expect(doc.$id).toMatch(/^https:\/\/trainplan\.dev\/schemas\//);
    }
  });
});
