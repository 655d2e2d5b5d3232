import { describe, expect, it } from 'vitest';
import { CASE_FLOORS, CASES_PER_RUN_TARGET } from '../src/index.ts';

describe('cases generated per run', () => {
  it('each fuzz file asserts its floor after its last test, and the floors sum past 10,000 (issue 8)', () => {
    const total = Object.values(CASE_FLOORS).reduce((a, b) => a + b, 0);
    expect(CASES_PER_RUN_TARGET).toBe(10_000);
    expect(total).toBeGreaterThanOrEqual(CASES_PER_RUN_TARGET);
  });
});
