import type { FrontierSizeJson, NodesOkJson, NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { frontierSection, searchedNodesSection } from '../src/element/results.ts';
import { sizeOf, withSizes } from '../src/sizing/merged-frontier.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, '');
const size = (nodes: number, days: number, gpuHours: number): FrontierSizeJson => sizeOf(nodes, nodes * 8, { days, seconds: days * 86_400, gpuHours }, `plan on ${nodes}`, 0.4);

/** A curve of powers of two, as runNodes with frontier answered for GPT-3 175B, 15T tokens (the fastest: 8,192 nodes, 58.6 days). */
const curve = {
  ok: true, mode: 'cost-time-frontier', tokens: 15e12, searches: 3, configuration: { label: 'TP 8' },
  ...size(4096, 78.6, 50e6), frontier: [size(4096, 78.6, 50e6), size(8192, 58.6, 92e6)], fastest: size(8192, 58.6, 92e6),
} as unknown as NodesOkJson;

describe('the time–cost curve with the sizes the other answers searched', () => {
  it('takes "how many nodes"\' answer (6,144 nodes, 49.4 days) as the fastest, where the curve alone said 8,192 nodes, 58.6 days', () => {
    expect(text(frontierSection(curve, 128))).toContain('fastest: 8,192 nodes, 58.6 days');
    const merged = withSizes(curve, [undefined, size(6144, 49.4, 58e6)]);
    expect(merged.fastest?.nodes).toBe(6144);
    expect(merged.frontier?.map((s) => [s.nodes, s.pareto])).toEqual([[4096, true], [6144, true], [8192, false]]);
    expect(text(frontierSection(merged, 128))).toContain('fastest: 6,144 nodes, 49.4 days');
  });

  it('takes a cheaper size as the cheapest, and the form\'s own size beyond the largest searched', () => {
    const merged = withSizes(curve, [size(16_384, 40, 100e6), size(2048, 120, 40e6)]);
    expect([merged.nodes, merged.days, merged.fastest?.nodes]).toEqual([2048, 120, 16_384]);
  });
});

describe('the searched "how many nodes" with no size up to 8,192 nodes meeting the deadline', () => {
  const failed = {
    ok: false, reason: 'deadline-unreachable', message: 'no cluster of up to 8,192 nodes meets the deadline: the fastest found takes 199.2 days on 6,144 nodes',
    closest: { why: 'x', nodes: 6144, days: 199.2 },
  } as NodesResponseJson;

  it("says what the plan found on the form's own, larger cluster takes (16,384 nodes, 146 days)", () => {
    const html = searchedNodesSection(failed, size(16_384, 146.2, 460e6), 60);
    expect(html).toContain('data-searched-own="16384"');
    expect(text(html)).toContain('On your 16,384 nodes, searched: 146.2 days, 460 M GPU-hours with plan on 16384.');
    expect(text(searchedNodesSection(failed, size(16_384, 50, 160e6), 60))).toContain('50.0 days, within the deadline');
    // Not when the form's size is no faster than the closest found.
    expect(searchedNodesSection(failed, size(64, 900, 1e6), 60)).not.toContain('data-searched-own');
  });
});
