import { pipelineSplit } from '@trainplan/model';
import { runEstimate as runEstimates, type EstimateJson, type ScenarioInput } from '@trainplan/protocol';
import { formatBytes, GiB } from '@trainplan/units';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { fittingLayout, splitText } from '../src/answer/fitting-layout.ts';
import { modelShapeOf } from '../src/model-of.ts';
import { parse } from '../src/parse.ts';
import { scenarioOf } from '../src/scenario.ts';

const GPUS_PER_NODE = 8;
/** One scenario's estimate (runEstimate answers a list with a list). */
const runEstimate = (scenario: ScenarioInput): EstimateJson => runEstimates(scenario) as EstimateJson;
const fits = (r: EstimateJson): boolean => r.ok && r.memory.fits;
/** The asked scenario with another pipeline depth (and recompute), one replica: its GPUs as whole nodes, or part of one. */
function layout(asked: ScenarioInput, change: { pipeline: number; recompute?: 'full' }): ScenarioInput {
  const gpus = (asked.parallelism?.tensor ?? 1) * change.pipeline;
  return {
    ...asked,
    cluster: { gpu: asked.cluster.gpu, gpusPerNode: GPUS_PER_NODE, ...(gpus % GPUS_PER_NODE === 0 ? { nodes: gpus / GPUS_PER_NODE } : { gpus }) },
    parallelism: { ...asked.parallelism, pipeline: change.pipeline, ...(change.recompute !== undefined && { recompute: change.recompute }) },
  };
}
/** The deepest pipeline shallower than `pipeline` with a Megatron split whose replica fills whole nodes: one fewer stage. */
const shallower = (layers: number, tensor: number, pipeline: number): number | undefined =>
  Array.from({ length: pipeline - 1 }, (_, i) => pipeline - 1 - i)
    .find((pp) => pipelineSplit(layers, pp) !== undefined && ((tensor * pp) % GPUS_PER_NODE === 0 || GPUS_PER_NODE % (tensor * pp) === 0));
const HEADLINE = /: does not fit: needs [\d.]+ GiB per GPU, 79\.6 GiB available; fits with pipeline parallel (\d+)( and full recompute)? on (\d+) nodes? \((\d+) GPUs\): ([\d.]+ GiB) per GPU$/;

