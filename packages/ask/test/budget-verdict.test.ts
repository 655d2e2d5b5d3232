import type { NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { asksIfEnough } from '../src/answer/budget-verdict.ts';
import { compactCount, moneyText } from '../src/format.ts';
import { parse } from '../src/parse.ts';

type NodesFail = Extract<NodesResponseJson, { ok: false }>;
type NodesOk = Extract<NodesResponseJson, { ok: true }>;

describe('"is this budget enough" is answered yes or no, its money in the question\'s currency', () => {
  const question = 'is $1M enough to train llama3 70b at $2/gpu-hour';

  it('no size within $1M: "No:" first, the cheapest run\'s cost in dollars at the price, never the bare count', () => {
    const a = ask(question, { publicUrl: null });
    const closest = (a.data as NodesFail).closest;
    const cost = closest?.cost ?? Number.NaN;
    expect(cost).toBeGreaterThan(1e6);
    expect(a.headline.startsWith('No: ')).toBe(true);
    expect(a.headline).toContain(`(${moneyText(cost, '$')} at $2/GPU-hour)`);
    expect(a.headline).toContain('within the $1M budget');
    expect(a.headline).not.toMatch(/price given|a cost of \d/);
    // Nor in the notes: the closest's why, the search's message, is said once, in dollars.
    expect(a.notes.join(' ')).not.toMatch(/price given/);
  });

  it('and what $1M buys: the token budget scaled by the budget over the cheapest run\'s GPU-hours at the price', () => {
    const a = ask(question, { publicUrl: null });
    const tokens = parse(question).parameters.tokens ?? Number.NaN;
    const gpuHours = (a.data as NodesFail).closest?.gpuHours ?? Number.NaN;
    expect(a.headline).toContain(`; $1M buys about ${compactCount((1e6 / 2 / gpuHours) * tokens)} of the ${compactCount(tokens)} tokens`);
  });

  it('a budget some size stays within: "Yes:" first, its cost no more than the budget', () => {
    const a = ask('is $10M enough to train llama3 70b at $2/gpu-hour', { publicUrl: null });
    expect(a.ok).toBe(true);
    expect((a.data as NodesOk).cost).toBeLessThanOrEqual(10e6);
    expect(a.headline.startsWith('Yes: ')).toBe(true);
  });

  it('a budget with a decimal point ("$1.2M") is asked whether all the same (before: the point ended the sentence, no "Yes:")', () => {
    const whether = (text: string) => asksIfEnough(text, parse(text).stated);
    expect(whether('is $1.2M enough to train llama3 70b at $2/gpu-hour')).toBe(true);
    expect(ask('is $12.5M enough to train llama3 70b at $2/gpu-hour', { publicUrl: null }).headline.startsWith('Yes: ')).toBe(true);
    // A point that ends a sentence still ends it: the "enough" after it belongs to another sentence.
    expect(whether('is it $1.2M at $2/gpu-hour to train llama3 70b. enough')).toBe(false);
  });

  it('a GPU-hour budget is answered so too, and what it buys in tokens', () => {
    const a = ask('is 1M gpu-hours enough to train llama3 70b', { publicUrl: null });
    const gpuHours = (a.data as NodesFail).closest?.gpuHours ?? Number.NaN;
    expect(gpuHours).toBeGreaterThan(1e6);
    expect(a.headline.startsWith('No: ')).toBe(true);
    expect(a.headline).toContain('within the 1M GPU-hour budget');
    expect(a.headline).toContain(`; 1M GPU-hours buy about ${compactCount((1e6 / gpuHours) * (parse('is 1M gpu-hours enough to train llama3 70b').parameters.tokens ?? Number.NaN))} of the`);
  });

  it('a budget with a deadline too: the search\'s costs in dollars', () => {
    const a = ask('is $1M enough to train llama3 70b in 30 days at $2/gpu-hour', { publicUrl: null });
    const cost = (a.data as NodesFail).closest?.cost ?? Number.NaN;
    expect(a.headline.startsWith('No: ')).toBe(true);
    expect(a.headline).toContain(`${moneyText(cost, '$')} at $2/GPU-hour, ${moneyText(cost - 1e6, '$')} over the $1M budget`);
    expect(a.headline).not.toMatch(/price given/);
  });

  it('a question that does not ask whether is not answered yes or no, though its money is in dollars', () => {
    const a = ask('how many nodes to train 70b on 2T tokens at $2/GPU-hour with a $1M budget', { publicUrl: null });
    expect(a.headline).not.toMatch(/^(?:Yes|No): /);
    expect(a.headline).toContain(`${moneyText((a.data as NodesFail).closest?.cost ?? Number.NaN, '$')} at $2/GPU-hour`);
  });
});

describe('asksIfEnough', () => {
  const budget = { costBudget: 1e6 };
  it.each([
    ['is $1M enough to train llama3 70b', budget, true],
    ['would 2M GPU-hours be sufficient for gpt3', { gpuHours: 2e6 }, true],
    ['does $500k suffice to train llama3 8b', budget, true],
    ['how many nodes are enough to train 70b with a $1M budget', budget, false],
    ['train 70b with a $1M budget', budget, false],
    // Enough of something, with no budget asked about: a deadline's question (deadline-verdict.ts).
    ['is 2 weeks enough to train 8b on 64 h100', {}, false],
  ] as const)('"%s" (%j): %s', (text, p, expected) => {
    expect(asksIfEnough(text, p)).toBe(expected);
  });
});

describe('a yes-or-no question on a stated cluster is answered yes or no against its budget or deadline', () => {
  type SearchOk = { best: { cost?: number; gpuHours?: number; days?: number } };
  const onCluster = 'llama3-70b on 2T tokens on 64 H100 nodes';

  it('"is $1M enough … on 64 nodes": "No:", the best plan\'s cost over the budget by how much, and the tokens $1M buys', () => {
    const a = ask(`is $1M enough to train ${onCluster} at $2/GPU-hour`, { publicUrl: null });
    const best = (a.data as SearchOk).best;
    expect(best.cost).toBeGreaterThan(1e6);
    expect(a.headline.startsWith('No: Best for ')).toBe(true);
    expect(a.headline).toContain(`, ${moneyText(best.cost! - 1e6, '$')} over the $1M budget; $1M buys about `);
  });

  it('"can I … for $1.5M": "Yes:", and the budget it stays within', () => {
    const a = ask(`can I train ${onCluster} for $1.5M at $2/GPU-hour`, { publicUrl: null });
    expect((a.data as SearchOk).best.cost).toBeLessThanOrEqual(1.5e6);
    expect(a.headline.startsWith('Yes: Best for ')).toBe(true);
    expect(a.headline).toMatch(/, within the \$1\.5M budget$/);
  });

  it('"can I … in 60 days" on the cluster: "Yes:" where its time to train is within, "No:" in 30 days', () => {
    const yes = ask(`can I train ${onCluster} in 60 days`, { publicUrl: null });
    const no = ask(`can I train ${onCluster} in 30 days`, { publicUrl: null });
    const days = (yes.data as { days: number }).days;
    expect(days).toBeGreaterThan(30);
    expect(days).toBeLessThanOrEqual(60);
    expect(yes.headline).toMatch(/^Yes: .*, within the 60 days asked$/);
    expect(no.headline).toMatch(/^No: .*, not within the 30 days asked: /);
  });

  it('the same cluster asked for its best plan with a budget, not whether: the budget said, no verdict', () => {
    const a = ask('best config for llama3-70b on 64 H100 nodes with a $1M budget at $2/GPU-hour', { publicUrl: null });
    expect(a.headline).not.toMatch(/^(?:Yes|No): /);
    expect(a.headline).toContain('over the $1M budget');
  });
});

describe('asksIfEnough: a "can I" question with a budget or deadline asks whether', () => {
  it.each([
    ['can I train 70b on 64 h100 nodes for $1.5M', { costBudget: 1.5e6 }, true],
    ['could we train llama3 8b in 60 days on 8 h100', { deadlineSeconds: 60 * 86400 }, true],
    ['train 70b in 60 days on 64 h100', { deadlineSeconds: 60 * 86400 }, false],
    ['can I train llama3 8b on 8 h100', {}, false],
    ['can you tell me how many nodes for 70b in 30 days', { deadlineSeconds: 30 * 86400 }, false],
  ] as const)('"%s" (%j): %s', (text, p, expected) => {
    expect(asksIfEnough(text, p)).toBe(expected);
  });
});
