import { describe, expect, it } from 'vitest';
import { withShapeDefaults } from '@trainplan/model';
import { costTimeFrontier, fastestWithinBudget, fewestNodes, meetsGoal, trainOnNodes, type CapacityOptions } from '../src/index.ts';
import { llama3DefaultBatchFor, llama70bBase } from './fixtures.ts';

/**
 * QA: Llama 3 70B on H100, 2T tokens at each size's default batch, 5M at 2 a GPU-hour: the budget's fastest and the
 * curve's "← fastest" were 8,192 nodes in 19.0 hours (2.49M), where --nodes 8100 takes 18.2 hours (2.36M) and --days
 * 0.7875 answers 7,884 nodes in 18.7 hours (2.36M): both faster, both within the budget. 8,100 nodes are 75 replicas of
 * TP 4 · PP 27 · CP 8 (108 nodes each), a shape no power of two, octave step or probe reached.
 */
describe('the budget\'s and the curve\'s fastest are not beaten by a size the deadline search finds', () => {
  const model = withShapeDefaults({ ...llama70bBase.model, name: 'llama3-70b', vocabSize: 128256, seqLength: 8192 });
  const base = { ...llama70bBase, model, seqLength: 8192, globalBatchSize: 512 };
  const tokens = 2e12;
  const options: CapacityOptions = { globalBatchFor: llama3DefaultBatchFor };
  const goal = { costBudget: 5e6, pricePerGpuHour: 2 };
  const budget = fastestWithinBudget(base, tokens, goal, options);
  if (!budget.ok) throw new Error(budget.message);
  const curve = costTimeFrontier(base, tokens, options, goal.pricePerGpuHour);
  if (!curve.ok) throw new Error(curve.message);
  const justUnder = (seconds: number): number => seconds * (1 - 1e-3);

  it('the QA\'s sizes, each within the budget, are no faster than the budget\'s answer nor the curve\'s fastest', () => {
    for (const nodes of [7884, 8100]) {
      const p = trainOnNodes(base, nodes, tokens, options, goal.pricePerGpuHour)!;
      expect(meetsGoal(p, goal), `${nodes} nodes within the budget`).toBe(true);
      expect(p.seconds, `${nodes} nodes`).toBeGreaterThanOrEqual(budget.seconds);
      expect(p.seconds, `${nodes} nodes`).toBeGreaterThanOrEqual(curve.fastest.seconds);
    }
  });

  it('a deadline 0.1% under the budget\'s answer, with the budget, is met by no size the deadline search finds', () => {
    const days = fewestNodes(base, tokens, { ...goal, deadlineSeconds: justUnder(budget.seconds) }, options);
    expect(days.ok, days.ok ? `${days.nodes} nodes in ${days.seconds} s` : '').toBe(false);
  });

  it('the same deadline without the budget: whatever size meets it exceeds the budget', () => {
    const days = fewestNodes(base, tokens, { deadlineSeconds: justUnder(budget.seconds), pricePerGpuHour: goal.pricePerGpuHour }, options);
    if (days.ok) expect(days.cost!).toBeGreaterThan(goal.costBudget);
  });

  it('a deadline 0.1% under the curve\'s fastest is met by no size the deadline search finds', () => {
    const days = fewestNodes(base, tokens, { deadlineSeconds: justUnder(curve.fastest.seconds) }, options);
    expect(days.ok, days.ok ? `${days.nodes} nodes in ${days.seconds} s` : '').toBe(false);
  });

  it('the budget, which affords the curve\'s fastest, answers a size no slower than it', () => {
    expect(meetsGoal(curve.fastest, goal)).toBe(true);
    expect(budget.seconds).toBeLessThanOrEqual(curve.fastest.seconds);
  });

  it('the note says the closing deadline search ran and what it found', () => {
    expect(budget.note).toMatch(/the search a deadline \(days\) with the budget runs \(its 128 sizes below 8,192 nodes and the replica families of the fastest sizes' shapes included\) at 0\.1% under the fastest found, (once, finding none faster|\d times, each but the last finding a faster size)/);
  });
});
