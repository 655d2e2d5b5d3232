import { describe, expect, it } from 'vitest';
import { frontierAnswer } from './support/frontier-answer.ts';
import { daysText } from '@trainplan/protocol';
import { formatCount, formatPercent } from '@trainplan/units';
import { frontierSentence } from '../src/sizing/frontier-sentence.ts';

// A real time–cost curve: GPT-3 175B, 300B tokens, A100 80GB, batch 1536. The sentence's figures are the answer's own
// (the model's days and GPU-hours are not this test's subject), and so are its ends, taken here from the sizes
// searched: the cheapest has the fewest GPU-hours, the fastest the fewest days. Which sizes it names, in which order
// and how, is the subject.
const answer = frontierAnswer();
const sizes = answer.frontier!;
const cheapest = sizes.reduce((a, b) => (b.gpuHours < a.gpuHours || (b.gpuHours === a.gpuHours && b.nodes < a.nodes) ? b : a));
const fastest = sizes.reduce((a, b) => (b.days < a.days || (b.days === a.days && b.gpuHours < a.gpuHours) ? b : a));
const size = (nodes: number) => sizes.find((s) => s.nodes === nodes)!;
const nodes = (n: number) => `${n.toLocaleString('en-US')} nodes`;
const more = (n: number) => `+${formatPercent(size(n).gpuHours / cheapest.gpuHours - 1, 0)}`;
const ends = `Cheapest: ${nodes(cheapest.nodes)}, ${daysText(cheapest.days)}, ${formatCount(cheapest.gpuHours)} GPU-hours`;
const fast = `fastest: ${nodes(fastest.nodes)}, ${daysText(fastest.days)} for ${more(fastest.nodes)}`;
const between = (n: number) => `${nodes(n)}: ${daysText(size(n).days)} for ${more(n)}`;

// Sizes on the curve between its ends: the default scenario's 128 nodes and the one in the middle of the rest; and a
// node count between the smallest and the largest that was not searched.
const inside = sizes.filter((s) => s.nodes !== cheapest.nodes && s.nodes !== fastest.nodes).map((s) => s.nodes);
const middle = inside[Math.floor(inside.length / 2)]!;
let unsearched = sizes[0]!.nodes;
while (size(unsearched)) unsearched += 1;

describe('the time–cost sentence', () => {
  it('is about a curve with two ends and sizes between them, and node counts it did not search', () => {
    expect(answer.nodes).toBe(cheapest.nodes);
    expect(answer.gpuHours).toBe(cheapest.gpuHours);
    expect(answer.fastest?.nodes).toBe(fastest.nodes);
    expect(cheapest.nodes).not.toBe(fastest.nodes);
    expect(inside).toEqual(expect.arrayContaining([128]));
    expect(middle).not.toBe(128);
    expect(unsearched).toBeLessThan(Math.max(...sizes.map((s) => s.nodes)));
  });

  it.each([
    ['the default scenario', 128, `${ends}; ${between(128)}; ${fast}.`],
    ['a size in the middle', middle, `${ends}; ${between(middle)}; ${fast}.`],
    // Off the curve (not searched), or one of its ends: only the ends.
    ['a size not searched', unsearched, `${ends}; ${fast}.`],
    ['the cheapest', cheapest.nodes, `${ends}; ${fast}.`],
    ['the fastest', fastest.nodes, `${ends}; ${fast}.`],
  ])('on %s (%i nodes) reads "%s"', (_what, n, expected) => {
    expect(frontierSentence(answer, n)).toBe(expected);
  });

  it('says days as the CLI does (protocol\'s daysText): the fastest, within a day, in hours (QA: "6,144 nodes, 0.990 days")', () => {
    expect(fastest.days).toBeLessThan(1);
    const said = frontierSentence(answer, 128);
    expect(said).toMatch(new RegExp(`fastest: ${nodes(fastest.nodes)}, \\d+\\.\\d hours for `));
    expect(said).not.toMatch(/\b0\.\d+ days/);
  });

  it('says only the cheapest when it is also the fastest', () => {
    const { nodes: n, gpus, days, seconds, gpuHours } = answer;
    const one = { ...answer, frontier: [{ ...answer.fastest!, nodes: n, gpus, days, seconds, gpuHours }], fastest: { ...answer.fastest!, nodes: n, gpus, days, seconds, gpuHours } };
    expect(frontierSentence(one, 128)).toBe(`${ends}.`);
  });
});
