import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { budgetNotes } from '../src/answer/budget-note.ts';
import { compactCount } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('a budget on a stated cluster is said against the plan, never read and dropped', () => {
  it('how long on 64 nodes with a $1M budget: the cost, and by how much it misses', () => {
    const a = ask('how long to train 70b on 2T tokens on 64 H100 nodes at $2/GPU-hour with a $1M budget');
    const cost = (a.data as NodesOk).cost ?? Number.NaN;
    expect(cost).toBeGreaterThan(1e6);
    const note = a.notes.find((n) => n.endsWith(' over the $1M budget.'));
    expect(note).toMatch(/^\$[\d.]+M, \d+% over the \$1M budget\.$/);
    expect(note?.startsWith(`$${compactCount(cost)}, `)).toBe(true);
    // The percent said is data.cost's excess over $1M, whole above 10%: within half a point of it.
    const percent = Number(/, (\d+)% over/.exec(note ?? '')?.[1]);
    expect(Math.abs(percent - (cost / 1e6 - 1) * 100)).toBeLessThanOrEqual(0.5);
  });

  it('within the budget: what is left, the budget less data.cost', () => {
    const a = ask('how long to train 70b on 2T tokens on 64 H100 nodes at $2/GPU-hour with a $1.5M budget');
    const cost = (a.data as NodesOk).cost ?? Number.NaN;
    expect(cost).toBeLessThan(1.5e6);
    expect(a.notes.at(-1)).toMatch(/^\$1\.\d\dM, within the \$1\.5M budget \(\$\d+k left\)\.$/);
    expect(a.notes.at(-1)).toBe(`$${compactCount(cost)}, within the $1.5M budget ($${compactCount(1.5e6 - cost)} left).`);
  });

  it('a GPU-hour budget on a stated cluster, with no price', () => {
    const a = ask('how long to train llama3-70b on 15T tokens on 256 H100 nodes with a 1M GPU-hour budget');
    expect(a.notes.at(-1)).toMatch(/^[\d.]+M GPU-hours, \d+% over the 1M GPU-hour budget\.$/);
  });

  it('a stated layout (runEstimate) and a best configuration say it too', () => {
    expect(ask('how long for gpt3-175b on 64 H100 with tp 8 pp 8 at $4/gpu-hour with a $500k budget').notes.at(-1))
      .toMatch(/^\$\d+k, \d+% over the \$500k budget\.$/);
    expect(ask('best config for 70b on 64 nodes with 2T tokens at $2/GPU-hour with a $1M budget', { candidateBudget: 20_000 }).notes.at(-1))
      .toMatch(/^\$1\.\d\dM, \d+% over the \$1M budget\.$/);
  });

  it('no budget, no note', () => {
    expect(ask('how long to train 70b on 2T tokens on 64 H100 nodes at $2/GPU-hour').notes.join(' ')).not.toMatch(/budget/);
  });

  it('no cluster within the budget: the closest\'s cost in its currency (the search counts it bare)', () => {
    const a = ask('how many nodes to train 70b on 2T tokens at $2/GPU-hour with a $1M budget');
    expect(a.ok).toBe(false);
    // The closest is the time–cost curve's cheapest size (7 nodes, $1.08M, 8.0% over; before: 4 nodes, $1.17M, 17%).
    expect(a.notes).toContainEqual(expect.stringMatching(/^The closest: \$1\.\d\dM, \d+(?:\.\d)?% over the \$1M budget\.$/));
    const closest = (a.data as Extract<NodesResponseJson, { ok: false }>).closest;
    expect(a.notes.some((n) => n.startsWith(`The closest: $${compactCount(closest?.cost ?? Number.NaN)}, `))).toBe(true);
  });
});

describe('budgetNotes', () => {
  it.each([
    [{ costBudget: 1e6, currency: '$' }, { gpuHours: 598_000, cost: 1_196_000 }, ['$1.20M, 20% over the $1M budget.']],
    [{ costBudget: 1.2e6, currency: '$' }, { gpuHours: 598_000, cost: 1_196_000 }, ['$1.20M, within the $1.2M budget ($4.00k left).']],
    [{ gpuHours: 500_000 }, { gpuHours: 520_000 }, ['520k GPU-hours, 4.0% over the 500k GPU-hour budget.']],
    // 9.96% over rounds to 10.0 at one decimal, so it reads whole: "10%", never "10.0%".
    [{ gpuHours: 500_000 }, { gpuHours: 549_800 }, ['550k GPU-hours, 10% over the 500k GPU-hour budget.']],
    [{ gpuHours: 500_000 }, { gpuHours: 549_700 }, ['550k GPU-hours, 9.9% over the 500k GPU-hour budget.']],
    // A money budget is said against the spend's cost; a spend with none (no price) says nothing of it.
    [{ costBudget: 1e6 }, { gpuHours: 598_000 }, []],
  ] as const)('%j spending %j: %j', (p, spend, notes) => {
    expect(budgetNotes(p, spend)).toEqual(notes);
  });
});

describe('budgetNotes: whose spend the note says', () => {
  const p = { costBudget: 1e6, currency: '$' };
  it.each([
    ['answered', { gpuHours: 598_000, cost: 1_196_000 }, '$1.20M, 20% over the $1M budget.'],
    ['cheapest', { gpuHours: 598_000, cost: 1_196_000 }, 'Even the cheapest: $1.20M, 20% over the $1M budget.'],
    ['cheapest', { gpuHours: 440_000, cost: 880_000 }, 'The cheapest: $880k, within the $1M budget ($120k left).'],
    ['closest', { gpuHours: 598_000, cost: 1_196_000 }, 'The closest: $1.20M, 20% over the $1M budget.'],
  ] as const)('the %s plan spending %j: "%s"', (plan, spend, note) => {
    expect(budgetNotes(p, spend, { plan })).toEqual([note]);
  });
});