describe('a memory question whose layout does not fit names the smallest that does', () => {
  it.each([
    // 30B at TP 4 (its 52 heads split over 4, not 8), one replica on 4 GPUs.
    ['memory for llama 30b', 4],
    ['memory for gpt3-175b', 8],
    ['memory for llama 3 405b', 8],
  ])('"%s": the layout named fits when the protocol is run on it, and one fewer stage does not', (question, tensor) => {
    const a = ask(question);
    expect(a.ok).toBe(false);
    const m = HEADLINE.exec(a.headline);
    expect(m, a.headline).not.toBeNull();
    const [, pp, full, nodes, gpus, perGpu] = m!;
    const pipeline = Number(pp);
    const recompute = full === undefined ? undefined : 'full' as const;
    // One replica, as asked: TP × PP GPUs, on whole nodes.
    expect(Number(gpus)).toBe(tensor * pipeline);
    expect(Number(nodes) * GPUS_PER_NODE).toBe(Number(gpus));
    const asked = a.scenario!;
    expect(asked.parallelism?.tensor).toBe(tensor);
    const fit = runEstimate(layout(asked, { pipeline, ...(recompute && { recompute }) }));
    expect(fit.ok && fit.resolved.nodes).toBe(Number(nodes));
    expect(fits(fit)).toBe(true);
    if (!fit.ok) return;
    expect(formatBytes(fit.memory.totalBytes)).toBe(perGpu);
    expect(figureOf(a, 'Memory per GPU (closest)')).toBe(`${perGpu} of ${formatBytes(fit.memory.capacityBytes)} (fits)`);
    // Hand-worked floor: mixed-precision Adam keeps 18 bytes a parameter (Korthikanti et al. 2022), unsharded with one
    // replica, and the heaviest stage holds at least the average: 18 P / (TP × PP) fit in the GPU's memory.
    expect((18 * fit.parameters) / (tensor * pipeline)).toBeLessThanOrEqual(fit.memory.capacityBytes);
    // One fewer stage (the next shallower Megatron split on whole nodes, at the same recompute) does not fit.
    const layers = modelShapeOf(parse(question).parameters)!.layers;
    const fewer = shallower(layers, tensor, pipeline)!;
    expect(fits(runEstimate(layout(asked, { pipeline: fewer, ...(recompute && { recompute }) })))).toBe(false);
    // The note gives the split and what one fewer stage needs.
    const note = a.notes.find((n) => n.includes('The fewest pipeline stages'))!;
    expect(note).toContain(`PP ${pipeline} (Megatron's split of ${layers} layers: ${splitText(layers, pipeline)})`);
    expect(note).toMatch(new RegExp(`; PP ${fewer} needs [\\d.]+ GiB per GPU\\.$`));
  });

  it('30B: two stages on one node, hand-worked from Megatron\'s split (55 layers: 28 + 27)', () => {
    const a = ask('memory for llama 30b');
    expect(a.headline).toMatch(/; fits with pipeline parallel 2 on 1 node \(8 GPUs\): [\d.]+ GiB per GPU$/);
    expect(a.configuration).toMatch(/^closest that fits, not what was asked: TP 4 · PP 2 · DP 1 · /);
    expect(a.notes).toContain(`The fewest pipeline stages at tensor parallel 4 that fit: PP 2 (Megatron's split of 55 layers: 28 + 27); PP 1 needs ${formatBytes((a.data as Extract<EstimateJson, { ok: false }>).neededBytes!)} per GPU.`);
  });

  it('405B: no depth fits with selective recompute (the first stage keeps a whole model\'s activations), so full recompute is said and why', () => {
    const a = ask('memory for llama 3 405b');
    expect(a.headline).toMatch(/ and full recompute on /);
    expect(a.configuration).toMatch(/ · full recompute · /);
    expect(a.notes.join(' ')).toMatch(/^No pipeline depth at tensor parallel 8 fits with selective recompute: the deepest, PP \d+, still needs [\d.]+ GiB per GPU, since under 1F1B/);
  });

  it.each([
    ['memory for llama 30b', 8],
    ['memory for gpt3-175b', 8],
    // Two levers searched: deeper pipelines at selective recompute, then with full recompute.
    ['memory for llama 3 405b', 16],
  ])('"%s" runs a handful of estimates (at most %d): each lever a bisection of its depths', (question, most) => {
    const q = parse(question);
    const search = fittingLayout(q, runEstimate(scenarioOf(q.parameters)))!;
    expect('fit' in search).toBe(true);
    expect(search.estimates).toBeLessThanOrEqual(most);
  });

  it('a cluster named with its layout is kept: the stages come out of data parallelism on the same nodes', () => {
    const a = ask('does llama3.1-405b fit on 16 H200 nodes with tp 8 pp 1');
    const m = /; fits with pipeline parallel (\d+) on the same 16 nodes \(data parallel (\d+)\): [\d.]+ GiB per GPU$/.exec(a.headline);
    expect(m, a.headline).not.toBeNull();
    const [pipeline, data] = [Number(m![1]), Number(m![2])];
    expect(8 * pipeline * data).toBe(16 * GPUS_PER_NODE);
    const asked = a.scenario!;
    expect(fits(runEstimate({ ...asked, parallelism: { ...asked.parallelism, pipeline } }))).toBe(true);
    // The depth before, that still divides the 128 GPUs: half as many stages.
    expect(fits(runEstimate({ ...asked, parallelism: { ...asked.parallelism, pipeline: pipeline / 2 } }))).toBe(false);
  });

  it('no depth fits at the tensor parallelism asked, even with full recompute: said so, with the deepest tried and what would help', () => {
    const a = ask('memory for 405B with tp 1 pp 1 on a100');
    expect(a.headline).not.toMatch(/fits with/);
    // No closest plan's figures: only what fills the GPU as asked (memory-parts.ts).
    expect(a.figures.map((f) => f.label)).toEqual(['Memory by part (as asked)']);
    const note = a.notes.find((n) => n.startsWith('No pipeline depth'))!;
    const need = /the deepest, PP \d+, still needs ([\d.]+) (GiB|TiB) per GPU/.exec(note);
    expect(need).not.toBeNull();
    expect(Number(need![1]) * (need![2] === 'TiB' ? 1024 : 1)).toBeGreaterThan(80);
    expect(note).toMatch(/more tensor parallelism splits the weights and activations further\.$/);
  });

  it('a layout that fits is answered as before, with no closest', () => {
    const a = ask('memory for 70B with tp 8 pp 4 on A100 80GB');
    expect(a.ok).toBe(true);
    expect(a.figures.some((f) => f.label.endsWith('(closest)'))).toBe(false);
    expect(a.memoryPerGpuBytes).toBeLessThanOrEqual(GiB(80));
  });
});

describe('splitText: Megatron\'s first / middle / last split of the layers', () => {
  it.each([
    [55, 2, '28 + 27'],
    [96, 6, '6 × 16'],
    // ⌈126/13⌉ = 10 on each of 11 middle stages, 16 left: 8 first, 8 last.
    [126, 13, '8 + 11 × 10 + 8'],
    [126, 16, '7 + 14 × 8 + 7'],
    [80, 1, 'all 80'],
  ])('%d layers over %d stages: %s', (layers, pipeline, text) => {
    expect(splitText(layers, pipeline)).toBe(text);
  });
});

function figureOf(a: ReturnType<typeof ask>, label: string): string | undefined {
  return a.figures.find((f) => f.label === label)?.value;
}
