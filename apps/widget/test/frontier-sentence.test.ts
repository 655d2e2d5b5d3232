import { describe, expect, it } from 'vitest';
import { frontierAnswer } from './support/frontier-answer.ts';
import { frontierSentence } from '../src/sizing/frontier-sentence.ts';

// A real time–cost curve: GPT-3 175B, 300B tokens, A100 80GB, batch 1536 (16 nodes cheapest, 8192 fastest).
const answer = frontierAnswer();
const ends = 'Cheapest: 16 nodes, 155 days, 476 k GPU-hours';
const fastest = 'fastest: 8,192 nodes, 1.17 days for +287%';

describe('the time–cost sentence', () => {
  it.each([
    [128, `${ends}; 128 nodes: 20.5 days for +6%; ${fastest}.`],
    [1024, `${ends}; 1,024 nodes: 3.66 days for +51%; ${fastest}.`],
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
