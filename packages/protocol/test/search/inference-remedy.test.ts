import { describe, expect, it } from 'vitest';
import { ceilFigures } from '../../src/search/inference-remedy.ts';

describe('ceilFigures', () => {
  it.each([
    [12.23, 12.3], [109.3, 110], [0.11998, 0.12], [12.2, 12.2], [1, 1], [0.0012231, 0.00123], [999.1, 1000],
  ])('rounds %d up to three significant figures: %d', (x, up) => {
    expect(ceilFigures(x)).toBe(up);
  });

  it('is never below its argument, so the plan a loosened bound comes from meets it', () => {
    for (let i = 1; i < 2000; i++) {
      const x = i * 0.0137;
      expect(ceilFigures(x)).toBeGreaterThanOrEqual(x);
      expect(ceilFigures(x) / x).toBeLessThan(1.01);
    }
  });
});
