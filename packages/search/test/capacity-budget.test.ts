import { describe, expect, it } from 'vitest';
import { fastestWithinBudget, trainOnNodes } from '../src/index.ts';
import { gpt3Base } from './fixtures.ts';

const TOKENS = 300e9;
/** GPT-3 175B's 300B tokens cost about 0.48M GPU-hours on 8-64 nodes and more on fewer or more (falling MFU). */
const BUDGET = 600e3;

describe('fastestWithinBudget: a budget and no deadline', () => {
  const a = fastestWithinBudget(gpt3Base, TOKENS, { gpuHourBudget: BUDGET });

  it('answers the fastest plan the budget affords, not the smallest cluster that fits, and states both', () => {
    if (!a.ok) throw new Error(a.message);
    expect(a.gpuHours).toBeLessThanOrEqual(BUDGET);
    expect(a.smallest).toBeDefined();
    expect(a.nodes).toBeGreaterThan(a.smallest!.nodes);
    expect(a.seconds).toBeLessThan(a.smallest!.seconds);
    // The smallest cluster is the smallest: one node fewer does not run.
    expect(trainOnNodes(gpt3Base, a.smallest!.nodes - 1, TOKENS)).toBeUndefined();
  });

  it('no power of two is both within the budget and faster; the next one up would overspend', () => {
    if (!a.ok) throw new Error(a.message);
    for (let n = 1; n <= 4 * a.nodes; n *= 2) {
      const p = trainOnNodes(gpt3Base, n, TOKENS);
      if (p && p.gpuHours <= BUDGET) expect(p.seconds, `${n} nodes`).toBeGreaterThanOrEqual(a.seconds);
    }
    let next = 1;
    while (next <= a.nodes) next *= 2;
    expect(trainOnNodes(gpt3Base, next, TOKENS)!.gpuHours).toBeGreaterThan(BUDGET);
  });

  it('a money budget below every run gives the cheapest run\'s cost grouped by thousands', () => {
    const none = fastestWithinBudget(gpt3Base, TOKENS, { costBudget: 1000, pricePerGpuHour: 2 });
    if (none.ok) throw new Error('a budget of 1000 met');
    expect(none.message).toContain(`(a cost of ${Math.round(none.closest!.cost!).toLocaleString('en-US')} at the price given)`);
    expect(none.closest!.cost).toBeGreaterThan(1000);
  });

  it('a money budget is the GPU-hours times the price', () => {
    const money = fastestWithinBudget(gpt3Base, TOKENS, { costBudget: 2 * BUDGET, pricePerGpuHour: 2 });
    if (!money.ok || !a.ok) throw new Error('expected both to be met');
    expect(money.nodes).toBe(a.nodes);
    expect(money.cost).toBeCloseTo(2 * money.gpuHours, 6);
  });

  it('a budget below every run answers with the cheapest run found', () => {
    const none = fastestWithinBudget(gpt3Base, TOKENS, { gpuHourBudget: 1000 });
    expect(none.ok).toBe(false);
    if (none.ok) return;
    expect(none.reason).toBe('budget-unreachable');
    expect(none.closest!.gpuHours).toBeGreaterThan(1000);
    const hours = Math.round(none.closest!.gpuHours).toLocaleString('en-US');
    expect(hours).toContain(',');
    expect(none.message).toMatch(new RegExp(`cheapest run found takes ${hours} GPU-hours on [\\d,]+ nodes?`));
  });
});
