import { describe, expect, it } from 'vitest';
import { bar, DEFAULT_BAR_WIDTH } from '../../src/format/bars.ts';
import { displayWidth } from '../../src/format/table.ts';

describe('bar', () => {
  it.each([
    [0, 10, ''],
    [1, 10, '██████████'],
    [0.5, 10, '█████'],
    [0.25, 3, '▊'],
    [0.55, 10, '█████▌'],
    [0.001, 10, '▏'],
    [1.7, 4, '████'],
    [-0.2, 10, ''],
    [Number.NaN, 10, ''],
  ])('a fraction of %d over %i cells is %j', (fraction, width, expected) => {
    expect(bar(fraction, width)).toBe(expected);
  });

  it(`is ${DEFAULT_BAR_WIDTH} cells long at most by default`, () => {
    expect(displayWidth(bar(1))).toBe(DEFAULT_BAR_WIDTH);
    expect(displayWidth(bar(0.999))).toBeLessThanOrEqual(DEFAULT_BAR_WIDTH);
  });
});
