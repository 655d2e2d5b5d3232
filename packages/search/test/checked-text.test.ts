import { describe, expect, it } from 'vitest';
import { checkedText } from '../src/index.ts';

describe('checkedText: the sizes below an answer that were checked', () => {
  it('one size below is said as that size, not as a span "from 1 to 1 node"', () => {
    expect(checkedText({ fromNodes: 1, noPlan: 0, outOfMemory: 0 }, 2)).toBe('1 node misses the deadline');
    expect(checkedText({ fromNodes: 1, noPlan: 1, outOfMemory: 1 }, 2)).toMatch(/^1 node runs no plan \(/);
  });

  it('several sizes keep the span', () => {
    expect(checkedText({ fromNodes: 1, noPlan: 0, outOfMemory: 0 }, 4)).toBe('every size from 1 to 3 nodes misses the deadline');
  });
});
