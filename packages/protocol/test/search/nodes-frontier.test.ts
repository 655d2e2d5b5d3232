import { costTimeFrontier, MAX_NODES } from '@trainplan/search';
import { describe, expect, it } from 'vitest';
import { runEstimate, runNodes, validateNodesResponse } from '../../src/index.ts';
import { validate } from '../../src/schema/validate.ts';
import { nodesRequestSchema } from '../../src/search/nodes.ts';
import { resolveSearch } from '../../src/search/resolve-search.ts';

const request = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 1536 }, tokens: 300e9 };

describe('nodes: frontier, the time–cost curve over cluster sizes', () => {
  const a = runNodes({ ...request, frontier: true, pricePerGpuHour: 2 });
  if (!a.ok) throw new Error(a.message);

  it('answers the cheapest size with its configuration, the curve, and the fastest, as the search finds them', () => {
    expect(a.mode).toBe('cost-time-frontier');
    const valid = validate(nodesRequestSchema, { ...request, frontier: true });
    if (!valid.ok) throw new Error('invalid');
    const resolved = resolveSearch({ ...valid.value, training: { ...valid.value.training, tokens: request.tokens } }, { nodes: 1 });
    if (!resolved.ok) throw new Error('unresolved');
    const f = costTimeFrontier(resolved.value.base, request.tokens, {}, 2);
    if (!f.ok) throw new Error(f.message);
    expect(a.frontier!.map((p) => [p.nodes, p.days, p.gpuHours, p.pareto])).toEqual(f.points.map((p) => [p.nodes, p.days, p.gpuHours, p.pareto]));
    expect(a.nodes).toBe(f.cheapest.nodes);
    expect(a.fastest!.nodes).toBe(f.fastest.nodes);
    expect(a.searches).toBe(f.searches);
  });

  it('the answer is the cheapest point of its own curve, costed at the price, and its configuration re-estimates to the same figures', () => {
    const cheapest = a.frontier!.find((p) => p.nodes === a.nodes)!;
    expect(a.gpuHours).toBe(Math.min(...a.frontier!.map((p) => p.gpuHours)));
    expect(cheapest.cost).toBeCloseTo(2 * cheapest.gpuHours, 6);
    expect(a.cost).toBeCloseTo(2 * a.gpuHours, 6);
    expect(runEstimate(a.configuration.scenario)).toEqual(a.configuration.estimate);
    expect(cheapest.mfu).toBe(a.configuration.estimate.mfu);
    expect(cheapest.label).toBe(a.configuration.label);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it.each([
    [{ days: 30 }, 'days'], [{ nodes: 64 }, 'nodes'], [{ gpuHours: 1e6 }, 'gpuHours'],
  ])('frontier with a goal (%o) is refused, naming both', (goal, field) => {
    const r = runNodes({ ...request, ...goal, frontier: true });
    expect(r.ok).toBe(false);
    if (r.ok || r.reason !== 'invalid') throw new Error('expected an invalid request');
    expect(r.issues).toEqual([{ path: 'frontier', message: `give frontier (the time–cost curve) or a goal (${field}), not both` }]);
  });

  it('without a goal or frontier, the message offers frontier too', () => {
    const r = runNodes(request);
    if (r.ok) throw new Error('expected invalid');
    expect(r.message).toContain('or frontier');
  });
});

describe('nodes: frontier whose fastest is at the search\'s largest size says so in `note`', () => {
  // GPT-3 1.3B at 65,536 sequences a step: one sequence per GPU on 8,192 nodes of 8, so the curve keeps falling to the edge.
  const edge = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 65_536 }, tokens: 1e12, frontier: true };

  it('passes the search\'s note through, valid against the response schema', () => {
    const a = runNodes(edge);
    if (!a.ok) throw new Error(a.message);
    expect(a.fastest!.nodes).toBe(MAX_NODES);
    expect(a.note).toBe(`the search's largest size is ${MAX_NODES.toLocaleString('en-US')} nodes; larger clusters may be faster: give nodes (the days on that many nodes) to plan one`);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it('a curve whose fastest is far below it carries no note', () => {
    const a = runNodes({ ...request, frontier: true });
    if (!a.ok) throw new Error(a.message);
    // The note is said within 5% of the edge (capacity-sizer.ts); 175B at 1,536 sequences is fastest on 6,144 nodes.
    expect(a.fastest!.nodes).toBeLessThan(0.95 * MAX_NODES);
    expect(a).not.toHaveProperty('note');
  });
});

describe('nodes: frontier with a batch per size, each row states the batch it was planned at', () => {
  // The CLI's and the chat bot's default: each size at its own batch (here one sequence per node past 512, a stand-in).
  const globalBatchFor = (nodes: number): number => Math.max(512, nodes);
  const a = runNodes({ model: 'llama3-70b', cluster: { gpu: 'h100-sxm' }, training: { globalBatchSize: 512 }, tokens: 2e12, frontier: true }, { globalBatchFor });
  if (!a.ok) throw new Error(a.message);

  it('every point and the fastest carry globalBatchSize, the one that size took, and the answer validates', () => {
    for (const p of a.frontier!) expect(p.globalBatchSize, `${p.nodes} nodes`).toBe(globalBatchFor(p.nodes));
    expect(a.fastest!.globalBatchSize).toBe(globalBatchFor(a.fastest!.nodes));
    expect(new Set(a.frontier!.map((p) => p.globalBatchSize)).size).toBeGreaterThan(1);
    expect(validateNodesResponse(a)).toEqual({ ok: true, value: a });
  });

  it('a response without the batch still validates: the field is optional, the contract only extended', () => {
    const { globalBatchSize: _, ...older } = a.frontier![0]!;
    expect(validateNodesResponse({ ...a, frontier: [older] }).ok).toBe(true);
  });
});
