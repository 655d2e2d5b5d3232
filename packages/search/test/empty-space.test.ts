import { describe, expect, it } from 'vitest';
import { searchPlans, whyNothingFits } from '../src/index.ts';
import { llama3_70bBase } from './fixtures.ts';

describe('whySpaceIsEmpty: constraints that leave no candidate say which of them contradict', () => {
  it.each([
    [{ tensorSizes: [16], tensorWithinNode: true }, 'tensorSizes asks for TP 16, but tensorWithinNode keeps tensor parallelism within a node\'s 8 GPUs (16 > 8)'],
    [{ tensorSizes: [16, 32], maxTensor: 8 }, 'tensorSizes asks for TP 16, 32, but maxTensor caps it at 8 (16 > 8)'],
    [{ tensorSizes: [16], maxTensor: 4, tensorWithinNode: true }, 'tensorSizes asks for TP 16, but maxTensor caps it at 4 (16 > 4) and tensorWithinNode keeps tensor parallelism within a node\'s 8 GPUs (16 > 8)'],
    [{ pipelineSizes: [8], maxPipeline: 4 }, 'pipelineSizes asks for PP 8, but maxPipeline caps it at 4 (8 > 4)'],
  ])('%o: %s', (constraints, why) => {
    const r = searchPlans(llama3_70bBase, { constraints });
    expect(r.spaceSize).toBe(0);
    expect(whyNothingFits(r)).toBe(`the constraints contradict each other: ${why}`);
  });

  it('a space with candidates has no such reason, even where none of them runs', () => {
    const r = searchPlans(llama3_70bBase, { constraints: { tensorSizes: [8], tensorWithinNode: true, pipelineSizes: [3] } });
    expect(r.spaceSize).toBeGreaterThan(0);
    expect(r.emptySpace).toBeUndefined();
  });
});
