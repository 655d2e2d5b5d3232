import { describe, expect, it } from 'vitest';
import { nodesText, trainOnNodes } from '@trainplan/search';
import { runNodes, validateNodesResponse } from '../../src/index.ts';
import { validate } from '../../src/schema/validate.ts';
import { BATCH_BOUND_BUBBLE_FRACTION, batchBound, largerBatch, MATERIAL_GAIN, materiallyBetter } from '../../src/search/nodes-larger-batch.ts';
import { nodesRequestSchema } from '../../src/search/nodes.ts';
import { resolveSearch } from '../../src/search/resolve-search.ts';

// GPT-3 175B for 300B tokens on DGX H100 nodes at a 4M-token batch: two days need hundreds of nodes,
// where 2048 sequences leave each pipeline few micro-batches; thirty days need a few dozen.
const request = (globalBatchSize: number, goal: Record<string, number>) => ({
  model: 'gpt3-175b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize }, tokens: 300e9, ...goal,
});

const bubbleOf = (e: { stepTimeSeconds: number; breakdown: { pipelineBubbleSeconds: number } }) =>
  e.breakdown.pipelineBubbleSeconds / e.stepTimeSeconds;

describe('nodes: a batch that holds the plan back', () => {
  it('a deadline whose answer is bubble-bound also answers with twice the batch, as asking with that batch does', () => {
    const a = runNodes(request(2048, { days: 2 }));
    if (!a.ok) throw new Error(a.message);
    const hint = a.largerBatch;
    if (!hint) throw new Error('no largerBatch on a bubble-bound answer');
    expect(bubbleOf(a.configuration.estimate)).toBeGreaterThanOrEqual(BATCH_BOUND_BUBBLE_FRACTION);
    expect(hint.bubbleFraction).toBe(bubbleOf(a.configuration.estimate));
    expect(hint.globalBatchSize).toBe(4096);
    expect(hint.nodes).toBeLessThan(a.nodes);
    expect(hint.days).toBeLessThanOrEqual(2);
    const asked = runNodes(request(4096, { days: 2 }));
    if (!asked.ok) throw new Error(asked.message);
    expect({ nodes: hint.nodes, days: hint.days, gpuHours: hint.gpuHours }).toEqual({ nodes: asked.nodes, days: asked.days, gpuHours: asked.gpuHours });
    expect(hint.message).toContain(`${a.nodes - hint.nodes} fewer`);
    expect(hint.message).toContain('critical batch size');
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it("the larger batch's search reports progress but not its cluster sizes: one size note per search of the request's", () => {
    const sizes: number[] = [];
    let progress = 0;
    const a = runNodes(request(2048, { days: 2 }), { onClusterSize: (n) => sizes.push(n), onProgress: () => { progress += 1; } });
    if (!a.ok) throw new Error(a.message);
    expect(a.largerBatch).toBeDefined();
    expect(sizes).toHaveLength(a.searches);
    expect(progress).toBeGreaterThan(0);
  });

  it('days on given nodes: the larger batch is offered when it trains faster on the same nodes', () => {
    const a = runNodes(request(2048, { nodes: 784 }));
    if (!a.ok) throw new Error(a.message);
    const hint = a.largerBatch;
    if (!hint) throw new Error('no largerBatch on a bubble-bound answer');
    const asked = runNodes(request(4096, { nodes: 784 }));
    if (!asked.ok) throw new Error(asked.message);
    expect(hint.nodes).toBe(784);
    expect(hint.days).toBe(asked.days);
    expect(hint.days).toBeLessThan(a.days);
  });

  it('a deadline no cluster meets at the batch asked is met with twice the batch, and the failure says so', () => {
    const a = runNodes(request(2048, { days: 0.3 }));
    if (a.ok) throw new Error('0.3 days met at a batch of 2048');
    expect(a.reason).toBe('deadline-unreachable');
    const hint = a.largerBatch;
    if (!hint) throw new Error('no largerBatch on an unreachable deadline');
    expect(hint.days).toBeLessThanOrEqual(0.3);
    expect(hint.message).toContain(`meet the deadline on ${nodesText(hint.nodes)}`);
    const asked = runNodes(request(4096, { days: 0.3 }));
    if (!asked.ok) throw new Error(asked.message);
    expect(hint.nodes).toBe(asked.nodes);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it('a plan whose bubble is small and whose ranks accumulate micro-batches gets no hint', () => {
    const a = runNodes(request(2048, { days: 30 }));
    if (!a.ok) throw new Error(a.message);
    expect(bubbleOf(a.configuration.estimate)).toBeLessThan(BATCH_BOUND_BUBBLE_FRACTION);
    expect(a.largerBatch).toBeUndefined();
  });

  it('a deadline with a budget gets no hint: the larger batch would have to stay within the budget too', () => {
    const a = runNodes(request(2048, { days: 2, gpuHours: 1e6 }));
    if (!a.ok) throw new Error(a.message);
    expect(bubbleOf(a.configuration.estimate)).toBeGreaterThanOrEqual(BATCH_BOUND_BUBBLE_FRACTION);
    expect(a.largerBatch).toBeUndefined();
  });

  it('a token budget under one step of the larger batch gets no hint (training takes whole steps)', () => {
    // 2048 × 2048 tokens is one step at the request's batch; twice that is more than the budget.
    const a = runNodes({ ...request(2048, { nodes: 784 }), tokens: 2048 * 2048 });
    if (!a.ok) throw new Error(a.message);
    expect(a.largerBatch).toBeUndefined();
  });
});

describe('nodes: one micro-batch per data-parallel rank', () => {
  it('GPT-3 1.3B at a batch of 64 on 64 GPUs: each rank holds one micro-batch, and 128 trains materially faster', () => {
    const a = runNodes({ model: 'gpt3-1.3b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 64 }, tokens: 100e9, nodes: 8 });
    if (!a.ok) throw new Error(a.message);
    const p = a.configuration.scenario.parallelism;
    expect((p?.data ?? 1) * (a.configuration.scenario.training.microBatchSize ?? 1)).toBe(64);
    const hint = a.largerBatch;
    if (!hint) throw new Error('no largerBatch for one micro-batch per rank');
    expect(hint.message).toContain('gets a single micro-batch');
    expect(hint.days).toBeLessThanOrEqual((1 - MATERIAL_GAIN) * a.days);
  });
});

describe('nodes: the hint on a small run reads in its own units', () => {
  it('Llama 2 7B on 2 nodes at a batch of 2: one pipeline, 2 micro-batches, minutes not "0.0 days"', () => {
    const a = runNodes({ model: 'llama2-7b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 2 }, tokens: 1e8, nodes: 2 });
    if (!a.ok) throw new Error(a.message);
    expect(a.days).toBeLessThan(1 / 24);
    const hint = a.largerBatch;
    if (!hint) throw new Error('expected a hint for a bubble-bound pipeline');
    expect(hint.message).toMatch(/\(one pipeline of \d+ stages takes 2 sequences, 2 micro-batches\)/);
    expect(hint.message).toMatch(/would take \d+ minutes on 2 nodes \(\d+ minutes at the batch of 2\)/);
    expect(hint.message).not.toMatch(/micro-batchs|1 data-parallel|0\.0/);
  });
  it('GPT-3 1.3B on 1 node at a batch of 1: the whole batch is a single micro-batch, in hours', () => {
    const a = runNodes({ model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1 }, tokens: 1e9, nodes: 1 });
    if (!a.ok) throw new Error(a.message);
    const hint = a.largerBatch;
    if (!hint) throw new Error('expected a hint for one micro-batch');
    expect(hint.message).toContain('the whole batch (1 sequence) is a single micro-batch');
    expect(hint.message).toMatch(/would take [\d.]+ hours on 1 node \([\d.]+ hours at the batch of 1\)/);
  });
});

describe('nodes: a larger batch is offered only for a material gain', () => {
  const onNodes = { kind: 'nodes', nodes: 8 } as const;
  const deadline = { kind: 'deadline', deadlineSeconds: 86_400 } as const;
  it.each([
    ['days on nodes, 5% fewer days', onNodes, { nodes: 8, seconds: 100 }, { nodes: 8, seconds: 95 }, true],
    ['days on nodes, 4% fewer days', onNodes, { nodes: 8, seconds: 100 }, { nodes: 8, seconds: 96 }, false],
    ['a deadline, 20 of 400 nodes fewer', deadline, { nodes: 400, seconds: 80_000 }, { nodes: 380, seconds: 86_000 }, true],
    ['a deadline, 19 of 400 nodes fewer', deadline, { nodes: 400, seconds: 80_000 }, { nodes: 381, seconds: 86_000 }, false],
    ['a missed deadline, met on more nodes', { ...deadline, missed: true }, { nodes: 400, seconds: 90_000 }, { nodes: 410, seconds: 86_000 }, true],
  ] as const)('%s', (_title, question, point, found, offered) => {
    expect(materiallyBetter(question, point, found)).toBe(offered);
  });
});

describe('largerBatch with whenBound: false (the time–cost curve\'s fastest size)', () => {
  const base = (() => {
    const valid = validate(nodesRequestSchema, { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, nodes: 128 });
    if (!valid.ok) throw new Error('invalid');
    const r = resolveSearch({ ...valid.value, training: { ...valid.value.training, tokens: 300e9 } }, { nodes: 1 });
    if (!r.ok) throw new Error('unresolved');
    return r.value.base;
  })();

  it('tries twice the batch on a plan the batch does not visibly hold back, and says so without a "holds back" reason', () => {
    const point = trainOnNodes(base, 1024, 300e9)!;
    expect(batchBound(point, base.globalBatchSize)).toBe(false);
    expect(largerBatch(base, 300e9, point, { kind: 'nodes', nodes: 1024 }, {})).toBeUndefined();
    const hint = largerBatch(base, 300e9, point, { kind: 'nodes', nodes: 1024 }, {}, { whenBound: false });
    if (!hint) throw new Error('expected twice the batch to train materially faster on 1024 nodes');
    expect(hint.message).toMatch(/^A global batch of 3,072 sequences \(6\.29M tokens\) would take [\d.]+ days on 1,024 nodes \([\d.]+ days at the batch of 1,536\), if the model trains as well/);
    expect(hint.days).toBe(trainOnNodes({ ...base, globalBatchSize: 3072 }, 1024, 300e9)!.days);
  });

  it('the frontier answer carries it for its fastest size', () => {
    const a = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9, frontier: true });
    if (!a.ok) throw new Error(a.message);
    expect(a.largerBatch?.nodes).toBe(a.fastest!.nodes);
    expect(a.largerBatch!.days).toBeLessThan(a.fastest!.days);
    const asked = runNodes({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 3072 }, tokens: 300e9, nodes: a.fastest!.nodes });
    if (!asked.ok) throw new Error(asked.message);
    expect(a.largerBatch!.days).toBe(asked.days);
  });
});
