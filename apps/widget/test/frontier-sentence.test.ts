import { describe, expect, it } from 'vitest';
import { frontierAnswer } from './support/frontier-answer.ts';
import { formatCount, formatNumber, formatPercent } from '@trainplan/units';
import { frontierSentence } from '../src/sizing/frontier-sentence.ts';

// A real time–cost curve: GPT-3 175B, 300B tokens, A100 80GB, batch 1536 (16 nodes cheapest, 8192 fastest). The
// sentence's figures are the answer's own (the model's days and GPU-hours are not this test's subject); which sizes it
// names, in which order and how, is.
const answer = frontierAnswer();
const size = (nodes: number) => answer.frontier!.find((s) => s.nodes === nodes)!;
const more = (nodes: number) => `+${formatPercent(size(nodes).gpuHours / answer.gpuHours - 1, 0)}`;
const ends = `Cheapest: 16 nodes, ${formatNumber(answer.days)} days, ${formatCount(answer.gpuHours)} GPU-hours`;
const fastest = `fastest: 8,192 nodes, ${formatNumber(size(8192).days)} days for ${more(8192)}`;

describe('the time–cost sentence', () => {
  it('is about the curve the test expects: 16 nodes cheapest, 8,192 fastest, 128 and 1,024 on it between', () => {
    expect(answer.nodes).toBe(16);
    expect(answer.fastest?.nodes).toBe(8192);
    expect(answer.frontier?.map((s) => s.nodes)).toEqual(expect.arrayContaining([16, 128, 1024, 8192]));
    expect(answer.frontier?.some((s) => s.nodes === 100)).toBe(false);
  });

  it.each([
    [128, `${ends}; 128 nodes: ${formatNumber(size(128).days)} days for ${more(128)}; ${fastest}.`],
    [1024, `${ends}; 1,024 nodes: ${formatNumber(size(1024).days)} days for ${more(1024)}; ${fastest}.`],
    // Off the curve (no size of 100 was searched), or one of its ends: only the ends.
    [100, `${ends}; ${fastest}.`],
    [16, `${ends}; ${fastest}.`],
    [8192, `${ends}; ${fastest}.`],
  ])('on %i nodes reads "%s"', (nodes, expected) => {
    expect(frontierSentence(answer, nodes)).toBe(expected);
  });

  it('says only the cheapest when it is also the fastest', () => {
    const { nodes, gpus, days, seconds, gpuHours } = answer;
    const one = { ...answer, frontier: [{ ...answer.fastest!, nodes, gpus, days, seconds, gpuHours }], fastest: { ...answer.fastest!, nodes, gpus, days, seconds, gpuHours } };
    expect(frontierSentence(one, 128)).toBe(`${ends}.`);
  });
});
